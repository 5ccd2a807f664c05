// Loaded by processPreload.js in every Node process a test run starts: V8's compiled code of each CommonJS file is kept
// on disk, keyed by the file's content and the Node version, and handed back to V8 the next time a process loads the
// file. A run starts several hundred Node processes (dynamic-provider hosts the Pulumi CLI starts, programs, the test
// engine's processes); each loads @pulumi/pulumi, and compiling it is about 40% of a host's CPU. On Node 22 and later
// Node's own compile cache does this; on Node 20 Module.prototype._compile is replaced for JavaScript files only: the
// tests' TypeScript (transpiled with inline source maps), a file with a dynamic import, or one with a syntax CommonJS
// cannot hold (an ES module, which Node then loads its own way) goes to Node's compile untouched. (A cached file's
// external source map is not read: its stack frames name its JavaScript lines.)
"use strict";
const crypto = require("crypto");
const fs = require("fs");
const Module = require("module");
const path = require("path");
const vm = require("vm");

const { TEST_CACHE } = require("./testCache.js");

const STORE = path.join(TEST_CACHE, "v8", `${process.version}-${process.arch}`);

function keepCompiledCode() {
    if (typeof Module.enableCompileCache === "function") {
        Module.enableCompileCache(STORE);
        return;
    }
    fs.mkdirSync(STORE, { recursive: true });
    const nodeCompile = Module.prototype._compile;
    Module.prototype._compile = function compileWithCache(content, filename) {
        if (loadingAcorn || !/\.c?js$/.test(filename) || content.includes("sourceMappingURL=data:")) return nodeCompile.call(this, content, filename);
        // Keyed by content alone: the package copied into a test's project shares its code with the original.
        const cacheFile = path.join(STORE, crypto.createHash("sha1").update(content).digest("hex"));
        const cachedData = readIfThere(cacheFile);
        if (cachedData === undefined && !cacheable(content, cacheFile)) return nodeCompile.call(this, content, filename);
        let script;
        try {
            script = new vm.Script(Module.wrap(content), { filename, cachedData });
        } catch {
            // Not CommonJS: Node's own compile reports it or loads it as an ES module.
            return nodeCompile.call(this, content, filename);
        }
        const compiled = script.runInThisContext({ displayErrors: true });
        const result = compiled.call(this.exports, this.exports, requireFor(this), this, filename, path.dirname(filename));
        // Taken after the module ran, so that the functions its loading compiled are in it too.
        if (cachedData === undefined || script.cachedDataRejected) writeWhole(cacheFile, script.createCachedData());
        return result;
    };
}

/**
 * Whether V8 may compile the file outside Node's loader: code so compiled cannot import() (Node 20 finds no import
 * callback for it, nor for a function it makes with `new Function` or eval). A file whose text has none of these words
 * is; one that has (in a string, say: TypeScript's compiler, 9 MB, has `import(` in messages only) is tokenized once,
 * and the answer kept beside the cache as a marker when it is no.
 */
function cacheable(content, cacheFile) {
    if (!/\bimport\s*\(|\beval\b|\bFunction\b(?!\s*\.)/.test(content)) return true;
    const refused = `${cacheFile}.imports`;
    if (fs.existsSync(refused)) return false;
    if (!importsDynamically(content)) return true;
    writeWhole(refused, "");
    return false;
}

let acorn;
let loadingAcorn = false;

function importsDynamically(content) {
    if (acorn === undefined) {
        loadingAcorn = true;
        try {
            acorn = require("acorn");
        } finally {
            loadingAcorn = false;
        }
    }
    let previous;
    try {
        for (const token of acorn.tokenizer(content, { ecmaVersion: "latest", allowHashBang: true })) {
            if (token.type === acorn.tokTypes.parenL && previous?.type === acorn.tokTypes._import) return true;
            if (token.type === acorn.tokTypes.name && token.value === "eval") return true;
            // `Function.prototype` makes no function; `Function(...)`, `new Function(...)` or the constructor passed on may.
            if (previous?.type === acorn.tokTypes.name && previous.value === "Function" && token.type !== acorn.tokTypes.dot) return true;
            previous = token;
        }
    } catch {
        return true;
    }
    return false;
}

function readIfThere(file) {
    try {
        return fs.readFileSync(file);
    } catch {
        return undefined;
    }
}

/** The `require` Node hands a CommonJS module. */
function requireFor(module) {
    const require = (id) => module.require(id);
    const resolve = (request, options) => Module._resolveFilename(request, module, false, options);
    resolve.paths = (request) => Module._resolveLookupPaths(request, module);
    require.resolve = resolve;
    require.main = process.mainModule;
    require.extensions = Module._extensions;
    require.cache = Module._cache;
    return require;
}

/** Written whole, then renamed: a process reading it meanwhile finds it complete or not at all. */
function writeWhole(file, data) {
    try {
        const partial = `${file}.${process.pid}.tmp`;
        fs.writeFileSync(partial, data);
        fs.renameSync(partial, file);
    } catch {
        // A cache that cannot be written costs time, never a result.
    }
}

keepCompiledCode();
module.exports = { STORE };
