// The worked examples A-D of the reference (§5.7) and its JSON timeline (§5.8), over HTTP, as the 8.8 release plans
// them and as the newest release (8.9) does: the same operations, between PRE_SCALING and POST_SCALING when the
// member set changes. Example E (partition scaling) lives in partitionScaling.spec.ts.

import { strict as assert } from "node:assert";
import { emulatorApi, holdStartedOperation, http, layout, plan, releasePlan, useEmulator, waitFor } from "./harness";
import { RELEASES } from "./settings";

const THREE_BROKERS_SIX_PARTITIONS = "0: {1=3,2=1,3=2,4=3,5=2,6=1} v0 · 1: {1=2,2=3,3=1,4=1,5=3,6=2} v0 · 2: {1=1,2=2,3=3,4=2,5=1,6=3} v0";

const PLAN_A = [
    "ADD 3",
    "ADD 4",
    "ADD 5",
    "p2 JOIN(3,1)",
    "p2 LEAVE(0)",
    "p3 JOIN(3,2)",
    "p3 JOIN(4,1)",
    "p3 LEAVE(1)",
    "p3 LEAVE(0)",
    "p4 JOIN(3,3)",
    "p4 JOIN(4,2)",
    "p4 JOIN(5,1)",
    "p4 LEAVE(1)",
    "p4 LEAVE(2)",
    "p4 LEAVE(0)",
    "p5 JOIN(4,3)",
    "p5 JOIN(5,2)",
    "p5 LEAVE(1)",
    "p5 LEAVE(2)",
    "p5 PRIO(0:=1)",
    "p6 JOIN(5,3)",
    "p6 LEAVE(2)",
    "p6 PRIO(1:=1)",
    "p6 PRIO(0:=2)",
];
const EXPECTED_A = "0: {1=3,5=1,6=2} v8 · 1: {1=2,2=3,6=1} v7 · 2: {1=1,2=2,3=3} v6 · " + "3: {2=1,3=2,4=3} v8 · 4: {3=1,4=2,5=3} v8 · 5: {4=1,5=2,6=3} v8";

