// The two management endpoints a cluster operator meets besides scaling: POST /purge (every replica leaves, the data
// goes, the layout comes back on empty data) and PATCH /routing-state (the routing state given, or the engine's own).

import { strict as assert } from "node:assert";
import { ClusterClient } from "../../sdk";
import { emulatorApi, http, layout, plan, useEmulator } from "./harness";

describe("emulator: purge and routing state", () => {
    const emulator = useEmulator();
    const { management, reset, cluster, completion } = emulatorApi(emulator, { brokers: 3, partitions: 2, replicationFactor: 2, opMs: 5 });

    it("a purge plans every leave, deletes the history, then bootstraps each partition on its primary and rejoins the rest", async () => {
        await reset();
        const before = layout((await cluster()).brokers);
        const dryRun = await http("POST", management("/purge?dryRun=true"));
        assert.equal(dryRun.status, 202, dryRun.text);
        // Brokers in hash-map order (1, 2, 0), partitions ascending; the primary of a partition is its top priority.
        assert.deepEqual(plan(dryRun.json.plannedChanges), [
            "p1 LEAVE(1)",
            "p2 LEAVE(1)",
            "p2 LEAVE(2)",
            "p1 LEAVE(0)",
            "DELETE_HISTORY",
            "UPDATE_INCARNATION_NUMBER",
            "p1 BOOTSTRAP(0,2)",
            "p2 BOOTSTRAP(1,2)",
            "p1 JOIN(1,1)",
            "p2 JOIN(2,1)",
        ]);
        assert.deepEqual(dryRun.json.plannedChanges[4], { operation: "DELETE_HISTORY", brokers: [] }, "no broker is named for the history");
        assert.equal(layout(dryRun.json.expectedTopology).replace(/ v\d+/g, ""), before.replace(/ v\d+/g, ""));
        assert.equal((await cluster()).pendingChange, undefined, "a dry run starts nothing");

        const accepted = await http("POST", management("/purge"));
        assert.equal(accepted.status, 202, accepted.text);
        const done = await completion(accepted.json.changeId);
        assert.equal(layout(done.brokers).replace(/ v\d+/g, ""), before.replace(/ v\d+/g, ""));
    });

    it("the SDK reads a cluster while someone else's purge runs (operations that name no broker)", async () => {
        await reset({ opMs: 200 });
        const accepted = await http("POST", management("/purge"));
        assert.equal(accepted.status, 202, accepted.text);
        const state = await new ClusterClient({ managementUrl: emulator().managementUrl }).getCluster();
        assert.equal(state.pendingChange?.id, accepted.json.changeId);
        const history = [...(state.pendingChange?.pending ?? []), ...(state.pendingChange?.completed ?? [])].find((op) => op.operation === "DELETE_HISTORY");
        assert.ok(history, "the purge's DELETE_HISTORY is listed");
        assert.equal(history.brokerId, undefined);
        await completion(accepted.json.changeId);
    });

    it("PATCH /routing-state without a body keeps the engine's routing; with one, the cluster reports what was given", async () => {
        await reset();
        const routing = (await cluster()).routing;
        const reread = await http("PATCH", management("/routing-state"));
        assert.equal(reread.status, 202, reread.text);
        assert.deepEqual(plan(reread.json.plannedChanges), ["UPDATE_ROUTING_STATE(0)"]);
        assert.deepEqual((await completion(reread.json.changeId)).routing, routing);

        const given = {
            version: 7,
            requestHandling: { strategy: "ActivePartitions", basePartitionCount: 1, additionalActivePartitions: [], inactivePartitions: [2] },
            messageCorrelation: { strategy: "HashMod", partitionCount: 1 },
        };
        const patched = await http("PATCH", management("/routing-state"), { body: given });
        assert.equal(patched.status, 202, patched.text);
        assert.deepEqual((await completion(patched.json.changeId)).routing, given);

        const unreadable = await http("PATCH", management("/routing-state"), { body: { requestHandling: { strategy: "Elsewhere" } } });
        assert.equal(unreadable.status, 400);
        const wrongMethod = await http("POST", management("/routing-state"));
        assert.equal(wrongMethod.status, 405);
    });
});
