// Asynchronous execution of a change, one operation at a time, observed through GET: progress,
// version arithmetic and change ids, cancellation, stalled brokers, brokers that must be started.

import { strict as assert } from "node:assert";
import { Json, emulatorApi, holdStartedOperation, http, layout, plan, releasePlan, useEmulator, waitFor } from "./harness";

describe("emulator: change execution", () => {
    const emulator = useEmulator();
    const { management, control, reset, cluster, completion } = emulatorApi(emulator, {
        brokers: 3,
        partitions: 3,
        replicationFactor: 3,
        opMs: 5,
    });

    async function waitUntil(predicate: (json: Json) => boolean, what: string): Promise<Json> {
        return waitFor(async () => {
            const json = await cluster();
            return predicate(json) ? json : undefined;
        }, what);
    }

    it("shows pending shrinking and completed growing while versions advance", async () => {
        await reset({ opMs: 15 });
        await http("POST", control("/brokers/3/start"));
        const accepted = await http("POST", management("/brokers"), { body: [0, 1, 2, 3] });
        assert.equal(accepted.status, 202, accepted.text);
        const planned = plan(accepted.json.plannedChanges);
        const changeId = accepted.json.changeId;
        assert.equal(changeId, 2);

        const snapshots: Json[] = [];
        for (;;) {
            const json = await cluster();
            snapshots.push(json);
            if (!json.pendingChange) break;
        }
        const during = snapshots.filter((s) => s.pendingChange);
        assert.ok(
            during.some((s) => s.pendingChange.completed.length > 0 && s.pendingChange.pending.length > 0),
            "saw a change half done",
        );
        let previousCompleted = 0;
        const previousVersions = new Map<number, number>();
        for (const snapshot of during) {
            const { completed, pending, id, status } = snapshot.pendingChange;
            assert.equal(snapshot.version, changeId, "the configuration version is the change id while it runs");
            assert.equal(id, changeId);
            assert.equal(status, "IN_PROGRESS");
            assert.equal(snapshot.lastChange, undefined);
            assert.deepEqual([...plan(completed), ...plan(pending)], planned, "completed + pending is always the plan");
            assert.ok(completed.length >= previousCompleted, "completed only grows");
            previousCompleted = completed.length;
            const stamps = completed.map((c: { completedAt: string }) => Date.parse(c.completedAt.replace("+0000", "Z")));
            assert.deepEqual(
                stamps,
                [...stamps].sort((a, b) => a - b),
                "operations complete one after another",
            );
            for (const broker of snapshot.brokers) {
                assert.ok(broker.version >= (previousVersions.get(broker.id) ?? 0), "member versions only grow");
                previousVersions.set(broker.id, broker.version);
            }
        }
        const final = snapshots[snapshots.length - 1];
        assert.equal(final.version, 3);
        assert.equal(final.lastChange.id, 2);
        assert.equal(final.lastChange.status, "COMPLETED");
        assert.equal(layout(final.brokers), layout(accepted.json.expectedTopology));
    });

    it("numbers changes by configuration version: dry runs do not consume ids, empty plans reuse the last", async () => {
        await reset();
        const noChange = await http("PATCH", management(), { body: {} });
        assert.equal(noChange.status, 202);
        assert.equal(noChange.json.changeId, 0);

        await http("POST", control("/brokers/3/start"));
        await http("POST", control("/brokers/4/start"));
        for (let i = 0; i < 2; i++) {
            const dryRun = await http("POST", management("/brokers/3?dryRun=true"));
            assert.equal(dryRun.json.changeId, 2);
        }
        assert.equal((await cluster()).version, 1);

        assert.equal((await http("POST", management("/brokers/3"))).json.changeId, 2);
        assert.equal((await completion(2)).version, 3);
        const empty = await http("POST", management("/brokers/3"));
        assert.equal(empty.status, 202);
        assert.equal(empty.json.changeId, 2, "an empty plan answers the last change id");
        assert.deepEqual(empty.json.plannedChanges, []);
        assert.equal((await http("POST", management("/brokers/4?dryRun=true"))).json.changeId, 4);
        assert.equal((await http("POST", management("/brokers/4"))).json.changeId, 4);
        const done = await completion(4);
        assert.equal(done.version, 5);
        assert.equal(layout(done.brokers.filter((b: { id: number }) => b.id >= 3)), "3: {} v2 · 4: {} v2");
    });

    it("cancels at the mid point: nothing rolled back, version + 2, the next change gets version + 1", async () => {
        await reset({ replicationFactor: 2 });
        await http("POST", control("/brokers/1/stop"));
        const accepted = await http("POST", management("/brokers"), { body: [0, 1] });
        assert.equal(accepted.json.changeId, 2);
        // PRE_SCALING and the two operations before broker 1's join.
        await waitUntil((json) => json.pendingChange?.completed.length === 3, "three operations");
        await holdStartedOperation(emulator().controlUrl, 1, 5); // the fourth operation has started

        const cancelled = await http("DELETE", management("/changes/2"));
        assert.equal(cancelled.status, 200, cancelled.text);
        assert.equal(cancelled.json.version, 4);
        assert.equal(cancelled.json.pendingChange, undefined);
        assert.equal(cancelled.json.lastChange.id, 2);
        assert.equal(cancelled.json.lastChange.status, "CANCELLED");
        assert.equal(layout(cancelled.json.brokers), "0: {1=2,2=1,3=1} v2 · 1: {1=1,2=2,3=1/JOINING} v1 · 2: {3=2} v2");

        await http("POST", control("/brokers/1/start"));
        await new Promise((resolve) => setTimeout(resolve, 50));
        assert.equal(layout((await cluster()).brokers), layout(cancelled.json.brokers), "the rest of the plan never runs");

        await http("POST", control("/brokers/3/start"));
        const next = await http("POST", management("/brokers/3"));
        assert.equal(next.json.changeId, 5);
        const done = await completion(5);
        assert.equal(done.version, 6);
    });

    it("keeps LEFT members after a cancellation", async () => {
        await reset();
        for (const id of [3, 4]) {
            await http("POST", control(`/brokers/${id}/start`));
            const added = await http("POST", management(`/brokers/${id}`));
            await completion(added.json.changeId);
        }
        await http("POST", control("/brokers/4/stop"));
        const removal = await http("PATCH", management(), { body: { brokers: { remove: [3, 4] } } });
        assert.deepEqual(plan(removal.json.plannedChanges), releasePlan("8.9", 0, [0, 1, 2], ["REMOVE 3", "REMOVE 4"]));
        await waitUntil((json) => json.pendingChange?.completed.length === 2, "broker 3 to leave (after PRE_SCALING)");
        const cancelled = await http("DELETE", management(`/changes/${removal.json.changeId}`));
        assert.equal(cancelled.status, 200);
        const left = cancelled.json.brokers.find((b: { id: number }) => b.id === 3);
        assert.equal(left.state, "LEFT");
        assert.equal(left.version, 4);
        assert.equal(cancelled.json.brokers.find((b: { id: number }) => b.id === 4).state, "ACTIVE");
    });

    it("stalls a scale-down while a leaving broker is stopped, and resumes when it starts", async () => {
        await reset({ brokers: 4, opMs: 10 });
        await http("POST", control("/brokers/3/stop"));
        const accepted = await http("POST", management("/brokers"), { body: [0, 1, 2] });
        assert.equal(accepted.status, 202, accepted.text);
        assert.deepEqual(plan(accepted.json.plannedChanges).slice(0, 3), ["PRE_SCALING by 0 [0,1,2]", "p2 JOIN(0,1)", "p2 LEAVE(3)"]);

        const stalled = await waitUntil((json) => json.pendingChange?.completed.length === 2, "the operations before broker 3's");
        await new Promise((resolve) => setTimeout(resolve, 60));
        const still = await cluster();
        assert.deepEqual(still.pendingChange, stalled.pendingChange, "nothing moves while broker 3 is down");
        assert.equal(still.brokers.find((b: { id: number }) => b.id === 3).partitions.find((p: { id: number }) => p.id === 2).state, "ACTIVE");

        await http("POST", control("/brokers/3/start"));
        const done = await completion(2);
        assert.equal(layout(done.brokers), layout(accepted.json.expectedTopology));
        assert.equal(
            done.brokers.some((b: { id: number }) => b.id === 3),
            false,
        );
    });

    it("finishes an operation whose broker stopped mid-way only after the broker is back", async () => {
        await reset();
        const accepted = await http("POST", management("/brokers/3"));
        await holdStartedOperation(emulator().controlUrl, 3, 5);
        const joining = await cluster();
        assert.equal(layout(joining.brokers.filter((b: { id: number }) => b.id === 3)), "3/JOINING: {} v1");
        await new Promise((resolve) => setTimeout(resolve, 30));
        assert.equal((await cluster()).pendingChange.pending.length, 1);
        await http("POST", control("/brokers/3/start"));
        const done = await completion(accepted.json.changeId);
        assert.equal(layout(done.brokers.filter((b: { id: number }) => b.id === 3)), "3: {} v2");
    });

    it("accepts a new broker that is not running, and lists it only once it runs and picks the operation up", async () => {
        await reset();
        const accepted = await http("POST", management("/brokers/3"));
        assert.equal(accepted.status, 202);
        assert.deepEqual(plan(accepted.json.plannedChanges), ["ADD 3"]);
        await new Promise((resolve) => setTimeout(resolve, 30));
        const waiting = await cluster();
        assert.equal(
            waiting.brokers.some((b: { id: number }) => b.id === 3),
            false,
        );
        assert.deepEqual(plan(waiting.pendingChange.pending), ["ADD 3"]);

        await http("POST", control("/brokers/3/start"));
        const done = await completion(2);
        assert.equal(layout(done.brokers.filter((b: { id: number }) => b.id === 3)), "3: {} v2");
    });

    it("moves only the partitions a manual join or leave names", async () => {
        await reset({ replicationFactor: 1 });
        const join = await http("POST", management("/brokers/1/partitions/1"), { body: { priority: 1 } });
        assert.equal(join.status, 202, join.text);
        assert.deepEqual(plan(join.json.plannedChanges), ["p1 JOIN(1,1)"]);
        await completion(2);
        const leave = await http("DELETE", management("/partitions/1/brokers/0"), { headers: { "content-type": "application/json" } });
        assert.deepEqual(plan(leave.json.plannedChanges), ["p1 LEAVE(0)"]);
        const done = await completion(4);
        assert.equal(layout(done.brokers), "0: {} v2 · 1: {1=1,2=1} v2 · 2: {3=1} v0");
    });
});
