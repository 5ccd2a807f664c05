// The brokers' StatefulSet replaced: a change Kubernetes cannot make in place (the PVC size, serviceName,
// podManagementPolicy) after ClusterScale 3 → 5, under the real CLI with Pulumi's Kubernetes provider plugin on a real
// control plane (see brokersUnderCli.ts), for the test chart through k8s.helm.v4.Chart and a StatefulSet of the
// program's own, each with leaveBrokerReplicasToClusterScale (given the Kubernetes provider's kubeconfig, so that it
// reads the live StatefulSet and names the field). Measured before the transform made the replacement
// create-before-delete and refused deleteBeforeReplace: with deleteBeforeReplace: true, `up --skip-preview` deleted the
// StatefulSet (all five brokers stopped while they held partition replicas) and re-created it with the chart's 3. The
// promise now: the replacement is refused before anything is deleted (by preview, and by up without one), in the
// product's words where the transform can read the live StatefulSet and in Kubernetes' where it cannot, no broker
// starts or stops, the count stays the layout's, and once the change is taken back every preview and up passes again.
import assert from "node:assert/strict";
import { printed } from "../cli/cliAssertions";
import type { CliResult } from "../cli/cliStack";
import { KUBERNETES_PROVIDER_VERSION } from "../tools/kubernetesProvider";
import { type BrokersStack, type Deployer, step, useBrokersUnderCli } from "./brokersUnderCli";
import { NAMESPACE, STATEFUL_SET } from "./brokerWorkload";

const STS = `/apis/apps/v1/namespaces/${NAMESPACE}/statefulsets/${STATEFUL_SET}`;
const DELETE_FIRST_REFUSED = "StatefulSet camunda-zeebe: deleteBeforeReplace: true is refused (leaveBrokerReplicasToClusterScale)";
const KUBERNETES_REFUSES = "Forbidden: updates to statefulset spec for fields other than";
const WOULD_BE_REPLACED =
    "StatefulSet camunda-zeebe would be replaced, and leaveBrokerReplicasToClusterScale refuses that before anything changes: Kubernetes cannot update";
const CHANGES: { change: Record<string, string>; back: Record<string, string>; named: string; way: string }[] = [
    {
        change: { pvcSize: "2Gi" },
        back: { pvcSize: "1Gi" },
        named: "spec.volumeClaimTemplates[data].resources.requests.storage 1Gi → 2Gi in place",
        way: "To give the brokers 2Gi, expand their claims in place, one at a time (the storage class must allow volume expansion), data-camunda-zeebe-0 to data-camunda-zeebe-4",
    },
    {
        change: { serviceName: "zeebe-brokers" },
        back: { serviceName: "camunda-zeebe" },
        named: "spec.serviceName camunda-zeebe → zeebe-brokers in place",
        way: "To change such a field all the same, delete the StatefulSet keeping its pods (kubectl -n camunda delete statefulset camunda-zeebe --cascade=orphan)",
    },
    {
        change: { podManagementPolicy: "OrderedReady" },
        back: { podManagementPolicy: "Parallel" },
        named: "spec.podManagementPolicy Parallel → OrderedReady in place",
        way: "the new StatefulSet adopts the running pods",
    },
];

/** `command` fails; the pods are the ones before (by uid), spec.replicas the layout's 5, no broker lost. */
async function refusedSafely(cluster: BrokersStack, what: string, command: () => Promise<CliResult>): Promise<CliResult> {
    const before = await cluster.pods();
    const result = await command();
    assert.notEqual(result.exitCode, 0, `${what}: it passed:\n${result.lines.join("\n")}`);
    assert.deepEqual(await cluster.pods(), before, `${what}: a broker pod stopped or started`);
    assert.equal(await cluster.replicas(), 5, `${what}: spec.replicas`);
    assert.deepEqual(cluster.kubelet.lost, [], `${what}: a broker was stopped while it held replicas`);
    return result;
}

