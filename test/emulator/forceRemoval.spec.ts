// Force removal of unreachable brokers: POST /brokers?force=true (body = brokers to keep) and
// PATCH ?force=true (brokers.remove), their validation, and execution while the removed brokers
// are down.

import { strict as assert } from "node:assert";
import { emulatorApi, holdStartedOperation, http, layout, plan, useEmulator, waitFor } from "./harness";

describe("emulator: force removal", () => {
    const emulator = useEmulator();
    const { management, control, reset, completion } = emulatorApi(emulator, {
        brokers: 3,
        partitions: 3,
        replicationFactor: 3,
        opMs: 5,
    });

    it("keeps the listed brokers, reconfigures every partition and removes the rest although they are down", async () => {
        await reset();
        await http("POST", control("/brokers/2/stop"));
        const accepted = await http("POST", management("/brokers?force=true"), { body: [0, 1] });
        assert.equal(accepted.status, 202, accepted.text);
        assert.equal(accepted.json.changeId, 2);
        assert.deepEqual(plan(accepted.json.plannedChanges), [
            "p1 FORCE(1 keeps 1,0)",
            "p2 FORCE(1 keeps 1,0)",
            "p3 FORCE(1 keeps 1,0)",
            "FORCE_REMOVE 2 by 0",
        ]);
        assert.deepEqual(accepted.json.plannedChanges[0], {
            operation: "PARTITION_FORCE_RECONFIGURE",
            brokerId: 1,
            partitionId: 1,
            brokers: [1, 0],
        });
        assert.deepEqual(accepted.json.plannedChanges[3], { operation: "BROKER_REMOVE", brokerId: 0, brokers: [2] });
        // No redistribution: the kept brokers keep their replicas and versions.
        const kept = "0: {1=3,2=1,3=2} v0 · 1: {1=2,2=3,3=1} v0";
        assert.equal(layout(accepted.json.expectedTopology), kept);

        const done = await completion(2);
        assert.equal(done.version, 3);
        assert.equal(layout(done.brokers), kept);
        const topology = (await http("GET", `${emulator().gatewayUrl}/v2/topology`)).json;
        assert.equal(topology.clusterSize, 2);
        assert.equal(topology.replicationFactor, 2);
        assert.equal(topology.lastCompletedChangeId, "2");
    });

    it("plans the same through PATCH with brokers.remove", async () => {
        await reset();
        const post = await http("POST", management("/brokers?force=true&dryRun=true"), { body: ["0", "1"] });
        const patch = await http("PATCH", management("?force=true&dryRun=true"), { body: { brokers: { remove: [2] } } });
        assert.equal(patch.status, 202, patch.text);
        assert.deepEqual(patch.json, { ...post.json, expectedTopology: patch.json.expectedTopology });
        assert.equal(layout(patch.json.expectedTopology), layout(post.json.expectedTopology));
    });

    it("leaves partitions with fewer replicas and the effective replication factor drops", async () => {
        await reset({ replicationFactor: 2 });
        await http("POST", control("/brokers/2/stop"));
        const accepted = await http("PATCH", management("?force=true"), { body: { brokers: { remove: [2] } } });
        assert.deepEqual(plan(accepted.json.plannedChanges), ["p1 FORCE(1 keeps 1,0)", "p2 FORCE(1 keeps 1)", "p3 FORCE(0 keeps 0)", "FORCE_REMOVE 2 by 0"]);
        const done = await completion(2);
        assert.equal(layout(done.brokers), "0: {1=2,3=1} v0 · 1: {1=1,2=2} v0");
        const topology = (await http("GET", `${emulator().gatewayUrl}/v2/topology`)).json;
        assert.equal(topology.replicationFactor, 1);
        assert.equal(topology.partitionsCount, 3);
    });

    it("drops the partitions from the removed broker, then shows it LEAVING while it is removed", async () => {
        await reset();
        await http("POST", control("/brokers/2/stop"));
        await http("POST", control("/brokers/1/stop")); // broker 1 runs the force reconfigurations
        const accepted = await http("POST", management("/brokers?force=true"), { body: [0, 1] });
        assert.equal(accepted.status, 202, accepted.text);
        await http("POST", control("/brokers/0/stop")); // broker 0, the coordinator, runs the removal
        await http("POST", control("/brokers/1/start"));
        const reconfigured = await waitFor(async () => {
            const state = (await http("GET", control("/state"))).json;
            return state.pendingChange?.completed.length === 3 ? state : undefined;
        }, "the three force reconfigurations");
        assert.equal(layout(reconfigured.members), "0: {1=3,2=1,3=2} v0 · 1: {1=2,2=3,3=1} v0 · 2: {} v3");

        await holdStartedOperation(emulator().controlUrl, 0, 5);
        const leaving = (await http("GET", control("/state"))).json;
        assert.equal(layout(leaving.members.filter((m: { id: number }) => m.id === 2)), "2/LEAVING: {} v4");
        await http("POST", control("/brokers/0/start"));
        const done = await completion(2);
        assert.deepEqual(done.brokers.map((b: { id: number }) => b.id).sort(), [0, 1]);
    });

    it("validates PATCH force requests in the reference's order", async () => {
        await reset();
        const cases: [object, string][] = [
            [{}, "Must provide a set of brokers to force remove."],
            [{ brokers: { count: 2, add: [3], remove: [2] } }, "Cannot force change the broker count."],
            [{ brokers: { add: [3], remove: [2] }, partitions: { count: 4 } }, "Cannot force add brokers"],
            [{ brokers: { remove: [2] }, partitions: { count: 4, replicationFactor: 2 } }, "Cannot force change the partition count."],
            [{ brokers: { remove: [2] }, partitions: { replicationFactor: 2 } }, "Cannot force change the replication factor."],
            [{ brokers: { remove: [] } }, "Must provide a set of brokers to force remove."],
            [{ brokers: {} }, "Must provide a set of brokers to force remove."],
        ];
        for (const [body, message] of cases) {
            const result = await http("PATCH", management("?force=true"), { body });
            assert.equal(result.status, 400, JSON.stringify(body));
            assert.deepEqual(result.json, { message });
        }
    });

    it("refuses to keep a broker outside the cluster or to leave a partition without replicas", async () => {
        await reset({ replicationFactor: 1 });
        const outsider = await http("POST", management("/brokers?force=true"), { body: [0, 7] });
        assert.equal(outsider.status, 400);
        assert.equal(
            outsider.json.message,
            "Expected to force configure while retaining broker '7', but broker '7' is not in the current cluster. Current members are '[1, 2, 0]'",
        );
        const orphan = await http("POST", management("/brokers?force=true"), { body: [0, 1] });
        assert.equal(orphan.status, 400);
        assert.equal(
            orphan.json.message,
            "Expected to force configure and retain members '[1, 0]', but this will result in partitions '[3]' having no replicas",
        );
        const everything = await http("PATCH", management("?force=true"), { body: { brokers: { remove: [0, 1, 2] } } });
        assert.equal(everything.status, 400);
        assert.match(everything.json.message, /partitions '\[1, 2, 3\]' having no replicas/);
    });

    it("allows only one force request at a time", async () => {
        await reset();
        await http("POST", control("/brokers/2/stop"));
        await http("POST", control("/brokers/1/stop"));
        const first = await http("PATCH", management("?force=true"), { body: { brokers: { remove: [2] } } });
        assert.equal(first.status, 202);
        const second = await http("PATCH", management("?force=true"), { body: { brokers: { remove: [1, 2] } } });
        assert.equal(second.status, 409);
    });

    it("sends a force request to the lowest kept broker: 502 when that broker is down", async () => {
        await reset();
        await http("POST", control("/brokers/1/stop"));
        const result = await http("POST", management("/brokers?force=true"), { body: [1, 2] });
        assert.equal(result.status, 502);
        assert.match(result.json.message, /broker 1/);
    });
});
