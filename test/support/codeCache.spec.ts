// codeCache.js hands V8's code of a module to the next process that loads it, and leaves to Node the modules whose code,
// so compiled, could not import(): a process with a warm cache loads and runs them as one with a cold cache does.
import * as assert from "assert";
import { execFileSync } from "child_process";
import { createHash, randomUUID } from "crypto";
import * as fs from "fs";
import Module from "module";
import * as os from "os";
import * as path from "path";

const CODE_CACHE = path.join(__dirname, "codeCache.js");
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain JavaScript preload: its folder, as it decides it
const { STORE } = require(CODE_CACHE) as { STORE: string };
const NODE_OWN_CACHE = typeof (Module as unknown as { enableCompileCache?: unknown }).enableCompileCache === "function";

describe("the tests' V8 code cache (test/support/codeCache.js)", () => {
    let dir: string;
    before(() => {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), "code-cache-"));
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it("a warm process loads what a cold one does; modules that import() (directly or through new Function) are left to Node", () => {
        // A fresh line in each file: their content, the cache's key, is new to the cache.
        const fresh = `// ${randomUUID()}\n`;
        const files: Record<string, string> = {
            "plain.js": `${fresh}const note = "an ES module needs import( here";\nmodule.exports = { answer: 6 * 7, note, resolved: require.resolve("./direct.js") };\n`,
            "direct.js": `${fresh}module.exports = () => import("node:path").then((m) => typeof m.join);\n`,
            "constructed.js": `${fresh}const load = new Function("id", "return import(id)");\nmodule.exports = () => load("node:os").then((m) => typeof m.cpus);\n`,
        };
        for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
        const script = `(async () => {
            const plain = require("./plain.js");
            console.log(JSON.stringify([plain.answer, plain.note, plain.resolved, await require("./direct.js")(), await require("./constructed.js")()]));
        })().catch((error) => { console.error(error.message); process.exit(1); });`;
        const run = () =>
            execFileSync(process.execPath, ["--require", CODE_CACHE, "-e", script], { cwd: dir, encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } });

        const expected = JSON.stringify([42, "an ES module needs import( here", path.join(fs.realpathSync(dir), "direct.js"), "function", "function"]);
        assert.strictEqual(run().trim(), expected, "cold");
        assert.strictEqual(run().trim(), expected, "warm");
        if (NODE_OWN_CACHE) return;
        const kept = (name: string) => path.join(STORE, createHash("sha1").update(files[name]).digest("hex"));
        assert.ok(fs.existsSync(kept("plain.js")), "plain.js's code is kept (its import( is in a string)");
        for (const name of ["direct.js", "constructed.js"]) {
            assert.ok(!fs.existsSync(kept(name)), `${name}'s code is not kept`);
            assert.ok(fs.existsSync(`${kept(name)}.imports`), `${name} is marked as one that imports`);
        }
    });
});
