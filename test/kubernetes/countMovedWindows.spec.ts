// The looks again of an up on the real control plane, each with another client that moves spec.replicas right before
// ClusterScale's look reaches the API server (ScaleInterloper): before the layout change is sent (the count set back
// below the new brokers), before replicas are lowered, and before the claims of removed brokers are deleted (the count
// raised again). Each up stops before the act, names the count and its writer (field manager gitops-sync), and the next
// up finishes what was left, sending nothing twice.
import assert from "node:assert/strict";
import { failed, mutating, requestLine, succeeded } from "../provider/clusterScaleSupport";
import { STATEFUL_SET } from "./brokerWorkload";
import { type RealCluster, useRealCluster } from "./realCluster";
import { ScaleInterloper, type SeenRequest } from "./scaleInterloper";

const WRITER = "gitops-sync";
const claims = (...ordinals: number[]) => ordinals.map((ordinal) => `data-camunda-zeebe-${ordinal}`);
const pods = (...ordinals: number[]) => ordinals.map((ordinal) => `camunda-zeebe-${ordinal}`);
const LAYOUT_CHANGE = "POST /actuator/cluster/brokers?replicationFactor=3 202";

/**
 * The `nth` read of the StatefulSet itself (not /scale) once ClusterScale's scale write went through: the 1st is the
 * next round's (before the wait for the pods), the 2nd the look right before the act that follows the wait.
 */
const readAfterScaleWrite = (nth: 1 | 2) => {
    let reads = 0;
    return (request: SeenRequest) =>
        request.method === "GET" && request.path.endsWith(`/statefulsets/${STATEFUL_SET}`) && request.scaleWrites.includes(200) && ++reads === nth;
};
const scaleRead = (request: SeenRequest) => request.method === "GET" && request.path.endsWith(`/statefulsets/${STATEFUL_SET}/scale`);

