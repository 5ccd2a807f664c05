// examples/kubernetes as a user runs it, under the real CLI and Pulumi's Kubernetes provider plugin, on a real control
// plane: its namespace, the chart through k8s.helm.v4.Chart (the tier's own chart as chartPath: no chart registry can
// be reached here), and ClusterScale with the management API from stack config and the StatefulSet through the API
// server with the Kubernetes provider's kubeconfig. preview, up, a scale-up as its README shows, `preview
// --expect-no-changes`, refresh, destroy.
import assert from "node:assert/strict";
import * as path from "node:path";
import { printed, succeeded } from "../cli/cliAssertions";
import { CliStack } from "../cli/cliStack";
import { PULUMI_SDK_MATCH } from "../tools/pulumi";
import { CHART, NAMESPACE } from "./brokerWorkload";
import { type BrokersStack, brokersStack, kubernetesPluginBin, readyPods, startBrokerPlatform, step } from "./brokersUnderCli";

const EXAMPLE = path.join(__dirname, "..", "..", "examples", "kubernetes");

describe("examples/kubernetes under the real CLI on a real control plane", function () {
    this.timeout(300_000);
    let cluster: BrokersStack | undefined;
    afterEach(async () => {
        if (!cluster) return;
        cluster.stack.dispose();
        await cluster.kubelet.stop();
        await cluster.plane.stop();
        await cluster.emulator.close();
        cluster = undefined;
    });

    it("preview, up, 3 → 5 brokers, preview --expect-no-changes, refresh, destroy", async () => {
        const platform = await startBrokerPlatform();
        await platform.kubelet.start();
        const stack = await CliStack.create({
            example: EXAMPLE,
            version: PULUMI_SDK_MATCH,
            config: {
                "platform:managementUrl": platform.emulator.managementUrl,
                "platform:gatewayUrl": platform.emulator.gatewayUrl,
                chartPath: CHART,
            },
            secrets: { "kubernetes:kubeconfig": platform.plane.adminKubeconfigFile },
        });
        stack.addEnv({ PATH: `${kubernetesPluginBin()}${path.delimiter}${process.env.PATH ?? ""}` });
        cluster = brokersStack(stack, platform, CHART);

        const first = await step(cluster, "the first up", {}, 3);
        printed(first.preview, "StatefulSet camunda-zeebe does not exist yet");
        const scaled = await step(cluster, "brokerCount 5", { brokerCount: "5" }, 5);
        printed(scaled.preview, "brokers added: 3, 4");
        assert.ok(!scaled.preview.lines.some((line) => line.includes("spec.replicas is also")), scaled.preview.lines.join("\n"));
        assert.deepEqual(await cluster.replicaOwners(), ["pulumi-platform (scale)"]);
        assert.ok(platform.emulator.control.replicasOf(4)?.length, "broker 4 holds no replica");

        succeeded(await cluster.run("preview", {}, "--expect-no-changes"));
        succeeded(await cluster.run("refresh"));
        succeeded(await cluster.run("preview", {}, "--expect-no-changes"));
        await readyPods(cluster, 5);
        assert.deepEqual(cluster.kubelet.lost, []);

        succeeded(await stack.destroy());
        assert.deepEqual((await stack.exportState()).deployment.resources ?? [], []);
        assert.equal((await platform.plane.admin.get(`/api/v1/namespaces/${NAMESPACE}`)).status, 404, "the namespace is gone");
        // The program's destroy deletes the namespace and so stops the brokers; the layout stays the cluster's.
        assert.ok(platform.emulator.control.replicasOf(4)?.length, "destroy changed the cluster's layout");
    });
});