for (const deployer of ["chart", "statefulSet"] as const satisfies Deployer[]) {
    const title = deployer === "chart" ? "the test chart through k8s.helm.v4.Chart" : "a k8s.apps.v1.StatefulSet of the program's own";

    describe(`${title} (Pulumi's Kubernetes provider v${KUBERNETES_PROVIDER_VERSION}) replaced after ClusterScale 3 → 5`, function () {
        this.timeout(300_000);
        const brokers = useBrokersUnderCli();

        it("the PVC size, serviceName and podManagementPolicy: each refused before anything is deleted, by preview and by up --skip-preview, naming the field, the brokers and the way; taken back, all passes", async () => {
            const cluster = await brokers.start(deployer);
            await step(cluster, "install", {}, 3);
            await step(cluster, "ClusterScale 3 → 5", { brokerCount: "5" }, 5);
            for (const { change, back, named, way } of CHANGES) {
                const what = JSON.stringify(change);
                for (const [command, extra] of [
                    ["preview", []],
                    ["up", ["--skip-preview"]],
                ] as const) {
                    const result = await refusedSafely(cluster, `${what}: ${command} ${extra.join(" ")}`, () => cluster.run(command, change, ...extra));
                    printed(result, WOULD_BE_REPLACED);
                    printed(result, named);
                    printed(result, "all 5 brokers would stop at once while they hold partition replicas");
                    printed(result, way);
                }
                await step(cluster, `${what} taken back`, back, 5);
            }
            assert.deepEqual(await cluster.replicaOwners(), ["pulumi-platform (scale)"]);
        });

        it("deleteBeforeReplace: true with the PVC size: refused by preview and by up --skip-preview, naming the option, before anything is deleted; without a kubeconfig to look with, by Kubernetes' own words", async () => {
            const cluster = await brokers.start(deployer);
            await step(cluster, "install", {}, 3);
            await step(cluster, "ClusterScale 3 → 5", { brokerCount: "5" }, 5);
            const dangerous = { deleteBeforeReplace: "true", pvcSize: "2Gi" };
            printed(await refusedSafely(cluster, "preview", () => cluster.run("preview", dangerous)), DELETE_FIRST_REFUSED);
            printed(await refusedSafely(cluster, "up --skip-preview", () => cluster.run("up", {}, "--skip-preview")), DELETE_FIRST_REFUSED);
            await step(cluster, "the option and the size taken back", { deleteBeforeReplace: "", pvcSize: "1Gi" }, 5);
            // Without a kubeconfig to look with, Kubernetes' own words refuse it, before anything is deleted.
            const unseen = { lookBeforeReplace: "false", pvcSize: "2Gi" };
            printed(await refusedSafely(cluster, "no look: preview", () => cluster.run("preview", unseen)), KUBERNETES_REFUSES);
            await refusedSafely(cluster, "no look: up --skip-preview", () => cluster.run("up", {}, "--skip-preview"));
            await step(cluster, "the size taken back", { pvcSize: "1Gi" }, 5);
        });
    });
}

describe(`the chart's StatefulSet deleted with --cascade=orphan and created again below the layout's count (Pulumi's Kubernetes provider v${KUBERNETES_PROVIDER_VERSION})`, function () {
    this.timeout(300_000);
    const brokers = useBrokersUnderCli();

    it("while it is gone, preview names the count to create it with; created at the chart's 3, up's ClusterScale names the re-creation and its writer", async () => {
        const cluster = await brokers.start("chart");
        await step(cluster, "install", {}, 3);
        await step(cluster, "ClusterScale 3 → 5", { brokerCount: "5" }, 5);
        await cluster.plane.admin.must("DELETE", `${STS}?propagationPolicy=Orphan`);
        const refreshed = await cluster.run("refresh");
        assert.equal(refreshed.exitCode, 0, refreshed.lines.join("\n"));
        const preview = await cluster.run("preview");
        assert.equal(preview.exitCode, 0, preview.lines.join("\n"));
        printed(preview, "StatefulSet camunda-zeebe no longer exists (the last up followed it)");
        printed(preview, "Create it with replicas 5, the layout's");
        // The user goes on without giving the chart 5: the new StatefulSet adopts the pods and stops 3 and 4.
        const up = await cluster.run("up", {}, "--skip-preview");
        assert.notEqual(up.exitCode, 0, up.lines.join("\n"));
        printed(up, "StatefulSet camunda-zeebe was deleted and created anew at");
        printed(up, "at the count its creator gave, not the layout's; managedFields name Pulumi's Kubernetes provider (field manager pulumi-kubernetes-");
        printed(up, "server-side apply) as writer of spec.replicas: raise it to 5 again");
    });
});
