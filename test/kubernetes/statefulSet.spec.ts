// ClusterScale with kubernetes.statefulSet against a real control plane (etcd, kube-apiserver and
// kube-controller-manager of the pinned release), the test playing the kubelet: the real StatefulSet controller makes
// and removes the pods, the real garbage collector and PVC protection finish claims, and the README's Role bound to a
// ServiceAccount whose token the kubeconfig carries is all ClusterScale may do there. The management API is reached at
// its URL, as from inside the cluster (a real API server refuses its dry runs on the service proxy).
import assert from "node:assert/strict";
import { mutating, printed, requestLine, succeeded } from "../provider/clusterScaleSupport";
import { STATEFUL_SET } from "./brokerWorkload";
import { ScaleInterloper } from "./scaleInterloper";
import { useRealCluster } from "./realCluster";

const claims = (...ordinals: number[]) => ordinals.map((ordinal) => `data-camunda-zeebe-${ordinal}`);
const pods = (...ordinals: number[]) => ordinals.map((ordinal) => `camunda-zeebe-${ordinal}`);

describe("ClusterScale against a real Kubernetes control plane: scaling and claims", function () {
    this.timeout(240_000);
    const real = useRealCluster();

    it("3 → 5 (Parallel): the new pods run before the layout change names them; 5 → 3: the change completes, then the controller stops the highest ordinals; claims are kept", async () => {
        const cluster = await real.start();
        const up = await cluster.run("up", { brokerCount: 5, kubernetes: cluster.route });
        succeeded(up);
        assert.equal(await cluster.replicas(), 5);
        assert.deepEqual(mutating(up.requests).map(requestLine), ["POST /actuator/cluster/brokers?replicationFactor=3 202"]);
        assert.deepEqual(await cluster.names("pods"), pods(0, 1, 2, 3, 4));

        const down = await cluster.run("up", { brokerCount: 3, kubernetes: cluster.route });
        succeeded(down);
        assert.equal(await cluster.replicas(), 3);
        assert.deepEqual(await cluster.names("pods"), pods(0, 1, 2));
        assert.deepEqual(cluster.kubelet.lost, [], "a broker was stopped while it held replicas");
        assert.deepEqual(await cluster.names("persistentvolumeclaims"), claims(0, 1, 2, 3, 4));
    });

    it("/scale written by another client between ClusterScale's read and its write: the API server's 409, read again, the count set, said in a line", async () => {
        const cluster = await real.start();
        const interloper = new ScaleInterloper(cluster.plane);
        await interloper.start();
        try {
            const kubeconfig = interloper.kubeconfigFor(await cluster.plane.serviceAccountToken(cluster.namespace, "pipeline"));
            interloper.beforeNextScaleAnswer(async () => {
                await cluster.plane.admin.must("PATCH", `/apis/apps/v1/namespaces/${cluster.namespace}/statefulsets/${STATEFUL_SET}/scale`, {
                    spec: { replicas: 4 },
                });
            });
            const up = await cluster.run("up", { brokerCount: 5, kubernetes: { ...cluster.route, kubeconfig } });
            succeeded(up);
            // The other write, then the controller's status update (the same resourceVersion), may each cost a 409.
            const conflicts = interloper.scaleWrites.length - 1;
            assert.ok(
                conflicts >= 1 && interloper.scaleWrites.every((status, index) => status === (index < conflicts ? 409 : 200)),
                `${interloper.scaleWrites}`,
            );
            const said = `another client wrote its scale meanwhile (409 Conflict, ${conflicts} ${conflicts === 1 ? "time" : "times"}); read again (replicas 4) and set to 5`;
            assert.ok(printed(up, said), up.result.stdout);
            assert.equal(await cluster.replicas(), 5);
            assert.deepEqual(await cluster.names("pods"), pods(0, 1, 2, 3, 4));
            assert.deepEqual(mutating(up.requests).map(requestLine), ["POST /actuator/cluster/brokers?replicationFactor=3 202"]);
        } finally {
            await interloper.stop();
        }
    });

    it('volumesOfRemovedBrokers "delete" (whenScaled: Retain): exactly the removed brokers\' claims go, finished by the PVC protection controller; a claim of an ordinal never run (7) stays', async () => {
        const cluster = await real.start({ replicas: 5 });
        succeeded(await cluster.run("up", { brokerCount: 5, kubernetes: cluster.route }));
        await cluster.plane.admin.must("POST", `/api/v1/namespaces/${cluster.namespace}/persistentvolumeclaims`, {
            apiVersion: "v1",
            kind: "PersistentVolumeClaim",
            metadata: { name: "data-camunda-zeebe-7" },
            spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
        });
        const route = { ...cluster.route, volumesOfRemovedBrokers: "delete" };
        const preview = await cluster.run("preview", { brokerCount: 3, kubernetes: route });
        succeeded(preview);
        assert.ok(printed(preview, "claims data-camunda-zeebe-3, data-camunda-zeebe-4 are deleted"), preview.result.stdout);
        assert.ok(!printed(preview, "data-camunda-zeebe-7"), preview.result.stdout);
        const down = await cluster.run("up", { brokerCount: 3, kubernetes: route });
        succeeded(down);
        assert.deepEqual(await cluster.names("persistentvolumeclaims"), claims(0, 1, 2, 7));
    });

    it("the StatefulSet's own whenScaled: Delete deletes the claims of the pods it scales down, whatever volumesOfRemovedBrokers says; the preview says so", async () => {
        const cluster = await real.start({ replicas: 5, retention: { whenScaled: "Delete", whenDeleted: "Retain" } });
        succeeded(await cluster.run("up", { brokerCount: 5, kubernetes: cluster.route }));
        const preview = await cluster.run("preview", { brokerCount: 3, kubernetes: cluster.route });
        assert.ok(
            printed(
                preview,
                "pods camunda-zeebe-3, camunda-zeebe-4 stop; the StatefulSet deletes their claims itself (persistentVolumeClaimRetentionPolicy.whenScaled: Delete)",
            ),
            preview.result.stdout,
        );
        const down = await cluster.run("up", { brokerCount: 3, kubernetes: cluster.route });
        succeeded(down);
        // The garbage collector deletes them once their pods are gone.
        for (let i = 0; i < 100 && (await cluster.names("persistentvolumeclaims")).length > 3; i++) await new Promise((resolve) => setTimeout(resolve, 100));
        assert.deepEqual(await cluster.names("persistentvolumeclaims"), claims(0, 1, 2));
    });

    it("an up killed while the removed pods stop, a refresh, then the resume: the claims of the brokers it removed go, and nothing is sent twice", async () => {
        const cluster = await real.start({ replicas: 5 });
        succeeded(await cluster.run("up", { brokerCount: 5, kubernetes: cluster.route }));
        const route = { ...cluster.route, volumesOfRemovedBrokers: "delete" };
        const kill = new AbortController();
        const killed = await cluster.run(
            "up",
            { brokerCount: 3, kubernetes: route },
            {
                signal: kill.signal,
                onLine: (line) => line.includes("stop; the layout no longer names them") && kill.abort(),
            },
        );
        assert.equal(killed.result.exitCode, 128 + 9, "the run was not killed");
        succeeded(await cluster.run("refresh", { brokerCount: 3, kubernetes: route }));
        const resumed = await cluster.run("up", { brokerCount: 3, kubernetes: route });
        succeeded(resumed);
        assert.deepEqual(mutating(resumed.requests), [], "the resume sent a second layout change");
        assert.deepEqual(await cluster.names("persistentvolumeclaims"), claims(0, 1, 2));
        assert.deepEqual(cluster.kubelet.lost, []);
    });
});
