// Partition scaling (PATCH partitions.count) behind the brokers' feature switch, and worked
// example E of the reference: 3 -> 6 brokers and 3 -> 6 partitions.

import { strict as assert } from "node:assert";
import { emulatorApi, holdStartedOperation, http, layout, plan, releasePlan, useEmulator, waitFor } from "./harness";
import { RELEASES } from "./settings";
import { ResetBody } from "./index";

const PLAN_E = [
    "ADD 3",
    "ADD 4",
    "ADD 5",
    "p2 JOIN(3,1)",
    "p2 LEAVE(0)",
    "p3 JOIN(3,2)",
    "p3 JOIN(4,1)",
    "p3 LEAVE(1)",
    "p3 LEAVE(0)",
    "START_PARTITION_SCALE_UP(0)",
    "p4 BOOTSTRAP(3,3)",
    "p4 JOIN(4,2)",
    "p4 JOIN(5,1)",
    "p5 BOOTSTRAP(4,3)",
    "p5 JOIN(5,2)",
    "p5 JOIN(0,1)",
    "p6 BOOTSTRAP(5,3)",
    "p6 JOIN(0,2)",
    "p6 JOIN(1,1)",
    "AWAIT_REDISTRIBUTION(0)",
    "AWAIT_RELOCATION(0)",
];
const EXPECTED_E = "0: {1=3,5=1,6=2} v8 · 1: {1=2,2=3,6=1} v4 · 2: {1=1,2=2,3=3} v0 · " + "3: {2=1,3=2,4=3} v8 · 4: {3=1,4=2,5=3} v8 · 5: {4=1,5=2,6=3} v8";
const E_REQUEST = { brokers: { add: [3, 4, 5] }, partitions: { count: 6, replicationFactor: 3 } };

