// lazyModules.js leaves TypeScript's compiler, npm's arborist, normalize-package-data, execa and the Automation API
// unloaded until @pulumi/pulumi uses them, and what it hands @pulumi/pulumi meanwhile works as the packages do: the closure serializer
// (TypeScript) and computeCodePaths (arborist, normalize-package-data) answer as they do without it. (The Automation
// API's use of execa is the CLI tier's: test/cli/automation.spec.ts.)
import * as assert from "assert";
import { execFileSync } from "child_process";
import * as path from "path";

const REPOSITORY = path.resolve(__dirname, "..", "..");
const LAZY_MODULES = path.join(__dirname, "lazyModules.js");
const DEFERRED = String.raw`/node_modules\/(typescript|@npmcli\/arborist|normalize-package-data|execa|@pulumi\/pulumi\/automation)\//`;

const PROBE = `(async () => {
    const loadedOnes = () => Object.keys(require.cache).filter((file) => ${DEFERRED}.test(file)).length;
    const pulumi = require("@pulumi/pulumi");
    const afterLoading = loadedOnes();
    class Base { hello() { return "base"; } }
    class Child extends Base { hello() { return super.hello() + "!"; } }
    const captured = { n: 42 };
    const serialized = await pulumi.runtime.serializeFunction(() => new Child().hello() + captured.n);
    const codePaths = await pulumi.runtime.computeCodePaths();
    const automation = Object.keys(pulumi.automation).sort();
    const workspace = typeof pulumi.automation.LocalWorkspace.create;
    console.log(JSON.stringify({ afterLoading, serialized: serialized.text, codePaths: [...codePaths.keys()].sort(), automation, workspace, afterUse: loadedOnes() > 0 }));
})().catch((error) => { console.error(error.stack); process.exit(1); });`;

interface Probe {
    afterLoading: number;
    serialized: string;
    codePaths: string[];
    automation: string[];
    workspace: string;
    afterUse: boolean;
}

function probe(preload: string[]): Probe {
    const out = execFileSync(process.execPath, [...preload, "-e", PROBE], { cwd: REPOSITORY, encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } });
    return JSON.parse(out) as Probe;
}

describe("the tests' deferred modules (test/support/lazyModules.js)", () => {
    it("@pulumi/pulumi loads without TypeScript, arborist, normalize-package-data, execa and the Automation API, and its closure serializer, computeCodePaths and Automation API answer as without the deferral", () => {
        const eager = probe([]);
        const lazy = probe(["--require", LAZY_MODULES]);
        assert.ok(eager.afterLoading > 0, "without it, loading @pulumi/pulumi loads them");
        assert.strictEqual(lazy.afterLoading, 0, "with it, loading @pulumi/pulumi does not");
        assert.ok(lazy.afterUse, "using them loads them");
        assert.match(lazy.serialized, /super/);
        assert.strictEqual(lazy.serialized, eager.serialized);
        assert.deepStrictEqual(lazy.codePaths, eager.codePaths);
        assert.ok(lazy.codePaths.length > 0);
        assert.deepStrictEqual(lazy.automation, eager.automation);
        assert.ok(lazy.automation.includes("LocalWorkspace"));
        assert.strictEqual(lazy.workspace, "function");
    });
});
