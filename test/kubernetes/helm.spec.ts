// Helm as users run it, on the real control plane: the brokers' StatefulSet installed by `helm install` of a small
// chart (chart/: clusterSize replicas, as the platform's chart has it), scaled by ClusterScale, then `helm upgrade` as
// a pipeline runs it. Measured here: Helm 3's three-way merge writes the chart's count back on every upgrade, values
// unchanged or not (the brokers above it stop while they hold replicas), and ClusterScale's next preview refuses; a
// post-renderer that drops spec.replicas from an installed release sets it to 1; the post-renderer of
// examples/helm-keep-replicas, which writes the live count into the manifest, keeps it. The README's "Who owns
// .spec.replicas" says so.
import assert from "node:assert/strict";
import * as fs from "fs";
import * as path from "path";
import { failed, printed, succeeded } from "../provider/clusterScaleSupport";
import { toolDir } from "../tools/toolsDir";
import { HELM_VERSION } from "../tools/helm";
import { KUBERNETES_VERSION } from "../tools/kubernetes";
import { CHART, RELEASE, STATEFUL_SET, helm, helmBin } from "./brokerWorkload";
import { type RealCluster, useRealCluster } from "./realCluster";

const OTHER_MANAGER = "spec.replicas is also written by helm";
const KEEP_REPLICAS = path.resolve(__dirname, "..", "..", "examples", "helm-keep-replicas", "keep-live-replicas.sh");

/** The field managers that own spec.replicas, with the subresource they wrote it through. */
async function replicaOwners(cluster: RealCluster): Promise<string[]> {
    const sts = await cluster.plane.admin.must("GET", `/apis/apps/v1/namespaces/${cluster.namespace}/statefulsets/${STATEFUL_SET}`);
    const fields = (sts.metadata as { managedFields: { manager: string; subresource?: string; fieldsV1?: { "f:spec"?: Record<string, unknown> } }[] })
        .managedFields;
    return fields
        .filter((entry) => entry.fieldsV1?.["f:spec"]?.["f:replicas"] !== undefined)
        .map((entry) => `${entry.manager}${entry.subresource ? ` (${entry.subresource})` : ""}`);
}

describe(`ClusterScale and Helm ${HELM_VERSION} on a real control plane`, function () {
    this.timeout(240_000);
    const real = useRealCluster();

    it("the README's post-renderer keeps ClusterScale's count through helm upgrades, growing and shrinking; without it even an unchanged upgrade writes the chart's count back, and dropping replicas sets 1", async () => {
        const cluster = await real.start({ helm: helmBin(HELM_VERSION) });
        const kubectl = path.join(toolDir("kubectl", `v${KUBERNETES_VERSION}`), "bin");
        const keep = ["--post-renderer", KEEP_REPLICAS, "--post-renderer-args", cluster.namespace, "--post-renderer-args", STATEFUL_SET];
        const upgrade = (...args: string[]) =>
            helm(cluster.plane, cluster.namespace, helmBin(HELM_VERSION), ["upgrade", RELEASE, CHART, "--reuse-values", ...args], [kubectl]);

        const preview = await cluster.run("preview", { brokerCount: 5, kubernetes: cluster.route });
        assert.ok(printed(preview, OTHER_MANAGER), preview.result.stdout);
        for (const brokerCount of [5, 4]) {
            succeeded(await cluster.run("up", { brokerCount, kubernetes: cluster.route }));
            // An Update through /scale takes spec.replicas over: helm no longer shows as its manager.
            assert.deepEqual(await replicaOwners(cluster), ["pulumi-platform (scale)"]);
            upgrade(...keep);
            upgrade(...keep, "--set", `annotations.layout=brokers-${brokerCount}`);
            assert.equal(await cluster.replicas(), brokerCount, "helm upgrade with the post-renderer changed the count");
            const clean = await cluster.run("preview", { brokerCount, kubernetes: cluster.route });
            succeeded(clean);
            assert.ok(!printed(clean, OTHER_MANAGER), clean.result.stdout);
            assert.ok(
                clean.result.steps.every((step) => step.op === "same"),
                clean.result.stdout,
            );
        }
        assert.equal(cluster.kubelet.lost.length, 0, "a broker was stopped while it held replicas");
        // The chart's own count is untouched: the release's values still say 3.
        assert.match(helm(cluster.plane, cluster.namespace, helmBin(HELM_VERSION), ["get", "values", RELEASE, "--all"]), /clusterSize: 3/);

        upgrade();
        assert.equal(await cluster.replicas(), 3, "helm upgrade with unchanged values kept ClusterScale's count");
        await cluster.waitPodsGone(3);
        assert.deepEqual(
            cluster.kubelet.lost.map((broker) => broker.brokerId),
            [3],
            "the broker Helm's count stopped held no replicas",
        );
        const refused = failed(await cluster.run("preview", { brokerCount: 4, kubernetes: cluster.route }));
        assert.match(refused, /its replicas \(3\) are below the layout's highest broker: broker 3 .*raise it to 4 again/);

        const dropReplicas = path.join(cluster.plane.workDir, "drop-replicas.sh");
        fs.writeFileSync(dropReplicas, "#!/bin/sh\nsed '/^  replicas:/d'\n", { mode: 0o755 });
        upgrade("--post-renderer", dropReplicas);
        assert.equal(await cluster.replicas(), 1, "the three-way merge deletes a field the last release had: the API server defaults it");
    });
});
