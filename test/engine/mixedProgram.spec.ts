// A program mixing a component, a Kubernetes resource and a dynamic resource: only the dynamic one reaches the
// provider host; the others are recorded in state as the engine records them.
import * as assert from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { ItemStore } from "./fixtures/itemStore";
import { Command } from "./operation";
import { runPulumi, RunPulumiResult } from "./runPulumi";
import { unwrapSecrets } from "./propertyValues";

const PROGRAM = path.join(__dirname, "fixtures", "mixed");
const TOKEN = "mixed-token-41c9";
const BUNDLE = "urn:pulumi:dev::fixture-mixed::fixture:index:Bundle::bundle";
const CONFIG_MAP = "urn:pulumi:dev::fixture-mixed::fixture:index:Bundle$kubernetes:core/v1:ConfigMap::bundle-settings";
const ITEM = "urn:pulumi:dev::fixture-mixed::fixture:index:Bundle$pulumi-nodejs:dynamic/fixture:Item::bundle-item";
const STACK = "urn:pulumi:dev::fixture-mixed::pulumi:pulumi:Stack::fixture-mixed-dev";

describe("engine: a program mixing components, Kubernetes and dynamic resources", function () {
    const store = new ItemStore(TOKEN);
    let url = "";
    let directory = "";

    before(async () => {
        url = await store.start();
        directory = fs.mkdtempSync(path.join(os.tmpdir(), "engine-mixed-"));
    });
    after(async () => {
        await store.stop();
        fs.rmSync(directory, { recursive: true, force: true });
    });

    async function run(command: Command, mode: string): Promise<{ result: RunPulumiResult; calls: string[] }> {
        const mark = store.journal.length;
        const result = await runPulumi({
            command,
            programDir: PROGRAM,
            stack: "dev",
            stateFile: path.join(directory, "dev.json"),
            config: { itemsUrl: url, mode },
            secrets: { apiToken: TOKEN },
            env: { PULUMI_CONFIG_PASSPHRASE: "mixed" },
        });
        assert.strictEqual(result.exitCode, 0, `${result.stdout}\n${result.stderr}`);
        return { result, calls: store.ops(mark) };
    }

    it("up: the ConfigMap echoes its inputs with a fake id, and only the item reaches the host", async () => {
        const { result, calls } = await run("up", "fast");
        assert.deepStrictEqual(calls, ["configure", "check bundle-item", "configure", "check bundle-item", "create bundle-item"]);
        const configMap = result.state.resources[CONFIG_MAP];
        assert.ok(configMap?.custom);
        assert.strictEqual(configMap.id, "bundle-settings-id");
        assert.deepStrictEqual(configMap.outputs, configMap.inputs);
        assert.deepStrictEqual(configMap.inputs.data, { mode: "fast" });
        assert.strictEqual(result.state.resources[ITEM].outputs.label, "bundle-settings");
        assert.strictEqual(result.state.resources[ITEM].parent, BUNDLE);
        assert.deepStrictEqual(result.state.resources[BUNDLE].outputs, { configMap: "bundle-settings" });
        assert.deepStrictEqual(unwrapSecrets(result.outputs.configMapName), "bundle-settings");
    });

    it("preview: a changed Kubernetes input shows as an update; the item is checked and diffed only", async () => {
        const { result, calls } = await run("preview", "safe");
        assert.deepStrictEqual(calls, ["configure", "check bundle-item", "diff bundle-item"]);
        const ops = Object.fromEntries(result.steps.map((step) => [step.urn, step.op]));
        assert.deepStrictEqual(ops, { [STACK]: "same", [BUNDLE]: "same", [CONFIG_MAP]: "update", [ITEM]: "same" });
    });

    it("destroy: children before their component, the stack last", async () => {
        const { result, calls } = await run("destroy", "safe");
        assert.deepStrictEqual(calls, ["configure", "delete bundle-item"]);
        const order = result.steps.map((step) => step.urn);
        assert.strictEqual(order.length, 4);
        assert.ok(order.indexOf(BUNDLE) > order.indexOf(ITEM) && order.indexOf(BUNDLE) > order.indexOf(CONFIG_MAP), order.join("\n"));
        assert.strictEqual(order[3], STACK);
    });
});
