// The cluster management and gateway clients against the emulator: every method, the requests they
// send (read back from the emulator's log) and the typed errors of the reference's failure cases.

import assert from "node:assert/strict";
import { startEmulator } from "../emulator";
import { ClusterClient } from "../../sdk/cluster/clusterClient";
import { ConflictError, InvalidRequestError, ResponseFormatError, ServerError, UnexpectedStatusError } from "../../sdk/errors";
import { GatewayClient } from "../../sdk/cluster/gatewayClient";
import { TokenClient } from "../../sdk/auth/tokenClient";
import { DEMO, rejection, requestsTo, startBrokers, useEmulator } from "./support";

describe("sdk cluster client", () => {
    const emulator = useEmulator();
    const cluster = (): ClusterClient => new ClusterClient({ managementUrl: emulator().managementUrl });
    const gateway = (): GatewayClient => new GatewayClient({ gatewayUrl: emulator().gatewayUrl });
    const mutations = () => requestsTo(emulator(), "management").filter((entry) => entry.method !== "GET");

    it("getCluster: the round-robin layout at version 1, no change yet", async () => {
        const state = await cluster().getCluster();
        assert.equal(state.version, 1);
        assert.deepEqual(
            [...state.brokers]
                .sort((a, b) => a.id - b.id)
                .map((broker) => [
                    broker.id,
                    broker.partitions
                        .map((p) => `${p.id}=${p.priority}`)
                        .sort()
                        .join(" "),
                ]),
            [
                [0, "1=3 2=1 3=2"],
                [1, "1=2 2=3 3=1"],
                [2, "1=1 2=2 3=3"],
            ],
        );
        assert.equal(state.brokers[0].lastUpdatedAt.epochMs, null, "never-updated brokers carry the sentinel");
        assert.equal(state.lastChange, undefined);
        assert.equal(state.pendingChange, undefined);
    });

    describe("readChange", () => {
        // One answer, given twice through fault injection: readChange's light reading against getCluster's whole one.
        const running = (pending: unknown[]) => ({
            version: 4,
            brokers: [{ id: 0, state: "ACTIVE", version: 4, lastUpdatedAt: "2026-12-04T05:00:00Z", partitions: [] }],
            lastChange: { id: 6, status: "COMPLETED", startedAt: "2026-12-04T04:00:00Z", completedAt: "2026-12-04T04:10:00Z" },
            pendingChange: {
                id: 7,
                status: "IN_PROGRESS",
                completed: [
                    { operation: "BROKER_ADD", brokerId: 3, completedAt: "2026-12-04T05:00:01.250Z" },
                    { operation: "PARTITION_JOIN", brokerId: 3, partitionId: 1, priority: 2, completedAt: "2026-12-04 05:00:02+01:00" },
                    { operation: "PARTITION_JOIN", brokerId: 3, partitionId: 2, completedAt: null },
                    { operation: "PARTITION_JOIN", brokerId: 3, partitionId: 3 },
                    { operation: "PARTITION_LEAVE", brokerId: 0, partitionId: 3, completedAt: "-999999999-01-01T00:00:00+18:00" },
                ],
                pending,
            },
        });
        const answerTwice = (body: unknown) =>
            emulator().control.addFault({ interface: "management", method: "GET", count: 2, status: 200, body: JSON.stringify(body) });

        it("while the change runs: its completion stamps, pending count and running operation, as getCluster reads them", async () => {
            answerTwice(
                running([
                    { operation: "PARTITION_LEAVE", brokerId: 0, partitionId: 4, brokers: [] },
                    { operation: "BROKER_REMOVE", brokerId: 0 },
                ]),
            );
            const read = await cluster().readChange(7);
            const state = await cluster().getCluster();
            assert.ok("running" in read, "change 7 is the one running");
            const pending = state.pendingChange!;
            assert.deepEqual(
                read.running.completedAt,
                pending.completed.map((operation) => operation.completedAt.epochMs),
            );
            assert.deepEqual(read.running.completedAt.slice(0, 2), [Date.parse("2026-12-04T05:00:01.250Z"), Date.parse("2026-12-04T04:00:02Z")]);
            assert.equal(read.running.pendingCount, pending.pending.length);
            assert.deepEqual(read.running.current, pending.pending[0]);
        });

        it("once the change is not the one running: the whole cluster state, as getCluster reads it", async () => {
            answerTwice(running([]));
            const read = await cluster().readChange(6);
            const state = await cluster().getCluster();
            assert.ok("cluster" in read, "change 6 has ended");
            assert.deepEqual(read.cluster, state);
        });

        it("an answer the light reading cannot take is read whole: its error names the field, as getCluster's does", async () => {
            answerTwice(running([{ brokerId: 0, partitionId: 4 }]));
            const error = await rejection(cluster().readChange(7));
            const whole = await rejection(cluster().getCluster());
            assert.ok(error instanceof ResponseFormatError);
            assert.match(error.problem, /pendingChange\.pending\[0\]\.operation: /);
            assert.equal(error.problem, (whole as ResponseFormatError).problem);
        });
    });

    describe("scaleBrokers", () => {
        it("posts the ids as JSON numbers and returns the plan; the change starts", async () => {
            // Broker 3 is not running yet: the change waits at its BROKER_ADD, so it is still pending below.
            const plan = await cluster().scaleBrokers([0, 1, 2, 3]);
            assert.equal(plan.changeId, 2);
            // The newest release opens a change of the member set with PRE_SCALING (coordinator, final members).
            assert.deepEqual(plan.plannedChanges.slice(0, 2), [
                { operation: "PRE_SCALING", brokerId: 0, brokers: [0, 1, 2, 3] },
                { operation: "BROKER_ADD", brokerId: 3, brokers: [] },
            ]);
            assert.ok(plan.expectedTopology.some((broker) => broker.id === 3 && broker.partitions.length > 0));
            assert.equal(plan.currentTopology.length, 3);
            const [post] = mutations();
            assert.equal(post.path, "/actuator/cluster/brokers");
            assert.deepEqual(post.body, [0, 1, 2, 3]);
            assert.deepEqual(post.query, {});
            assert.equal((await cluster().getCluster()).pendingChange?.id, 2);
        });

        it("dryRun and replicationFactor go in the query; a dry run starts nothing", async () => {
            const plan = await cluster().scaleBrokers([0, 1, 2], { dryRun: true, replicationFactor: 2 });
            assert.equal(plan.changeId, 2);
            assert.ok(plan.plannedChanges.every((op) => op.operation === "PARTITION_LEAVE" || op.operation === "PARTITION_RECONFIGURE_PRIORITY"));
            assert.deepEqual(mutations()[0].query, { dryRun: "true", replicationFactor: "2" });
            assert.equal((await cluster().getCluster()).pendingChange, undefined);
        });

        it("force removes unreachable brokers without redistribution", async () => {
            emulator().control.stopBroker(2);
            const plan = await cluster().scaleBrokers([0, 1], { force: true, dryRun: true });
            assert.deepEqual(mutations()[0].query, { dryRun: "true", force: "true" });
            assert.deepEqual(
                // The order of the retained ids is the server's set order: compare sorted.
                plan.plannedChanges.map((op) => [op.operation, op.partitionId, [...op.brokers].sort()]),
                [
                    ["PARTITION_FORCE_RECONFIGURE", 1, [0, 1]],
                    ["PARTITION_FORCE_RECONFIGURE", 2, [0, 1]],
                    ["PARTITION_FORCE_RECONFIGURE", 3, [0, 1]],
                    ["BROKER_REMOVE", undefined, [2]],
                ],
            );
        });

        it("an invalid plan is InvalidRequestError with the server's message", async () => {
            const error = await rejection(cluster().scaleBrokers([0, 1]));
            assert.ok(error instanceof InvalidRequestError);
            assert.equal(error.serverMessage, "Number of brokers [2] is less than the replication factor [3]");
            assert.deepEqual(error.request, { method: "POST", path: "/actuator/cluster/brokers" });
        });

        it("refuses ids that are not non-negative integers before sending anything", async () => {
            for (const ids of [[-1], [1.5], [Number.NaN]]) {
                const error = await rejection(cluster().scaleBrokers(ids));
                assert.ok(error instanceof InvalidRequestError);
                assert.equal(error.request, undefined);
            }
            assert.ok((await rejection(cluster().scaleBrokers([0, 1, 2], { replicationFactor: 0 }))) instanceof InvalidRequestError);
            assert.equal(requestsTo(emulator(), "management").length, 0);
        });
    });

    describe("patchCluster", () => {
        it("sends the patch body and the flags", async () => {
            startBrokers(emulator(), [3, 4]);
            const plan = await cluster().patchCluster({ brokers: { add: [3, 4] } }, { dryRun: true });
            assert.equal(plan.changeId, 2);
            assert.deepEqual(
                plan.plannedChanges.slice(0, 3).map((op) => [op.operation, op.brokerId]),
                [
                    ["PRE_SCALING", 0],
                    ["BROKER_ADD", 3],
                    ["BROKER_ADD", 4],
                ],
            );
            const [patch] = mutations();
            assert.equal(patch.method, "PATCH");
            assert.equal(patch.path, "/actuator/cluster");
            assert.deepEqual(patch.body, { brokers: { add: [3, 4] } });
            assert.deepEqual(patch.query, { dryRun: "true" });
        });

        it("partition scaling: planned when the brokers' switch is on, a 500 ServerError when off", async () => {
            const off = await rejection(cluster().patchCluster({ partitions: { count: 4 } }, { dryRun: true }));
            assert.ok(off instanceof ServerError);
            assert.equal(off.status, 500);
            assert.match(off.serverMessage ?? "", /Partition scaling is not enabled/);

            emulator().control.reset({ opMs: 10, partitionScaling: true });
            const plan = await cluster().patchCluster({ partitions: { count: 4 } }, { dryRun: true });
            const operations = plan.plannedChanges.map((op) => op.operation);
            assert.ok(operations.includes("START_PARTITION_SCALE_UP"));
            assert.ok(operations.includes("PARTITION_BOOTSTRAP"));
        });

        it("a server without PATCH answers 405: UnexpectedStatusError", async () => {
            emulator().control.updateSettings({ patchSupported: false });
            const error = await rejection(cluster().patchCluster({ brokers: { add: [3] } }));
            assert.ok(error instanceof UnexpectedStatusError);
            assert.equal(error.status, 405);
        });

        it("refuses invalid counts before sending anything", async () => {
            assert.ok((await rejection(cluster().patchCluster({ brokers: { count: 0 } }))) instanceof InvalidRequestError);
            assert.ok((await rejection(cluster().patchCluster({ partitions: { count: 2.5 } }))) instanceof InvalidRequestError);
            assert.equal(requestsTo(emulator(), "management").length, 0);
        });
    });

    describe("conflicts and cancellation", () => {
        it("409 is ConflictError carrying the pending change's id", async () => {
            // Broker 3 is not running: the change waits at BROKER_ADD.
            const first = await cluster().scaleBrokers([0, 1, 2, 3]);
            const error = await rejection(cluster().patchCluster({ partitions: { replicationFactor: 2 } }));
            assert.ok(error instanceof ConflictError);
            assert.equal(error.status, 409);
            assert.equal(error.pendingChangeId, first.changeId);
            assert.match(error.serverMessage ?? "", /Another configuration change/);
            assert.match(error.message, /pending change 2/);
            assert.equal(mutations().length, 2, "the refused request is not repeated");
        });

        it("cancelChange cancels the pending change and returns the cluster", async () => {
            const plan = await cluster().scaleBrokers([0, 1, 2, 3]);
            const state = await cluster().cancelChange(plan.changeId);
            assert.equal(state.lastChange?.id, plan.changeId);
            assert.equal(state.lastChange?.status, "CANCELLED");
            assert.equal(state.pendingChange, undefined);
            assert.equal(state.version, plan.changeId + 2);
            assert.equal(mutations()[1].path, "/actuator/cluster/changes/2");
        });

        it("cancelling a change that is not pending is InvalidRequestError", async () => {
            const error = await rejection(cluster().cancelChange(7));
            assert.ok(error instanceof InvalidRequestError);
            assert.match(error.serverMessage ?? "", /no change is in progress/);
        });
    });

    describe("configuration", () => {
        it("serves a configurable base path", async () => {
            const other = await startEmulator({ managementBasePath: "/orchestration/actuator/cluster", opMs: 10 });
            try {
                const client = new ClusterClient({ managementUrl: other.managementUrl, basePath: "orchestration/actuator/cluster/" });
                assert.equal(client.basePath, "/orchestration/actuator/cluster");
                assert.equal((await client.getCluster()).version, 1);
                const wrong = await rejection(new ClusterClient({ managementUrl: other.managementUrl }).getCluster());
                assert.ok(wrong instanceof UnexpectedStatusError);
                assert.equal(wrong.status, 404);
            } finally {
                await other.close();
            }
        });

        it("can authenticate with a bearer token from a token client (one token for every call)", async () => {
            const tokenProvider = new TokenClient({ ...DEMO, authUrl: emulator().authUrl, diskCache: false, env: {} });
            const client = new ClusterClient({ managementUrl: emulator().managementUrl, auth: { tokenProvider } });
            const topology = new GatewayClient({ gatewayUrl: emulator().gatewayUrl, auth: { tokenProvider } });
            await Promise.all([client.getCluster(), client.getCluster(), topology.getTopology()]);
            assert.equal(requestsTo(emulator(), "auth").length, 1);
            assert.equal(requestsTo(emulator(), "management").length, 2);
        });
    });

    describe("gateway topology", () => {
        it("reports running brokers with partition roles, and lastCompletedChangeId once a change completed", async () => {
            const fresh = await gateway().getTopology();
            assert.equal(fresh.clusterSize, 3);
            assert.equal(fresh.partitionsCount, 3);
            assert.equal(fresh.replicationFactor, 3);
            assert.equal(fresh.lastCompletedChangeId, null);
            assert.deepEqual(
                fresh.brokers.map((broker) => broker.nodeId),
                [0, 1, 2],
            );
            assert.ok(fresh.brokers.every((broker) => broker.partitions.length === 3));
            assert.equal(fresh.brokers.flatMap((broker) => broker.partitions).filter((p) => p.role === "leader").length, 3);

            const plan = await cluster().patchCluster({ partitions: { replicationFactor: 2 } });
            for (let i = 0; i < 200 && (await gateway().getTopology()).lastCompletedChangeId !== plan.changeId; i++) {
                await new Promise((resolve) => setTimeout(resolve, 10));
            }
            const after = await gateway().getTopology();
            assert.equal(after.lastCompletedChangeId, plan.changeId);
            assert.equal(after.replicationFactor, 2);
        });
    });
});
