// Helm 4 as users run it, on the real control plane: the brokers' StatefulSet installed by `helm install` of the test
// chart, scaled by ClusterScale, then `helm upgrade`. Helm 4 upgrades with server-side apply: measured here, an upgrade
// after ClusterScale changed the count fails with an apply conflict (the count kept, no broker stops); the README's
// post-renderer, installed as a Helm 4 plugin (Helm 4 runs post-renderers as plugins only), applies the live count and
// passes, growing and shrinking; `--server-side=false` goes back to Helm 3's merge, which writes the chart's count back.
import assert from "node:assert/strict";
import * as path from "path";
import { printed, succeeded } from "../provider/clusterScaleSupport";
import { toolDir } from "../tools/toolsDir";
import { HELM4_VERSION } from "../tools/helm";
import { KUBERNETES_VERSION } from "../tools/kubernetes";
import { CHART, RELEASE, STATEFUL_SET, helm, helmBin } from "./brokerWorkload";
import { useRealCluster } from "./realCluster";

const RECIPE = path.resolve(__dirname, "..", "..", "examples", "helm-keep-replicas");

describe(`ClusterScale and Helm ${HELM4_VERSION} on a real control plane`, function () {
    this.timeout(240_000);
    const real = useRealCluster();

    it("after ClusterScale changed the count, helm upgrade fails with an apply conflict and keeps it; the README's post-renderer as a Helm 4 plugin keeps it through upgrades, growing and shrinking; --server-side=false writes the chart's count back", async () => {
        const cluster = await real.start({ helm: helmBin(HELM4_VERSION) });
        const kubectl = path.join(toolDir("kubectl", `v${KUBERNETES_VERSION}`), "bin");
        const run = (...args: string[]) => helm(cluster.plane, cluster.namespace, helmBin(HELM4_VERSION), args, [kubectl]);
        const upgrade = (...args: string[]) => run("upgrade", RELEASE, CHART, "--reuse-values", ...args);
        const owners = async () =>
            (
                (await cluster.plane.admin.must("GET", `/apis/apps/v1/namespaces/${cluster.namespace}/statefulsets/${STATEFUL_SET}`)).metadata as {
                    managedFields: { manager: string; subresource?: string; fieldsV1?: { "f:spec"?: Record<string, unknown> } }[];
                }
            ).managedFields
                .filter((entry) => entry.fieldsV1?.["f:spec"]?.["f:replicas"] !== undefined)
                .map((entry) => `${entry.manager}${entry.subresource ? ` (${entry.subresource})` : ""}`);

        const preview = await cluster.run("preview", { brokerCount: 5, kubernetes: cluster.route });
        assert.ok(printed(preview, "spec.replicas is also written by helm"), preview.result.stdout);
        succeeded(await cluster.run("up", { brokerCount: 5, kubernetes: cluster.route }));
        assert.deepEqual(await owners(), ["pulumi-platform (scale)"]);
        assert.throws(
            () => upgrade(),
            (error: { stderr?: string }) =>
                /UPGRADE FAILED: .*Apply failed with 1 conflict: conflict with "pulumi-platform" with subresource "scale" using apps\/v1: \.spec\.replicas/.test(
                    error.stderr ?? "",
                ),
        );
        assert.equal(await cluster.replicas(), 5, "the failed upgrade changed the count");

        run("plugin", "install", RECIPE);
        const keep = ["--post-renderer", "keep-live-replicas", "--post-renderer-args", cluster.namespace, "--post-renderer-args", STATEFUL_SET];
        for (const brokerCount of [5, 4]) {
            succeeded(await cluster.run("up", { brokerCount, kubernetes: cluster.route }));
            upgrade(...keep);
            upgrade(...keep, "--set", `annotations.layout=brokers-${brokerCount}`);
            assert.equal(await cluster.replicas(), brokerCount, "helm upgrade with the post-renderer changed the count");
            // Helm applied the same count: it owns spec.replicas beside ClusterScale, without a conflict.
            assert.deepEqual((await owners()).sort(), ["helm", "pulumi-platform (scale)"]);
        }
        const lost = () => cluster.kubelet.lost.map((broker) => broker.brokerId);
        assert.deepEqual(lost(), [], "a broker was stopped while it held replicas");

        upgrade("--server-side=false");
        assert.equal(await cluster.replicas(), 3, "Helm 3's merge kept ClusterScale's count");
        await cluster.waitPodsGone(3);
        assert.deepEqual(lost(), [3], "the broker the chart's count stopped held no replicas");
    });
});
