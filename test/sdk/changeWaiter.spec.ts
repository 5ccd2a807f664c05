// Waiting for changes against the emulator: completion, progress, cancellation, supersession,
// timeouts, aborts, and transient failures of the management API and the gateway on the way.

import assert from "node:assert/strict";
import { waitForChange } from "../../sdk/cluster/changeWaiter";
import { ClusterClient } from "../../sdk/cluster/clusterClient";
import {
    AbortedError,
    ChangeCancelledError,
    ChangeProgress,
    ChangeSupersededError,
    ChangeTimeoutError,
    InvalidRequestError,
    ServerError,
    UnexpectedStatusError,
} from "../../sdk/errors";
import { GatewayClient } from "../../sdk/cluster/gatewayClient";
import { BrokerState } from "../../sdk/schemas";
import { rejection, requestsTo, startBrokers, useEmulator } from "./support";

function layout(brokers: BrokerState[]): string[] {
    return brokers
        .map(
            (broker) =>
                `${broker.id}:${broker.state}:v${broker.version}:${broker.partitions
                    .map((p) => `${p.id}=${p.priority}`)
                    .sort()
                    .join(",")}`,
        )
        .sort();
}

describe("sdk change waiter", () => {
    const emulator = useEmulator({ opMs: 10 });
    const cluster = (): ClusterClient => new ClusterClient({ managementUrl: emulator().managementUrl });
    const gateway = (): GatewayClient => new GatewayClient({ gatewayUrl: emulator().gatewayUrl });

    it("returns once the change is COMPLETED and the gateway confirms it, reporting each step of progress once", async () => {
        startBrokers(emulator(), [3, 4, 5]);
        const plan = await cluster().scaleBrokers([0, 1, 2, 3, 4, 5]);
        const progress: ChangeProgress[] = [];
        const outcome = await waitForChange({ changeId: plan.changeId, cluster: cluster(), gateway: gateway(), onProgress: (p) => progress.push(p) });

        assert.equal(outcome.lastChange.id, plan.changeId);
        assert.equal(outcome.lastChange.status, "COMPLETED");
        assert.ok((outcome.topology?.lastCompletedChangeId ?? 0) >= plan.changeId);
        assert.deepEqual(layout(outcome.cluster.brokers), layout(plan.expectedTopology));

        const total = plan.plannedChanges.length;
        assert.ok(progress.length >= 2);
        for (const [index, step] of progress.entries()) {
            assert.equal(step.changeId, plan.changeId);
            assert.equal(step.total, total);
            if (step.completed < total) {
                const next = plan.plannedChanges[step.completed];
                assert.deepEqual(step.current, {
                    operation: next.operation,
                    brokerId: next.brokerId,
                    ...(next.partitionId === undefined ? {} : { partitionId: next.partitionId }),
                });
            }
            if (index > 0) assert.ok(step.completed > progress[index - 1].completed, "called only when something changed");
        }
        assert.deepEqual(progress[progress.length - 1], { changeId: plan.changeId, completed: total, total });
        // Paced by the operations, not a busy loop (a loose bound: exact counts are the benchmark's business).
        assert.ok(outcome.clusterPolls <= 3 * total + 10, `${outcome.clusterPolls} polls for ${total} operations`);
        assert.equal(requestsTo(emulator(), "management", "GET").length, outcome.clusterPolls);
    });

    it("returns at once for a change that already completed", async () => {
        const plan = await cluster().patchCluster({ partitions: { replicationFactor: 2 } });
        await waitForChange({ changeId: plan.changeId, cluster: cluster() });
        const again = await waitForChange({ changeId: plan.changeId, cluster: cluster(), gateway: gateway() });
        assert.equal(again.clusterPolls, 1);
        assert.equal(again.gatewayPolls, 1);
    });

    it("waits through connection resets, 502, 504, slow answers and an outage, without repeating the change", async () => {
        startBrokers(emulator(), [3]);
        const plan = await cluster().scaleBrokers([0, 1, 2, 3]);
        const { control } = emulator();
        control.addFault({ interface: "management", method: "GET", count: 2, reset: true });
        control.addFault({ interface: "management", method: "GET", count: 2, status: 502 });
        control.addFault({ interface: "management", method: "GET", count: 1, status: 504 });
        control.addFault({ interface: "management", method: "GET", count: 1, delayMs: 300 });
        control.addFault({ interface: "gateway", method: "GET", count: 2, status: 503 });
        const outage = control.outage("management", 150);

        const outcome = await waitForChange({
            changeId: plan.changeId,
            cluster: cluster(),
            gateway: gateway(),
            requestTimeoutMs: 100,
            maxPollIntervalMs: 200,
        });
        await outage;
        assert.equal(outcome.lastChange.status, "COMPLETED");
        const statuses = requestsTo(emulator(), "management", "GET").map((entry) => entry.status);
        for (const status of [0, 502, 504]) assert.ok(statuses.includes(status), `saw ${statuses.join(",")}`);
        assert.deepEqual(
            requestsTo(emulator(), "gateway")
                .slice(0, 2)
                .map((entry) => entry.status),
            [503, 503],
        );
        assert.equal(requestsTo(emulator(), "management").filter((entry) => entry.method !== "GET").length, 1, "one POST, never repeated");
    });

    it("a gateway that refuses (401) or lags past its bound does not fail the wait: the completed change comes with a note", async () => {
        startBrokers(emulator(), [3]);
        const plan = await cluster().scaleBrokers([0, 1, 2, 3]);
        emulator().control.addFault({ interface: "gateway", method: "GET", count: 100, status: 401 });
        const refused = await waitForChange({ changeId: plan.changeId, cluster: cluster(), gateway: gateway() });
        assert.equal(refused.lastChange.status, "COMPLETED");
        assert.equal(refused.topology, undefined);
        assert.match(
            refused.gatewayNote ?? "",
            new RegExp(`^the gateway did not confirm change ${plan.changeId} within 5 s \\(.*401.*\\); the management API reports it completed$`),
        );
        assert.equal(requestsTo(emulator(), "gateway").length, 1, "a refusal is not asked again");

        emulator().control.clearFaults();
        const lagging = { getTopology: async () => ({ ...(await gateway().getTopology()), lastCompletedChangeId: plan.changeId - 1 }) };
        const lagged = await waitForChange({ changeId: plan.changeId, cluster: cluster(), gateway: lagging, gatewayConfirmTimeoutMs: 300 });
        assert.match(lagged.gatewayNote ?? "", /within 0\.3 s \(it still reported change \d+ as the last completed one\)/);
        assert.ok(lagged.gatewayPolls > 1);
    });

    it("a cancelled change is ChangeCancelledError with the progress reached", async () => {
        startBrokers(emulator(), [3, 4]); // broker 5 never starts: the change holds after PRE_SCALING and two BROKER_ADDs
        const plan = await cluster().scaleBrokers([0, 1, 2, 3, 4, 5]);
        let cancelling: Promise<unknown> | undefined;
        const error = await rejection(
            waitForChange({
                changeId: plan.changeId,
                cluster: cluster(),
                onProgress: (progress) => {
                    if (progress.completed >= 3 && cancelling === undefined) cancelling = cluster().cancelChange(plan.changeId);
                },
            }),
        );
        await cancelling;
        assert.ok(error instanceof ChangeCancelledError);
        assert.equal(error.changeId, plan.changeId);
        assert.deepEqual(error.progress, {
            changeId: plan.changeId,
            completed: 3,
            total: plan.plannedChanges.length,
            current: { operation: "BROKER_ADD", brokerId: 5 },
        });
        assert.match(error.message, /cancelled \(3\/\d+ operations completed\)/);
    });

    it("a change followed by a newer one: COMPLETED while the newer runs, ChangeSupersededError once it ended", async () => {
        const first = await cluster().patchCluster({ partitions: { replicationFactor: 2 } });
        await waitForChange({ changeId: first.changeId, cluster: cluster() });
        // The newer change waits for broker 3 to start, so it is surely still running while we look.
        const second = await cluster().patchCluster({ brokers: { add: [3] } });
        const whileRunning = await waitForChange({ changeId: first.changeId, cluster: cluster() });
        assert.equal(whileRunning.lastChange.status, "COMPLETED");
        startBrokers(emulator(), [3]);
        await waitForChange({ changeId: second.changeId, cluster: cluster() });

        const error = await rejection(waitForChange({ changeId: first.changeId, cluster: cluster() }));
        assert.ok(error instanceof ChangeSupersededError);
        assert.equal(error.changeId, first.changeId);
        assert.equal(error.latestChangeId, second.changeId);
    });

    it("times out with ChangeTimeoutError carrying the change id and the progress; the change is left running", async () => {
        startBrokers(emulator(), [3]); // broker 4 never starts: the change stalls at its BROKER_ADD (after PRE_SCALING and broker 3's)
        const plan = await cluster().scaleBrokers([0, 1, 2, 3, 4]);
        const error = await rejection(waitForChange({ changeId: plan.changeId, cluster: cluster(), timeoutMs: 300 }));
        assert.ok(error instanceof ChangeTimeoutError);
        assert.equal(error.changeId, plan.changeId);
        assert.deepEqual(error.progress, {
            changeId: plan.changeId,
            completed: 2,
            total: plan.plannedChanges.length,
            current: { operation: "BROKER_ADD", brokerId: 4 },
        });
        assert.match(error.message, /2\/\d+ operations completed/);
        assert.equal((await cluster().getCluster()).pendingChange?.id, plan.changeId);
    });

    it("stops at once when the AbortSignal fires", async () => {
        const plan = await cluster().scaleBrokers([0, 1, 2, 3]); // stalls: broker 3 is not running
        const controller = new AbortController();
        const waiting = waitForChange({ changeId: plan.changeId, cluster: cluster(), signal: controller.signal });
        setTimeout(() => controller.abort(), 50);
        const error = await rejection(waiting);
        assert.ok(error instanceof AbortedError);
        assert.match(error.message, /change 2/);
    });

    it("surfaces a non-transient error at once instead of waiting for the time limit", async () => {
        const wrongPath = new ClusterClient({ managementUrl: emulator().managementUrl, basePath: "/actuator/clusters" });
        const error = await rejection(waitForChange({ changeId: 2, cluster: wrongPath, timeoutMs: 30_000 }));
        assert.ok(error instanceof UnexpectedStatusError);
        assert.equal(requestsTo(emulator(), "management").length, 1);
    });

    it("answers that tell nothing (a 500) end the wait, unless the caller tolerates some in a row (maxUnexpectedAnswers)", async () => {
        startBrokers(emulator(), [3]);
        const plan = await cluster().scaleBrokers([0, 1, 2, 3]);
        emulator().control.addFault({ interface: "management", method: "GET", count: 1, status: 500 });
        assert.ok((await rejection(waitForChange({ changeId: plan.changeId, cluster: cluster() }))) instanceof ServerError);

        emulator().control.addFault({ interface: "management", method: "GET", count: 2, status: 500 });
        const tolerated: unknown[] = [];
        const outcome = await waitForChange({
            changeId: plan.changeId,
            cluster: cluster(),
            maxUnexpectedAnswers: 2,
            onUnexpectedAnswer: (error) => tolerated.push(error),
        });
        assert.equal(outcome.lastChange.status, "COMPLETED");
        assert.equal(tolerated.length, 2);
        assert.ok(tolerated.every((error) => error instanceof ServerError));
    });

    it("refuses to wait for change id 0 (an empty plan starts nothing)", async () => {
        const empty = await cluster().scaleBrokers([0, 1, 2]);
        assert.equal(empty.plannedChanges.length, 0);
        assert.equal(empty.changeId, 0);
        assert.ok((await rejection(waitForChange({ changeId: empty.changeId, cluster: cluster() }))) instanceof InvalidRequestError);
        assert.equal(requestsTo(emulator(), "management", "GET").length, 0);
    });
});
