// The brokers' StatefulSet deployed by Pulumi's Kubernetes provider beside ClusterScale without
// leaveBrokerReplicasToClusterScale, under the real CLI on a real control plane (see pulumiKubernetes.spec.ts for the
// recipe): with server-side apply (the default) the program's next update of the StatefulSet fails with an apply
// conflict once ClusterScale changed the count, on preview, and no broker stops; without server-side apply it writes
// the count back, and the brokers above it stop. ClusterScale's preview names the fight before it first changes it.
import assert from "node:assert/strict";
import { printed } from "../cli/cliAssertions";
import { KUBERNETES_PROVIDER_VERSION } from "../tools/kubernetesProvider";
import { step, useBrokersUnderCli } from "./brokersUnderCli";

describe(`the test chart through k8s.helm.v4.Chart without leaveBrokerReplicasToClusterScale (Pulumi's Kubernetes provider v${KUBERNETES_PROVIDER_VERSION})`, function () {
    this.timeout(300_000);
    const brokers = useBrokersUnderCli();

    it("server-side apply (the default): ClusterScale's preview names the fight; after it changed the count, the chart's next update fails with an apply conflict on preview, no broker stops; adding the transform lets it pass", async () => {
        const cluster = await brokers.start("chart", { transform: "false" });
        await step(cluster, "install", {}, 3);
        const scaled = await step(cluster, "ClusterScale 3 → 5", { brokerCount: "5" }, 5);
        printed(scaled.preview, "spec.replicas is also applied by Pulumi's Kubernetes provider (pulumi-kubernetes-");
        printed(scaled.preview, "the program's next update of the StatefulSet fails with an apply conflict; leave spec.replicas to ClusterScale");
        for (const command of ["preview", "up"] as const) {
            const refused = await cluster.run(command, { env: "tuned" });
            assert.notEqual(refused.exitCode, 0, refused.lines.join("\n"));
            printed(refused, 'Apply failed with 1 conflict: conflict with "pulumi-platform" with subresource "scale" using apps/v1: .spec.replicas');
            assert.equal(await cluster.replicas(), 5);
            assert.deepEqual(cluster.kubelet.lost, []);
        }
        await step(cluster, "the same change with the transform", { transform: "true" }, 5);
    });

    it("without server-side apply (enableServerSideApply: false): ClusterScale's preview warns that the count will be set back, and it is (the brokers above it stop); with the transform it stays", async () => {
        const cluster = await brokers.start("statefulSet", { transform: "false", apply: "clientSide" });
        await step(cluster, "install", {}, 3);
        const scaled = await step(cluster, "ClusterScale 3 → 5", { brokerCount: "5" }, 5);
        printed(scaled.preview, "spec.replicas is also written by Pulumi's Kubernetes provider without server-side apply (pulumi-kubernetes)");
        printed(scaled.preview, "sets the count back, stopping the brokers above it; leave spec.replicas to ClusterScale");
        const reverted = await cluster.run("up", { env: "tuned" });
        assert.equal(await cluster.replicas(), 3, "the program's update did not write the count back");
        printed(reverted, "its replicas (3) are below the layout's highest broker");
        while (Object.keys(await cluster.pods()).length > 3) await new Promise((resolve) => setTimeout(resolve, 100));
        assert.deepEqual(cluster.kubelet.lost.map((lost) => lost.brokerId).sort(), [3, 4], "the brokers the count stopped held no replicas");

        const safe = await brokers.start("statefulSet", { transform: "true", apply: "clientSide" });
        await step(safe, "install (with the transform)", {}, 3);
        await step(safe, "ClusterScale 3 → 5 (with the transform)", { brokerCount: "5" }, 5);
        await step(safe, "an env var (with the transform)", { env: "tuned" }, 5);
    });
});
