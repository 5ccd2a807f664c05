// The SDK's client of the brokers' StatefulSet, against the Kubernetes stand-in that runs pods as brokers: reading the
// StatefulSet, scaling it with a retried conflict, waiting on pods with a watch, claims, and refusals by RBAC.
import * as assert from "assert";
import { AuthError, PodWaitTimeoutError, ReplicasMovedError } from "../../sdk/errors";
import { BrokerStatefulSet } from "../../sdk/kubernetes/brokerStatefulSet";
import { useEmulator } from "../support/emulator";
import { BROKER_NAMESPACE, BROKER_STATEFUL_SET, BrokerPods, OPERATOR_RULES, startBrokerPods } from "../support/brokerPods";

describe("sdk: the brokers' StatefulSet through the Kubernetes API server", function () {
    this.timeout(30_000);
    const emulator = useEmulator({ brokers: 3, partitions: 3, replicationFactor: 3, opMs: 10 });
    let pods: BrokerPods;
    let client: BrokerStatefulSet;

    beforeEach(async () => {
        pods = await startBrokerPods(emulator().control, { replicas: 3 });
        client = await BrokerStatefulSet.connect({
            namespace: BROKER_NAMESPACE,
            statefulSet: BROKER_STATEFUL_SET,
            kubeconfig: pods.user(OPERATOR_RULES).kubeconfig,
        });
    });
    afterEach(() => pods.stop());

    it("reads the replicas, the claim templates, the retention policy, the pod management policy, the pods' selector and who else owns spec.replicas", async () => {
        pods.workloads.otherReplicaManagers.push({ manager: "helm", operation: "Update" });
        const view = await client.read();
        assert.strictEqual(view.replicas, 3);
        assert.deepStrictEqual(view.claimTemplates, ["data"]);
        assert.strictEqual(view.whenScaled, "Retain");
        assert.strictEqual(view.podManagementPolicy, "Parallel");
        assert.strictEqual(view.firstOrdinal, 0);
        assert.strictEqual(view.podSelector, "app.kubernetes.io/component=zeebe-broker");
        assert.ok(view.replicaManagers.includes("helm"), view.replicaManagers.join());
        assert.deepStrictEqual(
            (await client.pods(view.podSelector)).pods.map((pod) => [pod.ordinal, pod.ready]),
            [
                [0, true],
                [1, true],
                [2, true],
            ],
        );
    });

    it("scales through /scale with the resourceVersion it read; a conflict is read again and retried", async () => {
        pods.server.workloadApi!.concurrentWriterOnce = true;
        const result = await client.scaleTo(4);
        assert.deepStrictEqual(result, { previous: 3, conflicts: 1 });
        assert.strictEqual((await client.readScale()).replicas, 4);
        assert.deepStrictEqual(await client.scaleTo(4), { previous: 4, conflicts: 0 }, "an unchanged count is not written");
    });

    it("with from, a count someone else moved writes nothing and throws ReplicasMovedError; the target already set, or a conflict that left the count, is no move", async () => {
        pods.server.workloadApi!.beforeScaleRead = () => pods.workloads.setReplicas(6, undefined, "kubectl-scale");
        const writes = pods.workloads.replicaWrites.length;
        const error = await client.scaleTo(3, { from: 3 + 2 }).then(
            () => assert.fail("it scaled"),
            (thrown: unknown) => thrown,
        );
        assert.ok(error instanceof ReplicasMovedError, String(error));
        assert.deepStrictEqual([error.expected, error.replicas], [5, 6]);
        assert.strictEqual(pods.workloads.replicaWrites.length, writes + 1, "it wrote after the other writer");
        assert.strictEqual((await client.readScale()).replicas, 6);
        assert.deepStrictEqual(await client.scaleTo(6, { from: 5 }), { previous: 6, conflicts: 0 });
        pods.server.workloadApi!.concurrentWriterOnce = true;
        assert.deepStrictEqual(await client.scaleTo(4, { from: 6 }), { previous: 6, conflicts: 1 });
    });

    it("a scale write whose answer was lost or refused for now (503, a reset, 503 after applying) is read again and retried; it takes effect once", async () => {
        for (const [fault, to] of [
            ["503", 4],
            ["reset", 5],
            ["503-after-applying", 6],
        ] as const) {
            pods.server.workloadApi!.scaleWriteFaults.push(fault);
            const writesBefore = pods.workloads.replicaWrites.length;
            await client.scaleTo(to);
            assert.strictEqual((await client.readScale()).replicas, to, fault);
            assert.deepStrictEqual(
                pods.workloads.replicaWrites.slice(writesBefore).map((write) => write.replicas),
                [to],
                `${fault}: the count was written more than once`,
            );
        }
    });

    it("waits with a watch until the new pod's container started (a broker that is no member yet is not Ready), then until it is gone", async () => {
        const { podSelector } = await client.read();
        await client.scaleTo(4);
        const started = await client.waitForPods(
            podSelector,
            (current) => (current.get(client.podName(3))?.started ? current.get(client.podName(3)) : undefined),
            {
                timeoutMs: 10_000,
                what: "pod platform-zeebe-3 to start",
            },
        );
        assert.strictEqual(started.ready, false);
        assert.ok((emulator().control.state() as { running: number[] }).running.includes(3), "the pod's broker does not run");
        await client.scaleTo(3);
        const gone = await client.waitForPods(podSelector, (current) => (current.has(client.podName(3)) ? undefined : true), {
            timeoutMs: 10_000,
            what: "pod platform-zeebe-3 to go",
        });
        assert.strictEqual(gone, true);
    });

    it("a pod that never starts ends the wait at its time limit with what was last seen: the pod and why it waits", async () => {
        pods.workloads.neverStarting.set(3, { reason: "ImagePullBackOff", message: "Back-off pulling image" });
        const { podSelector } = await client.read();
        await client.scaleTo(4);
        const error = await client
            .waitForPods(podSelector, (current) => (current.get(client.podName(3))?.started ? true : undefined), {
                timeoutMs: 500,
                what: "pod platform-zeebe-3 to start",
            })
            .then(
                () => undefined,
                (caught: unknown) => caught,
            );
        assert.ok(error instanceof PodWaitTimeoutError, String(error));
        assert.match(error.message, /pod platform-zeebe-3 to start did not happen within 0.5 s/);
        assert.deepStrictEqual(error.pods.find((pod) => pod.name === client.podName(3))?.waiting, {
            reason: "ImagePullBackOff",
            message: "Back-off pulling image",
        });
    });

    it("finds the claims that exist and deletes one (a claim already gone counts as deleted)", async () => {
        const names = [0, 1, 2, 3].map((ordinal) => client.claimName("data", ordinal));
        assert.deepStrictEqual(await client.existingClaims(names), names.slice(0, 3));
        await client.scaleTo(2);
        await client.waitForPods("", (current) => (current.has(client.podName(2)) ? undefined : true), { timeoutMs: 10_000, what: "pod 2 to go" });
        await client.deleteClaim(names[2]);
        await client.deleteClaim(names[2]);
        assert.deepStrictEqual(await client.existingClaims(names), names.slice(0, 2));
    });

    it("a user without the verb gets the API server's refusal, which names the verb and the resource", async () => {
        const viewer = await BrokerStatefulSet.connect({
            namespace: BROKER_NAMESPACE,
            statefulSet: BROKER_STATEFUL_SET,
            kubeconfig: pods.user({ "statefulsets/scale": ["get"] }, "viewer").kubeconfig,
        });
        const error = await viewer.scaleTo(4).then(
            () => undefined,
            (caught: unknown) => caught,
        );
        assert.ok(error instanceof AuthError, String(error));
        assert.strictEqual(error.status, 403);
        assert.match(error.serverMessage ?? "", /User "viewer" cannot update resource "statefulsets\/scale" in API group "apps" in the namespace "camunda"/);
    });
});
