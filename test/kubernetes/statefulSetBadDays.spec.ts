// ClusterScale with kubernetes.statefulSet on a real control plane's bad days: OrderedReady, a pod that never runs, a
// quota that prevents a pod, a StatefulSet numbered from 1, each rule of the README's Role removed in turn, and the
// management API through the real service proxy (whose refusal of dry runs made the route what it is now).
import assert from "node:assert/strict";
import { failed, mutating, succeeded } from "../provider/clusterScaleSupport";
import { PORTS, README_RULES, SERVICE, setRules } from "./brokerWorkload";
import { useRealCluster } from "./realCluster";
import { until } from "../reliability/support";

describe("ClusterScale against a real Kubernetes control plane: bad days", function () {
    this.timeout(240_000);
    const real = useRealCluster();

    it("OrderedReady: adding two brokers is refused at preview and up (pod 4 would wait forever for broker 3); one at a time works", async () => {
        const cluster = await real.start({ podManagementPolicy: "OrderedReady" });
        const preview = await cluster.run("preview", { brokerCount: 5, kubernetes: cluster.route });
        assert.match(failed(preview), /StatefulSet camunda-zeebe has podManagementPolicy OrderedReady/);
        const up = await cluster.run("up", { brokerCount: 5, kubernetes: cluster.route });
        assert.match(failed(up), /pod camunda-zeebe-4 would never start/);
        assert.equal(await cluster.replicas(), 3, "the StatefulSet was scaled");
        assert.deepEqual(mutating(up.requests), []);
        for (const brokerCount of [4, 5]) succeeded(await cluster.run("up", { brokerCount, kubernetes: cluster.route }));
        assert.equal(await cluster.replicas(), 5);
        assert.deepEqual(cluster.kubelet.lost, []);
    });

    it("a new pod that never runs (ImagePullBackOff) fails the up within timeoutSeconds naming the pod and the reason; no layout change is sent", async () => {
        const cluster = await real.start();
        cluster.kubelet.neverStarting.set(3, { reason: "ImagePullBackOff", message: 'Back-off pulling image "camunda/camunda:8.9.16"' });
        const up = await cluster.run("up", { brokerCount: 4, timeoutSeconds: 5, kubernetes: cluster.route });
        const stderr = failed(up);
        assert.match(stderr, /pod camunda-zeebe-3 did not run within timeoutSeconds \(5 s\): camunda-zeebe-3: ImagePullBackOff/);
        assert.match(stderr, /no layout change was sent/);
        assert.deepEqual(mutating(up.requests), []);
    });

    it("a quota that prevents the new pod: the up fails within timeoutSeconds saying the pod was not created; no layout change is sent", async () => {
        const cluster = await real.start();
        await cluster.plane.admin.must("POST", `/api/v1/namespaces/${cluster.namespace}/resourcequotas`, {
            apiVersion: "v1",
            kind: "ResourceQuota",
            metadata: { name: "pods" },
            spec: { hard: { pods: "3" } },
        });
        // Admission enforces a quota once the quota controller has counted what it covers.
        await until(async () => {
            const quota = await cluster.plane.admin.must("GET", `/api/v1/namespaces/${cluster.namespace}/resourcequotas/pods`);
            return (quota.status as { used?: Record<string, string> } | undefined)?.used?.pods === "3" || undefined;
        });
        const up = await cluster.run("up", { brokerCount: 4, timeoutSeconds: 5, kubernetes: cluster.route });
        const stderr = failed(up);
        assert.match(stderr, /camunda-zeebe-3/);
        assert.match(stderr, /not created|was never created|does not exist/);
        assert.deepEqual(mutating(up.requests), []);
    });

    it("a StatefulSet numbered from 1 (spec.ordinals.start) is refused at preview: its pods are not its brokers' ids", async () => {
        const cluster = await real.start({ firstOrdinal: 1 });
        const preview = await cluster.run("preview", { brokerCount: 4, kubernetes: cluster.route });
        assert.match(failed(preview), /StatefulSet camunda-zeebe numbers its pods from 1 \(spec.ordinals.start\)/);
        assert.deepEqual(mutating(preview.requests), []);
    });

    it("each rule of the README's Role is needed: with one removed, the step that needs it fails naming the permission", async () => {
        const cluster = await real.start({ replicas: 5 });
        succeeded(await cluster.run("up", { brokerCount: 5, kubernetes: cluster.route }));
        const route = { ...cluster.route, volumesOfRemovedBrokers: "delete" };
        for (const [index, rule] of README_RULES.entries()) {
            await setRules(
                cluster.plane,
                README_RULES.filter((_, other) => other !== index),
                cluster.namespace,
            );
            const run = await cluster.run("up", { brokerCount: 3, kubernetes: route });
            const refusal = failed(run);
            // The API server's own words name the resource; the product's advice names the permission to grant.
            assert.ok(
                rule.resources.some((resource) => refusal.includes(`resource "${resource}"`)),
                `without ${rule.resources.join()} the refusal does not name it:\n${refusal}`,
            );
            assert.match(refusal, new RegExp(`the kubeconfig's user needs .*\\b${rule.resources[0]}\\b`));
            assert.deepEqual(mutating(run.requests), [], "a layout change was sent although a step before it was refused");
        }
        await setRules(cluster.plane, README_RULES, cluster.namespace);
        succeeded(await cluster.run("up", { brokerCount: 3, kubernetes: route }));
        assert.deepEqual(await cluster.names("persistentvolumeclaims"), ["data-camunda-zeebe-0", "data-camunda-zeebe-1", "data-camunda-zeebe-2"]);
    });

    it("through the real service proxy reads pass and the dry run is refused by the API server itself; the preview names the way out", async () => {
        const cluster = await real.start();
        const token = await cluster.plane.serviceAccountToken(cluster.namespace, "pipeline");
        await setRules(
            cluster.plane,
            [
                ...README_RULES,
                {
                    apiGroups: [""],
                    resources: ["services/proxy"],
                    resourceNames: [`${SERVICE}:${PORTS.management}`, `${SERVICE}:${PORTS.gateway}`],
                    verbs: ["get", "create", "patch"],
                },
            ],
            cluster.namespace,
        );
        const read = await cluster.plane.admin.request(
            "GET",
            `/api/v1/namespaces/${cluster.namespace}/services/${SERVICE}:${PORTS.management}/proxy/actuator/cluster`,
        );
        assert.equal(read.status, 200, JSON.stringify(read.body));
        const proxyRoute = { namespace: cluster.namespace, service: SERVICE, kubeconfig: cluster.plane.kubeconfigFor(token) };
        const preview = await cluster.run(
            "preview",
            { brokerCount: 4, kubernetes: proxyRoute },
            { config: { "platform:managementUrl": "", "platform:gatewayUrl": "" } },
        );
        const refusal = failed(preview);
        assert.match(refusal, /does not pass the management API's dry runs through its service proxy \(400: dryRun is not supported\)/);
        assert.deepEqual(mutating(preview.requests), []);
    });
});