describe("ClusterScale against a real Kubernetes control plane: the count moved by another writer right before an act", function () {
    this.timeout(240_000);
    const real = useRealCluster();
    let interloper: ScaleInterloper | undefined;
    afterEach(async () => {
        await interloper?.stop();
        interloper = undefined;
    });

    /** The route through the interloper, armed to write `replicas` as WRITER right before the request `at`. */
    async function armed(cluster: RealCluster, at: (request: SeenRequest) => boolean, replicas: number): Promise<Record<string, unknown>> {
        interloper = new ScaleInterloper(cluster.plane);
        await interloper.start();
        const kubeconfig = interloper.kubeconfigFor(await cluster.plane.serviceAccountToken(cluster.namespace, "pipeline"));
        interloper.beforeNextRequest(at, async () => {
            await cluster.plane.admin.must("PATCH", `/apis/apps/v1/namespaces/${cluster.namespace}/statefulsets/${STATEFUL_SET}/scale?fieldManager=${WRITER}`, {
                spec: { replicas },
            });
        });
        return { ...cluster.route, kubeconfig };
    }

    it("3 → 5, the count set back to 3 once the new pods run, right before the layout change: none is sent, brokers 3 and 4 stop holding nothing; the next up raises it again and sends the change once", async () => {
        const cluster = await real.start();
        const route = await armed(cluster, readAfterScaleWrite(2), 3);
        const refused = await cluster.run("up", { brokerCount: 5, kubernetes: route });
        const stderr = failed(refused);
        assert.match(stderr, /spec\.replicas is 3 right before the layout change, not the 5 it needs \(pods camunda-zeebe-3, camunda-zeebe-4 stop\)/);
        assert.match(stderr, new RegExp(`managedFields name field manager ${WRITER} as writer of spec\\.replicas\\. No layout change was sent`));
        assert.deepEqual(mutating(refused.requests), [], "a layout change was sent");
        assert.equal(await cluster.replicas(), 3);
        await cluster.waitPodsGone(3, 4);

        const again = await cluster.run("up", { brokerCount: 5, kubernetes: cluster.route });
        succeeded(again);
        assert.deepEqual(mutating(again.requests).map(requestLine), [LAYOUT_CHANGE]);
        assert.equal(await cluster.replicas(), 5);
        assert.deepEqual(await cluster.names("pods"), pods(0, 1, 2, 3, 4));
        assert.deepEqual(cluster.kubelet.lost, [], "a broker was stopped while it held replicas");
    });

    it("3 → 5, the count set back to 3 right after ClusterScale raised it, before the new pods run: ClusterScale does not raise it again, none is sent", async () => {
        const cluster = await real.start();
        const route = await armed(cluster, readAfterScaleWrite(1), 3);
        const refused = await cluster.run("up", { brokerCount: 5, kubernetes: route });
        const stderr = failed(refused);
        assert.match(stderr, /spec\.replicas is 3, not the 5 this up set it to \(pods camunda-zeebe-3, camunda-zeebe-4 stop\)/);
        assert.match(stderr, new RegExp(`field manager ${WRITER} as writer of spec\\.replicas\\. No layout change was sent`));
        assert.deepEqual(interloper?.scaleWrites, [200], "ClusterScale wrote the scale again");
        assert.deepEqual(mutating(refused.requests), [], "a layout change was sent");
        assert.equal(await cluster.replicas(), 3);
        await cluster.waitPodsGone(3, 4);
        assert.deepEqual(cluster.kubelet.lost, [], "a broker was stopped while it held replicas");
    });

    it("5 → 3, the count moved to 4 right before the lowering: nothing is lowered by ClusterScale; the next up lowers it without a second layout change", async () => {
        const cluster = await real.start({ replicas: 5 });
        succeeded(await cluster.run("up", { brokerCount: 5, kubernetes: cluster.route }));
        const route = await armed(cluster, scaleRead, 4);
        const refused = await cluster.run("up", { brokerCount: 3, kubernetes: route });
        const stderr = failed(refused);
        assert.match(stderr, /spec\.replicas is 4, not the 5 this up read before lowering it to 3/);
        assert.match(stderr, new RegExp(`field manager ${WRITER} as writer of spec\\.replicas\\. Nothing was lowered`));
        assert.deepEqual(mutating(refused.requests).map(requestLine), [LAYOUT_CHANGE]);
        assert.deepEqual(interloper?.scaleWrites, [], "ClusterScale wrote the scale");
        assert.equal(await cluster.replicas(), 4);

        const resumed = await cluster.run("up", { brokerCount: 3, kubernetes: cluster.route });
        succeeded(resumed);
        assert.deepEqual(mutating(resumed.requests), [], "the resume sent a second layout change");
        assert.equal(await cluster.replicas(), 3);
        await cluster.waitPodsGone(3, 4);
        assert.deepEqual(cluster.kubelet.lost, [], "a broker was stopped while it held replicas");
    });

    it('5 → 3 with volumesOfRemovedBrokers "delete", the count raised to 5 again right before the claims go: no claim is deleted; the next up lowers it and deletes them, sending nothing twice', async () => {
        const cluster = await real.start({ replicas: 5 });
        succeeded(await cluster.run("up", { brokerCount: 5, kubernetes: cluster.route }));
        const route = await armed(cluster, readAfterScaleWrite(2), 5);
        const removing = { brokerCount: 3, kubernetes: { ...route, volumesOfRemovedBrokers: "delete" } };
        const refused = await cluster.run("up", removing);
        const stderr = failed(refused);
        assert.match(stderr, /spec\.replicas is 5 again, above the layout's 3, right before the claims of removed brokers were to be deleted/);
        assert.match(stderr, new RegExp(`field manager ${WRITER} as writer of spec\\.replicas\\. No claim was deleted`));
        assert.deepEqual(mutating(refused.requests).map(requestLine), [LAYOUT_CHANGE]);
        assert.deepEqual(await cluster.names("persistentvolumeclaims"), claims(0, 1, 2, 3, 4));

        const resumed = await cluster.run("up", { brokerCount: 3, kubernetes: { ...cluster.route, volumesOfRemovedBrokers: "delete" } });
        succeeded(resumed);
        assert.deepEqual(mutating(resumed.requests), [], "the resume sent a second layout change");
        assert.equal(await cluster.replicas(), 3);
        assert.deepEqual(await cluster.names("persistentvolumeclaims"), claims(0, 1, 2));
        assert.deepEqual(cluster.kubelet.lost, [], "a broker was stopped while it held replicas");
    });
});