describe("emulator: partition scaling", () => {
    const emulator = useEmulator();
    const api = emulatorApi(emulator, { brokers: 3, partitions: 3, replicationFactor: 3, opMs: 2 });
    const { management, control, cluster, completion } = api;

    async function reset(body: ResetBody = {}): Promise<void> {
        await api.reset(body);
        for (const id of [3, 4, 5]) await http("POST", control(`/brokers/${id}/start`));
    }

    it("fails every partition-count request while the switch is off, and accepts them once it is on", async () => {
        await reset();
        const refused = await http("PATCH", management("?dryRun=true"), { body: E_REQUEST });
        assert.equal(refused.status, 500);
        assert.deepEqual(refused.json, { message: "java.lang.UnsupportedOperationException: Partition scaling is not enabled." });
        // Without partitions.count the same request is a plain broker scale-up.
        const brokersOnly = await http("PATCH", management("?dryRun=true"), { body: { brokers: { add: [3, 4, 5] } } });
        assert.equal(brokersOnly.status, 202);

        assert.equal((await http("PUT", control("/settings"), { body: { partitionScaling: true } })).status, 200);
        assert.equal((await http("PATCH", management("?dryRun=true"), { body: E_REQUEST })).status, 202);
        await http("PUT", control("/settings"), { body: { partitionScaling: false } });
        assert.equal((await http("PATCH", management("?dryRun=true"), { body: E_REQUEST })).status, 500);
    });

    for (const release of RELEASES) {
        it(`E (release ${release}): plans, expects and applies 3 -> 6 brokers and 3 -> 6 partitions like the reference`, async () => {
            await reset({ partitionScaling: true, release });
            const dryRun = await http("PATCH", management("?dryRun=true"), { body: E_REQUEST });
            assert.equal(dryRun.status, 202, dryRun.text);
            assert.equal(dryRun.json.changeId, 2);
            assert.deepEqual(plan(dryRun.json.plannedChanges), releasePlan(release, 0, [0, 1, 2, 3, 4, 5], PLAN_E));
            assert.equal(layout(dryRun.json.expectedTopology), EXPECTED_E);
            const operations = release === "8.9" ? dryRun.json.plannedChanges.slice(1) : dryRun.json.plannedChanges;
            assert.deepEqual(operations[9], { operation: "START_PARTITION_SCALE_UP", brokerId: 0, brokers: [] });
            assert.deepEqual(operations[10], { operation: "PARTITION_BOOTSTRAP", brokerId: 3, partitionId: 4, priority: 3, brokers: [] });
            assert.deepEqual(operations[19], { operation: "AWAIT_REDISTRIBUTION", brokerId: 0, brokers: [] });
            assert.deepEqual(operations[20], { operation: "AWAIT_RELOCATION", brokerId: 0, brokers: [] });

            assert.equal((await http("PATCH", management(), { body: E_REQUEST })).status, 202);
            const done = await completion(2);
            assert.equal(done.version, 3);
            assert.equal(layout(done.brokers), EXPECTED_E);
            assert.deepEqual(done.routing, {
                version: 3,
                requestHandling: { strategy: "AllPartitions", partitionCount: 6 },
                messageCorrelation: { strategy: "HashMod", partitionCount: 3 },
            });
            const topology = (await http("GET", `${emulator().gatewayUrl}/v2/topology`)).json;
            assert.equal(topology.partitionsCount, 6);
            assert.equal(topology.clusterSize, 6);
        });
    }

    it("bootstraps a new partition as UNKNOWN and routes to it only after redistribution", async () => {
        await reset({ partitions: 2, partitionScaling: true });
        await http("POST", control("/brokers/2/stop")); // partition 3's primary is broker 2
        const accepted = await http("PATCH", management(), { body: { partitions: { count: 3 } } });
        assert.equal(accepted.status, 202, accepted.text);
        assert.deepEqual(plan(accepted.json.plannedChanges), [
            "START_PARTITION_SCALE_UP(0)",
            "p3 BOOTSTRAP(2,3)",
            "p3 JOIN(0,2)",
            "p3 JOIN(1,1)",
            "AWAIT_REDISTRIBUTION(0)",
            "AWAIT_RELOCATION(0)",
        ]);
        const started = await waitFor(async () => {
            const json = await cluster();
            return json.pendingChange?.completed.length === 1 ? json : undefined;
        }, "the scale-up to start");
        assert.deepEqual(started.routing, {
            version: 2,
            requestHandling: {
                strategy: "ActivePartitions",
                basePartitionCount: 2,
                additionalActivePartitions: [],
                inactivePartitions: [3],
            },
            messageCorrelation: { strategy: "HashMod", partitionCount: 2 },
        });

        await holdStartedOperation(emulator().controlUrl, 2, 2);
        const bootstrapping = await cluster();
        assert.equal(layout(bootstrapping.brokers.filter((b: { id: number }) => b.id === 2)), "2: {1=1,2=2,3=3/UNKNOWN} v1");

        await http("POST", control("/brokers/2/start"));
        const done = await completion(2);
        assert.equal(layout(done.brokers), layout(accepted.json.expectedTopology));
        assert.equal(layout(done.brokers), "0: {1=3,2=1,3=2} v2 · 1: {1=2,2=3,3=1} v2 · 2: {1=1,2=2,3=3} v2");
        assert.deepEqual(done.routing.requestHandling, { strategy: "AllPartitions", partitionCount: 3 });
        assert.equal(done.routing.version, 3);
    });

    it("accepts the current partition count as a no-op and a larger count with a broker count", async () => {
        await reset({ partitionScaling: true });
        const same = await http("PATCH", management(), { body: { partitions: { count: 3 } } });
        assert.equal(same.status, 202);
        assert.deepEqual(same.json.plannedChanges, []);
        const scaled = await http("PATCH", management("?dryRun=true"), { body: { brokers: { count: 3 }, partitions: { count: 4 } } });
        assert.equal(scaled.status, 202, scaled.text);
        assert.deepEqual(plan(scaled.json.plannedChanges), [
            "START_PARTITION_SCALE_UP(0)",
            "p4 BOOTSTRAP(0,3)",
            "p4 JOIN(1,1)",
            "p4 JOIN(2,2)",
            "AWAIT_REDISTRIBUTION(0)",
            "AWAIT_RELOCATION(0)",
        ]);
    });
});
