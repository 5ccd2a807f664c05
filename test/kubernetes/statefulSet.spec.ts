// ClusterScale with kubernetes.statefulSet against a real control plane (etcd, kube-apiserver and
// kube-controller-manager of the pinned release), the test playing the kubelet: the real StatefulSet controller makes
// and removes the pods and claims, and the README's Role bound to a ServiceAccount whose token the kubeconfig carries
// is all ClusterScale may do there. The management API is reached at its URL, as from inside the cluster (a real API
// server refuses its dry runs on the service proxy).
import assert from "node:assert/strict";
import { ClusterScaleFixture, mutating, requestLine, succeeded } from "../provider/clusterScaleSupport";
import { NAMESPACE, STATEFUL_SET, WorkloadSpec, deployBrokers } from "./brokerWorkload";
import { ControlPlane, startControlPlane } from "./controlPlane";
import { FakeKubelet } from "./fakeKubelet";


describe("ClusterScale against a real Kubernetes control plane", function () {
    this.timeout(240_000);
    const fixture = new ClusterScaleFixture("process");
    // The management API and the gateway at the emulator's URLs, as a pipeline inside the cluster reaches them.
    const urls = () => ({ "platform:gatewayUrl": fixture.emulator.gatewayUrl });
    let plane: ControlPlane;
    let kubelet: FakeKubelet;
    let route: Record<string, unknown>;

    before(() => fixture.start());
    after(() => fixture.stop());
    afterEach(async () => {
        await kubelet?.stop();
        await plane?.stop();
    });

    const sts = `/apis/apps/v1/namespaces/${NAMESPACE}/statefulsets/${STATEFUL_SET}`;
    const replicas = async () => ((await plane.admin.must("GET", `${sts}/scale`)).spec as { replicas: number }).replicas;
    const names = async (kind: "pods" | "persistentvolumeclaims") =>
        ((await plane.admin.must("GET", `/api/v1/namespaces/${NAMESPACE}/${kind}`)).items as { metadata: { name: string; deletionTimestamp?: string } }[])
            .filter((item) => item.metadata.deletionTimestamp === undefined)
            .map((item) => item.metadata.name)
            .sort();
    const readyPods = async (count: number) => {
        for (let i = 0; i < 300; i++) {
            const status = (await plane.admin.must("GET", sts)).status as { readyReplicas?: number };
            if ((status.readyReplicas ?? 0) >= count) return;
            await new Promise((resolve) => setTimeout(resolve, 100));
        }
        throw new Error(`the StatefulSet never had ${count} ready pods:\n${plane.logs()}`);
    };

    /** A fresh cluster of 3 brokers, a control plane with the workload, and its kubelet. */
    const usePlane = async (spec: Partial<WorkloadSpec> = {}) => {
        fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
        plane = await startControlPlane();
        const management = new URL(fixture.emulator.managementUrl);
        const gateway = new URL(fixture.emulator.gatewayUrl);
        kubelet = new FakeKubelet(plane, NAMESPACE, fixture.emulator.control, {
            ports: {
                management: { host: management.hostname, port: Number(management.port) },
                gateway: { host: gateway.hostname, port: Number(gateway.port) },
            },
        });
        ({ route } = await deployBrokers(plane, { replicas: 3, ...spec }));
        await kubelet.start();
        await readyPods(3);
    };

    it("3 → 5 (Parallel): the new pods run before the layout change names them; 5 → 3: the change completes, then the controller stops the highest ordinals", async () => {
        await usePlane();
        const up = await fixture.run("up", { brokerCount: 5, kubernetes: route }, { config: urls() });
        succeeded(up);
        assert.equal(await replicas(), 5);
        assert.deepEqual(mutating(up.requests).map(requestLine), ["POST /actuator/cluster/brokers?replicationFactor=3 202"]);
        assert.deepEqual(await names("pods"), ["camunda-zeebe-0", "camunda-zeebe-1", "camunda-zeebe-2", "camunda-zeebe-3", "camunda-zeebe-4"]);

        const down = await fixture.run("up", { brokerCount: 3, kubernetes: route }, { config: urls() });
        succeeded(down);
        assert.equal(await replicas(), 3);
        assert.deepEqual(await names("pods"), ["camunda-zeebe-0", "camunda-zeebe-1", "camunda-zeebe-2"]);
        assert.deepEqual(kubelet.lost, [], "a broker was stopped while it held replicas");
        // Retained claims (the default) stay.
        assert.ok((await names("persistentvolumeclaims")).includes("data-camunda-zeebe-4"));
    });
});
