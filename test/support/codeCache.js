// Loaded first by every Node process a test run starts, through NODE_OPTIONS (fastRequire.js sets it): V8's compiled
// code of each CommonJS file is kept on disk, keyed by the file's content and the Node version, and handed back to V8
// the next time a process loads the file. A run starts several hundred Node processes (dynamic-provider hosts the
// Pulumi CLI starts, programs, the test engine's processes); each loads @pulumi/pulumi, and compiling it is about 40% of
// a host's CPU. On Node 22 and later Node's own compile cache does this; on Node 20 Module.prototype._compile is
// replaced for plain JavaScript files only: a file with an inline source map (the tests' transpiled TypeScript), with a
// dynamic import, or with a syntax CommonJS cannot hold (an ES module, which Node then loads its own way) goes to Node's
// compile untouched.
"use strict";
const crypto = require("crypto");
const fs = require("fs");
const Module = require("module");
const path = require("path");
const vm = require("vm");

// Code V8 takes from a cache made by another process cannot import() (Node's import callback is not in it): such files
// are left to Node. A false match (the word in a string) only costs the cache.
const DYNAMIC_IMPORT = /\bimport\s*\(/;

const STORE = path.join(__dirname, "..", "..", "node_modules", ".cache", "pulumi-platform-tests", "v8", `${process.version}-${process.arch}`);

function keepCompiledCode() {
    if (typeof Module.enableCompileCache === "function") {
        Module.enableCompileCache(STORE);
        return;
    }
    fs.mkdirSync(STORE, { recursive: true });
    const nodeCompile = Module.prototype._compile;
    Module.prototype._compile = function compileWithCache(content, filename) {
        if (!/\.c?js$/.test(filename) || content.includes("sourceMappingURL=data:") || DYNAMIC_IMPORT.test(content))
            return nodeCompile.call(this, content, filename);
        const cacheFile = path.join(STORE, crypto.createHash("sha1").update(filename).update("\0").update(content).digest("hex"));
        let cachedData;
        try {
            cachedData = fs.readFileSync(cacheFile);
        } catch {
            cachedData = undefined;
        }
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
