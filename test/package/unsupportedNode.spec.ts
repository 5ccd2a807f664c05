// A Node line the package does not run on (Node 20, from the npm registry through test/tools/nodeLine.sh): every way
// the package's code is first loaded fails at once with the supported lines named and the release that still runs
// there, never with a stack trace from inside a dependency at the first request.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { OLDEST_NODE, unsupportedNode } from "../../sdk/nodeSupport";
import { ENTRY_POINTS } from "../../provider/shared/entryPoints";

const REPOSITORY = resolve(__dirname, "..", "..");
const NODE_LINE = join(REPOSITORY, "test", "tools", "nodeLine.sh");
const REFUSAL =
    /^Error: pulumi-platform runs on Node\.js 22 \(22\.19 or later\), 24 and 26; this process runs Node\.js 20\.\d+\.\d+: upgrade Node\.js\. Node\.js 20 reached its end of life on 30 April 2026; pulumi-platform 0\.3\.x is the last release for it\.$/m;

describe("on Node 20, which the package does not run on", function () {
    this.timeout(120_000);
    let node20Bin: string;

    before(() => {
        node20Bin = execFileSync("sh", [NODE_LINE, "20"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
    });

    const runNode20 = (args: string[], env: NodeJS.ProcessEnv = {}) => {
        const run = spawnSync(join(node20Bin, "node"), args, { cwd: REPOSITORY, encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "", ...env } });
        return { status: run.status, stderr: run.stderr, stdout: run.stdout };
    };
    const refused = (run: { status: number | null; stderr: string }, what: string) => {
        assert.notEqual(run.status, 0, `${what} loaded on Node 20`);
        assert.match(run.stderr, REFUSAL, `${what}:\n${run.stderr}`);
        assert.doesNotMatch(run.stderr, /node_modules[\\/]undici|node_modules[\\/]@kubernetes/, `${what}: the failure comes from a dependency`);
    };

    it("the package root, pulumi-platform/kubernetes and every entry module the state's shims require", () => {
        for (const module of ["pulumi-platform", "pulumi-platform/kubernetes", ...Object.values(ENTRY_POINTS)]) {
            refused(runNode20(["-e", `require(${JSON.stringify(module)})`]), module);
        }
    });

    it("a state's shim, loaded by the dynamic-provider host, names the reason in every call", () => {
        const script = `
            const { providerShim } = require("./dist/provider/shared/providerShim");
            const shim = providerShim(${JSON.stringify(ENTRY_POINTS.clusterScale)}, "ClusterScale");
            shim.configure({ config: {} })
                .then(() => shim.check({}, { resourceName: "cluster" }))
                .catch((error) => { process.stderr.write(error.message + "\\n"); process.exit(2); });`;
        const run = runNode20(["-e", script]);
        assert.equal(run.status, 2, run.stderr);
        assert.match(
            run.stderr,
            /^ClusterScale "cluster": cannot load pulumi-platform\/dist\/provider\/clusterScale\/provider \(pulumi-platform runs on Node\.js 22 \(22\.19 or later\), 24 and 26; this process runs Node\.js 20\./,
        );
    });

    it("the provider plugin's launcher, with Node 20 first on PATH, exits before it serves", () => {
        const launcher = join(REPOSITORY, "plugin", "pulumi-resource-platform");
        const run = spawnSync(launcher, [], {
            encoding: "utf8",
            env: { ...process.env, NODE_OPTIONS: "", PATH: `${node20Bin}${delimiter}${process.env.PATH}` },
        });
        assert.notEqual(run.status, 0);
        assert.equal(run.stdout, "", "the plugin printed a port");
        assert.match(run.stderr, REFUSAL);
    });
});

describe("the supported Node lines", () => {
    it("package.json's engines is the oldest release the package loads on", () => {
        const manifest = JSON.parse(readFileSync(join(REPOSITORY, "package.json"), "utf8")) as { engines: { node: string } };
        assert.equal(manifest.engines.node, `>=${OLDEST_NODE}`);
    });

    it("22.19 and later releases of 22, 24 and 26 run it; 22.18 and 20 are refused, only 20 pointed to 0.3.x", () => {
        for (const version of ["22.19.0", "22.23.5", "24.0.0", "24.22.3", "26.12.1", "v26.0.0"]) assert.equal(unsupportedNode(version), undefined, version);
        assert.match(
            unsupportedNode("22.18.0") ?? "",
            /runs on Node\.js 22 \(22\.19 or later\), 24 and 26; this process runs Node\.js 22\.18\.0: upgrade Node\.js\.$/,
        );
        assert.match(unsupportedNode("20.20.2") ?? "", /Node\.js 20\.20\.2: upgrade Node\.js\. Node\.js 20 reached its end of life .*0\.3\.x/);
    });
});
