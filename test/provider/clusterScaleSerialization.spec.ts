// The provider as Pulumi ships it: serialized by the closure serializer, loaded back from the text, and run.
import * as assert from "assert";
import * as pulumi from "@pulumi/pulumi";
import { INTERRUPTED_CHANGE_PROVIDER } from "../../provider/clusterScaleInterrupted";
import { clusterScaleProvider } from "../../provider/clusterScaleProvider";
import { RunningEmulator, startEmulator } from "../emulator";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const requireFromString = require("require-from-string") as (code: string) => { handler: () => pulumi.dynamic.ResourceProvider };

describe("ClusterScale: the serialized provider", function () {
    this.timeout(60_000);
    let emulator: RunningEmulator;
    // What the provider prints, captured instead of shown between the test titles.
    const printed: string[] = [];
    const consoleLog = console.log;
    beforeEach(() => {
        printed.length = 0;
        console.log = (...args: unknown[]) => void printed.push(args.join(" "));
    });
    afterEach(() => {
        console.log = consoleLog;
    });

    before(async () => {
        emulator = await startEmulator({ brokers: 3, partitions: 3, replicationFactor: 3, opMs: 5 });
        emulator.control.startBroker(3);
    });
    after(() => emulator?.close());

    it("serializes without secrets, loads back from its text, and plans and applies a change", async () => {
        const serialized = await pulumi.runtime.serializeFunction(() => clusterScaleProvider, { allowSecrets: true });
        assert.strictEqual(serialized.containsSecrets, false);
        const provider = requireFromString(serialized.text).handler();
        await provider.configure!({
            config: { get: (key: string) => (key === "platform:managementUrl" ? emulator.managementUrl : undefined), require: () => "" },
        });

        const checked = await provider.check!({}, { resourceName: "serialized", brokerCount: 4, __provider: serialized.text });
        assert.deepStrictEqual(checked.failures, undefined);
        assert.strictEqual(checked.inputs.managementUrl, emulator.managementUrl, "configure's stack config was used");
        const created = await provider.create({ ...checked.inputs, timeoutSeconds: 30 });
        assert.strictEqual(created.id, `${emulator.managementUrl}/actuator/cluster`);
        assert.deepStrictEqual(
            created.outs.topology.map((broker: { id: number }) => broker.id),
            [0, 1, 2, 3],
        );
        assert.strictEqual(created.outs.auth, undefined);
        const mutating = emulator.control.requests().filter((entry) => entry.method !== "GET" && entry.query.dryRun !== "true");
        assert.strictEqual(mutating.length, 1);
        assert.ok(
            printed.some((line) => line.includes('ClusterScale "serialized": change 2 completed: 4 brokers')),
            printed.join("\n"),
        );
    });

    it("the provider kept by a partial failure loads, refreshes to the recorded layout and deletes nothing", async () => {
        const provider = requireFromString(INTERRUPTED_CHANGE_PROVIDER).handler();
        const props = { resourceName: "kept", changeId: 7, topology: [] };
        assert.deepStrictEqual(await provider.read!("id", props), { id: "id", props });
        await provider.delete!("id", props);
        assert.ok(
            printed.every((line) => line.includes('ClusterScale "kept": change 7 had not completed when last applied; run up to resume')),
            printed.join("\n"),
        );
        assert.match(printed[1], /removed from the stack only, nothing is sent to the cluster/);
    });
});
