// The brokers' StatefulSet deployed by Pulumi's Kubernetes provider beside ClusterScale, under the real CLI and the real
// provider plugin, on a real control plane (see brokersUnderCli.ts): the test chart through k8s.helm.v4.Chart, and a
// StatefulSet of the program's own, each with leaveBrokerReplicasToClusterScale. The promise: after ClusterScale
// changed the count, no change of the chart or the program (the pod template, a value beside the StatefulSet, the
// chart's version), no refresh, starts or stops a broker, and every preview and up passes. Measured with it: the
// provider leaves spec.replicas out of what it applies (ClusterScale's `/scale` write stays its only owner), with
// server-side apply and without. Without it: with server-side apply (the default) the program's next update of the
// StatefulSet fails with an apply conflict, on preview; without server-side apply it writes the count back, and the
// brokers above it stop. ClusterScale's preview names the fight before it first changes the count.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { succeeded } from "../cli/cliAssertions";
import { KUBERNETES_PROVIDER_VERSION } from "../tools/kubernetesProvider";
import { type Deployer, step, useBrokersUnderCli } from "./brokersUnderCli";

for (const deployer of ["chart", "statefulSet"] as const satisfies Deployer[]) {
    const title = deployer === "chart" ? "the test chart through k8s.helm.v4.Chart" : "a k8s.apps.v1.StatefulSet of the program's own";

    describe(`${title} (Pulumi's Kubernetes provider v${KUBERNETES_PROVIDER_VERSION}) with leaveBrokerReplicasToClusterScale, beside ClusterScale`, function () {
        this.timeout(300_000);
        const brokers = useBrokersUnderCli();

        it("install; ClusterScale 3 → 5; changes of the pod template, of a value beside it and of the chart's version; refresh; 5 → 3 and a change after: no broker starts or stops but by the count, every preview and up passes", async () => {
            const cluster = await brokers.start(deployer);
            await step(cluster, "install", {}, 3);
            const scaled = await step(cluster, "ClusterScale 3 → 5", { brokerCount: "5" }, 5);
            // The transform's annotation tells ClusterScale the program leaves it the count: no warning.
            assert.ok(!scaled.preview.lines.some((line) => line.includes("spec.replicas is also")), scaled.preview.lines.join("\n"));
            assert.deepEqual(await cluster.replicaOwners(), ["pulumi-platform (scale)"]);
            await step(cluster, "an env var of the pod template", { env: "tuned" }, 5);
            await step(cluster, "an image tag", { image: "camunda/camunda:8.9.17" }, 5);
            await step(cluster, "a pod label", { podLabel: "brokers" }, 5);
            await step(cluster, "a value beside the StatefulSet", { settings: "second" }, 5);
            if (deployer === "chart") {
                const chartFile = path.join(cluster.chartPath, "Chart.yaml");
                fs.writeFileSync(chartFile, fs.readFileSync(chartFile, "utf8").replace("version: 0.1.0", "version: 0.2.0"));
                await step(cluster, "the chart's version", {}, 5);
            }
            succeeded(await cluster.run("refresh"));
            assert.equal(await cluster.replicas(), 5, "refresh changed the count");
            succeeded(await cluster.run("preview", {}, "--expect-no-changes"));
            await step(cluster, "ClusterScale 5 → 3", { brokerCount: "3" }, 3);
            await step(cluster, "an env var after the scale-down", { env: "tuned-again" }, 3);
            assert.deepEqual(await cluster.replicaOwners(), ["pulumi-platform (scale)"], "the program took spec.replicas back");
        });
    });
}