for (const release of RELEASES) {
    describe(`emulator: worked examples of the reference (release ${release})`, () => {
        const emulator = useEmulator();
        const { management, control, reset, cluster, completion } = emulatorApi(emulator, { opMs: 2, release });

        it("starts from the round-robin layout at configuration version 1, in the release's shape (8.9: with the cluster id)", async () => {
            await reset({ brokers: 3, partitions: 6, replicationFactor: 3 });
            const json = await cluster();
            assert.equal(json.version, 1);
            if (release === "8.9") assert.match(json.clusterId, /^[0-9a-f-]{36}$/);
            else assert.equal(json.clusterId, undefined);
            assert.equal(layout(json.brokers), THREE_BROKERS_SIX_PARTITIONS);
            // Java hash-map order of the member ids, not sorted.
            assert.deepEqual(
                json.brokers.map((b: { id: number }) => b.id),
                [1, 2, 0],
            );
            assert.equal(json.lastChange, undefined);
            assert.equal(json.pendingChange, undefined);
            const broker = json.brokers[0];
            assert.deepEqual(Object.keys(broker), ["id", "state", "version", "lastUpdatedAt", "partitions"]);
            assert.equal(broker.lastUpdatedAt, "0001-01-01T00:00:00.000+0000");
            assert.deepEqual(broker.partitions[0], {
                id: 1,
                state: "ACTIVE",
                priority: 2,
                config: { exporting: { exporters: [{ id: "CamundaExporter", state: "ENABLED" }] } },
            });
            assert.deepEqual(json.routing, {
                version: 1,
                requestHandling: { strategy: "AllPartitions", partitionCount: 6 },
                messageCorrelation: { strategy: "HashMod", partitionCount: 6 },
            });
        });

        it("A: scales 3 -> 6 brokers with the reference's plan, expected topology and change id", async () => {
            await reset({ brokers: 3, partitions: 6, replicationFactor: 3 });
            for (const id of [3, 4, 5]) assert.equal((await http("POST", control(`/brokers/${id}/start`))).status, 200);

            const dryRun = await http("POST", management("/brokers?dryRun=true"), { body: ["0", "1", "2", "3", "4", "5"] });
            assert.equal(dryRun.status, 202, dryRun.text);
            assert.equal(dryRun.json.changeId, 2);
            assert.deepEqual(plan(dryRun.json.plannedChanges), releasePlan(release, 0, [0, 1, 2, 3, 4, 5], PLAN_A));
            assert.equal(layout(dryRun.json.currentTopology), THREE_BROKERS_SIX_PARTITIONS);
            assert.equal(layout(dryRun.json.expectedTopology), EXPECTED_A);
            const operations = release === "8.9" ? dryRun.json.plannedChanges.slice(1) : dryRun.json.plannedChanges;
            if (release === "8.9") {
                assert.deepEqual(dryRun.json.plannedChanges[0], { operation: "PRE_SCALING", brokerId: 0, brokers: [0, 1, 2, 3, 4, 5] });
            }
            assert.deepEqual(operations[0], { operation: "BROKER_ADD", brokerId: 3, brokers: [] });
            assert.deepEqual(operations[3], {
                operation: "PARTITION_JOIN",
                brokerId: 3,
                partitionId: 2,
                priority: 1,
                brokers: [],
            });
            assert.deepEqual(operations[4], { operation: "PARTITION_LEAVE", brokerId: 0, partitionId: 2, brokers: [] });
            assert.match(dryRun.json.expectedTopology[0].lastUpdatedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/);
            assert.equal((await cluster()).version, 1, "a dry run changes nothing");

            const viaPatch = await http("PATCH", management("?dryRun=true"), { body: { brokers: { add: [3, 4, 5] } } });
            assert.equal(viaPatch.status, 202, viaPatch.text);
            assert.deepEqual(plan(viaPatch.json.plannedChanges), plan(dryRun.json.plannedChanges));
            assert.equal(viaPatch.json.changeId, 2);

            const accepted = await http("POST", management("/brokers"), { body: [0, 1, 2, 3, 4, 5] });
            assert.equal(accepted.status, 202, accepted.text);
            assert.equal(accepted.json.changeId, 2);
            const done = await completion(2);
            assert.equal(done.version, 3);
            assert.equal(done.lastChange.status, "COMPLETED");
            assert.equal(layout(done.brokers), EXPECTED_A);
        });

        it("B: scales a fresh 6-broker cluster down to 3 brokers", async () => {
            await reset({ brokers: 6, partitions: 6, replicationFactor: 3 });
            const accepted = await http("PATCH", management(), { body: { brokers: { remove: [3, 4, 5] } } });
            assert.equal(accepted.status, 202, accepted.text);
            assert.deepEqual(
                plan(accepted.json.plannedChanges),
                releasePlan(
                    release,
                    0,
                    [0, 1, 2],
                    [
                        "p2 JOIN(0,1)",
                        "p2 LEAVE(3)",
                        "p3 JOIN(0,2)",
                        "p3 JOIN(1,1)",
                        "p3 LEAVE(3)",
                        "p3 LEAVE(4)",
                        "p4 JOIN(0,3)",
                        "p4 JOIN(1,1)",
                        "p4 JOIN(2,2)",
                        "p4 LEAVE(3)",
                        "p4 LEAVE(4)",
                        "p4 LEAVE(5)",
                        "p5 JOIN(1,3)",
                        "p5 JOIN(2,1)",
                        "p5 LEAVE(4)",
                        "p5 LEAVE(5)",
                        "p5 PRIO(0:=2)",
                        "p6 JOIN(2,3)",
                        "p6 LEAVE(5)",
                        "p6 PRIO(1:=2)",
                        "p6 PRIO(0:=1)",
                        "REMOVE 3",
                        "REMOVE 4",
                        "REMOVE 5",
                    ],
                ),
            );
            const expected = "0: {1=3,2=1,3=2,4=3,5=2,6=1} v8 · 1: {1=2,2=3,3=1,4=1,5=3,6=2} v7 · 2: {1=1,2=2,3=3,4=2,5=1,6=3} v6";
            assert.equal(layout(accepted.json.expectedTopology), expected);
            const done = await completion(2);
            assert.equal(layout(done.brokers), expected);
            assert.equal(done.version, 3);
        });

        it("C: refuses 3 -> 2 brokers at rf 3, and plans it at rf 2", async () => {
            await reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
            const refused = await http("POST", management("/brokers"), { body: [0, 1] });
            assert.equal(refused.status, 400);
            assert.deepEqual(refused.json, { message: "Number of brokers [2] is less than the replication factor [3]" });

            await reset({ brokers: 3, partitions: 3, replicationFactor: 2 });
            assert.equal(layout((await cluster()).brokers), "0: {1=2,3=1} v0 · 1: {1=1,2=2} v0 · 2: {2=1,3=2} v0");
            const accepted = await http("POST", management("/brokers"), { body: [0, 1] });
            assert.equal(accepted.status, 202, accepted.text);
            assert.deepEqual(
                plan(accepted.json.plannedChanges),
                releasePlan(release, 0, [0, 1], ["p2 JOIN(0,1)", "p2 LEAVE(2)", "p3 JOIN(1,1)", "p3 LEAVE(2)", "p3 PRIO(0:=2)", "REMOVE 2"]),
            );
            assert.equal(layout(accepted.json.expectedTopology), "0: {1=2,2=1,3=2} v3 · 1: {1=1,2=2,3=1} v2");
            const done = await completion(2);
            assert.equal(layout(done.brokers), "0: {1=2,2=1,3=2} v3 · 1: {1=1,2=2,3=1} v2");
        });

        it("D: raises the replication factor 1 -> 3, and lowers it back", async () => {
            await reset({ brokers: 3, partitions: 3, replicationFactor: 1 });
            assert.equal(layout((await cluster()).brokers), "0: {1=1} v0 · 1: {2=1} v0 · 2: {3=1} v0");
            const viaPatch = await http("PATCH", management("?dryRun=true"), { body: { partitions: { replicationFactor: 3 } } });
            assert.equal(viaPatch.status, 202, viaPatch.text);
            const up = await http("POST", management("/brokers?replicationFactor=3"), { body: [0, 1, 2] });
            assert.equal(up.status, 202, up.text);
            assert.deepEqual(plan(up.json.plannedChanges), [
                "p1 JOIN(1,2)",
                "p1 JOIN(2,1)",
                "p1 PRIO(0:=3)",
                "p2 JOIN(0,1)",
                "p2 JOIN(2,2)",
                "p2 PRIO(1:=3)",
                "p3 JOIN(0,2)",
                "p3 JOIN(1,1)",
                "p3 PRIO(2:=3)",
            ]);
            const full = "0: {1=3,2=1,3=2} v5 · 1: {1=2,2=3,3=1} v5 · 2: {1=1,2=2,3=3} v5";
            assert.equal(layout(up.json.expectedTopology), full);
            assert.deepEqual(plan(viaPatch.json.plannedChanges), plan(up.json.plannedChanges));
            assert.equal(layout((await completion(2)).brokers), full);

            const down = await http("PATCH", management(), { body: { partitions: { replicationFactor: 1 } } });
            assert.equal(down.status, 202, down.text);
            assert.equal(down.json.changeId, 4);
            assert.deepEqual(plan(down.json.plannedChanges), [
                "p1 LEAVE(1)",
                "p1 LEAVE(2)",
                "p1 PRIO(0:=1)",
                "p2 LEAVE(2)",
                "p2 LEAVE(0)",
                "p2 PRIO(1:=1)",
                "p3 LEAVE(1)",
                "p3 LEAVE(0)",
                "p3 PRIO(2:=1)",
            ]);
            const done = await completion(4);
            assert.equal(done.version, 5);
            assert.equal(layout(done.brokers), "0: {1=1} v10 · 1: {2=1} v10 · 2: {3=1} v10");
        });

        it("follows the JSON timeline of §5.8 (example C at rf 2) while the change runs", async () => {
            await reset({ brokers: 3, partitions: 3, replicationFactor: 2 });
            await http("POST", control("/brokers/1/stop")); // the first operation of broker 1 is a join: hold it there
            const accepted = await http("POST", management("/brokers"), { body: [0, 1] });
            const scaling = (operation: string) => ({ operation, brokerId: 0, brokers: [0, 1] });
            const operations = [
                { operation: "PARTITION_JOIN", brokerId: 0, partitionId: 2, priority: 1, brokers: [] },
                { operation: "PARTITION_LEAVE", brokerId: 2, partitionId: 2, brokers: [] },
                { operation: "PARTITION_JOIN", brokerId: 1, partitionId: 3, priority: 1, brokers: [] },
                { operation: "PARTITION_LEAVE", brokerId: 2, partitionId: 3, brokers: [] },
                { operation: "PARTITION_RECONFIGURE_PRIORITY", brokerId: 0, partitionId: 3, priority: 2, brokers: [] },
                { operation: "BROKER_REMOVE", brokerId: 2, brokers: [] },
            ];
            assert.deepEqual(accepted.json.plannedChanges, release === "8.9" ? [scaling("PRE_SCALING"), ...operations, scaling("POST_SCALING")] : operations);
            const before = release === "8.9" ? ["PRE_SCALING by 0 [0,1]"] : [];
            await waitFor(async () => ((await cluster()).pendingChange?.completed.length === before.length + 2 ? true : undefined), "two operations");
            await holdStartedOperation(emulator().controlUrl, 1, 2);
            const mid = await cluster();
            assert.equal(mid.version, 2);
            assert.equal(layout(mid.brokers), "0: {1=2,2=1,3=1} v2 · 1: {1=1,2=2,3=1/JOINING} v1 · 2: {3=2} v2");
            assert.equal(mid.pendingChange.id, 2);
            assert.equal(mid.pendingChange.status, "IN_PROGRESS");
            assert.deepEqual(plan(mid.pendingChange.completed), [...before, "p2 JOIN(0,1)", "p2 LEAVE(2)"]);
            for (const done of mid.pendingChange.completed) assert.match(done.completedAt, /\+0000$/);
            const after = release === "8.9" ? ["POST_SCALING by 0 [0,1]"] : [];
            assert.deepEqual(plan(mid.pendingChange.pending), ["p3 JOIN(1,1)", "p3 LEAVE(2)", "p3 PRIO(0:=2)", "REMOVE 2", ...after]);
            assert.equal(mid.lastChange, undefined);

            await http("POST", control("/brokers/1/start"));
            const done = await completion(2);
            assert.equal(done.version, 3);
            assert.equal(layout(done.brokers), layout(accepted.json.expectedTopology));
            assert.ok(Date.parse(done.lastChange.completedAt.replace("+0000", "Z")) >= Date.parse(done.lastChange.startedAt.replace("+0000", "Z")));
        });
    });
}
