// Loaded first (`-r`) by the Node processes the tests start (mocha and its workers, the test engine's processes, the
// program servers): TypeScript is transpiled file by file without a type check, as ts-node's transpile-only mode does
// (`npm test` type-checks the whole project first), but each file's JavaScript is kept on disk, keyed by its content.
// A run starts a few hundred processes; each would otherwise pay TypeScript's first transpile (about 1.3 CPU-seconds).
// (V8's compiled code is kept by codeCache.js.)
"use strict";
const crypto = require("crypto");
const fs = require("fs");
const path = require("path");

const ROOT = path.resolve(__dirname, "..", "..");
const { TEST_CACHE: CACHE } = require("./testCache.js");
const TRANSPILED = path.join(CACHE, "transpiled");
const TSCONFIG = path.join(ROOT, "tsconfig.json");
const TSCONFIG_TEXT = fs.readFileSync(TSCONFIG, "utf8");

/** What else decides a file's JavaScript: the compiler's version and the project's compiler options. */
const SALT = [JSON.parse(fs.readFileSync(require.resolve("typescript/package.json"), "utf8")).version, TSCONFIG_TEXT].join("\n");

let compilerOptions;

function transpile(source, fileName) {
    const ts = require("typescript");
    if (compilerOptions === undefined) {
        const { config } = ts.parseConfigFileTextToJson(TSCONFIG, TSCONFIG_TEXT);
        const { options } = ts.convertCompilerOptionsFromJson(config.compilerOptions, ROOT);
        compilerOptions = { ...options, sourceMap: false, inlineSourceMap: true, declaration: false, outDir: undefined };
    }
    return ts.transpileModule(source, { compilerOptions, fileName }).outputText;
}

function javaScriptOf(fileName) {
    const source = fs.readFileSync(fileName, "utf8");
    // Its JavaScript names the file by its base name only: a program copied into each test's own folder is one entry.
    const key = crypto.createHash("sha256").update(SALT).update(path.basename(fileName)).update(source).digest("hex");
    const cached = path.join(TRANSPILED, `${key}.js`);
    try {
        return fs.readFileSync(cached, "utf8");
    } catch {
        const code = transpile(source, fileName);
        // Written whole, then renamed: a process reading it meanwhile finds it complete or not at all.
        fs.mkdirSync(TRANSPILED, { recursive: true });
        const partial = `${cached}.${process.pid}.tmp`;
        fs.writeFileSync(partial, code);
        fs.renameSync(partial, cached);
        return code;
    }
}

require.extensions[".ts"] = (module, fileName) => module._compile(javaScriptOf(fileName), fileName);
// Error stacks name the TypeScript lines, as under ts-node.
process.setSourceMapsEnabled(true);
