// Argo CD beside ClusterScale on the real control plane, its writes emulated from its code (Argo CD itself cannot be
// built here: see the reference's gitops-other-managers.md): the test chart rendered by `helm template` with Argo CD's
// tracking annotation, applied by kubectl 1.36.3 as Argo CD applies it, with field manager argocd-controller:
// client-side (kubectl apply, its default) and server-side with forced conflicts (ServerSideApply=true). A sync with
// RespectIgnoreDifferences copies the live spec.replicas into what it applies; a sync without it applies the chart's.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { failed, printed, succeeded } from "../provider/clusterScaleSupport";
import { HELM4_VERSION } from "../tools/helm";
import { KUBERNETES_VERSION } from "../tools/kubernetes";
import { toolDir } from "../tools/toolsDir";
import { CHART, RELEASE, STATEFUL_SET, helm, helmBin } from "./brokerWorkload";
import { refusedWithoutRecipe } from "./gitOpsRefusal";
import { type RealCluster, useRealCluster } from "./realCluster";

type Mode = "client-side" | "server-side";

/** Renders the chart with the tracking annotation and applies it as Argo CD would, `replicas` as given (the live count copied in) or the chart's. */
function argoSync(cluster: RealCluster, mode: Mode, liveReplicas?: number): void {
    const values = path.join(cluster.plane.workDir, `${cluster.namespace}-argo-values.json`);
    const tracking = `camunda:apps/StatefulSet:${cluster.namespace}/${STATEFUL_SET}`;
    fs.writeFileSync(values, JSON.stringify({ annotations: { "argocd.argoproj.io/tracking-id": tracking } }));
    let manifest = helm(cluster.plane, cluster.namespace, helmBin(HELM4_VERSION), ["template", RELEASE, CHART, "--values", values]);
    if (liveReplicas !== undefined) manifest = manifest.replace(/^ {2}replicas: \d+$/m, `  replicas: ${liveReplicas}`);
    const file = path.join(cluster.plane.workDir, `${cluster.namespace}-argo-manifest.yaml`);
    fs.writeFileSync(file, manifest);
    const kubectl = path.join(toolDir("kubectl", `v${KUBERNETES_VERSION}`), "bin", "kubectl");
    const serverSide = mode === "server-side" ? ["--server-side", "--force-conflicts"] : [];
    execFileSync(
        kubectl,
        ["apply", ...serverSide, "--field-manager=argocd-controller", "-n", cluster.namespace, "-f", file, "--kubeconfig", cluster.plane.adminKubeconfigFile],
        {
            stdio: ["ignore", "pipe", "pipe"],
        },
    );
}

for (const mode of ["client-side", "server-side"] as const) {
    describe(`Argo CD's ${mode} sync (emulated with kubectl ${KUBERNETES_VERSION}, field manager argocd-controller) beside ClusterScale on a real control plane`, function () {
        this.timeout(240_000);
        const real = useRealCluster();

        it("named before the count moves; refused without the recipe, up with kubernetes.gitOpsRecipes; syncs with the live count keep 5 and 4; a sync with the chart's 3 stops brokers 3 and 4, and the preview after it names them and argocd-controller", async () => {
            const cluster = await real.start({ byProgram: true });
            argoSync(cluster, mode);
            await cluster.waitReady(3);
            await refusedWithoutRecipe(cluster, {
                deployedBy: `StatefulSet ${STATEFUL_SET} is deployed by Argo CD (annotation argocd.argoproj.io/tracking-id)`,
                cannotRead: "ClusterScale cannot read Application argocd/camunda",
                refusal: /it would move spec\.replicas from 3, and StatefulSet camunda-zeebe is deployed by Argo CD/,
            });

            const declared = (brokerCount: number) => ({ brokerCount, kubernetes: { ...cluster.route, gitOpsRecipes: ["argo-cd"] } });
            for (const brokerCount of [5, 4]) {
                const up = await cluster.run("up", declared(brokerCount));
                succeeded(up);
                assert.ok(printed(up, "The program says its recipe is in place (kubernetes.gitOpsRecipes"), up.result.stdout);
                argoSync(cluster, mode, brokerCount);
                assert.equal(await cluster.replicas(), brokerCount, "a sync with the live count changed it");
                assert.deepEqual(
                    await cluster.names("pods"),
                    Array.from({ length: brokerCount }, (_, ordinal) => `${STATEFUL_SET}-${ordinal}`),
                );
                assert.deepEqual(cluster.kubelet.lost, [], "a broker was stopped while it held replicas");
            }

            // Without RespectIgnoreDifferences (the recipe the program claimed): the chart's 3 comes back.
            argoSync(cluster, mode);
            assert.equal(await cluster.replicas(), 3);
            await cluster.waitPodsGone(3);
            const after = await cluster.run("preview", declared(4));
            const stderr = failed(after);
            assert.match(stderr, /its replicas \(3\) are below the layout's highest broker: broker 3 \(pod camunda-zeebe-3\) is down already/);
            assert.match(stderr, /managedFields name field manager argocd-controller as writer of spec\.replicas/);
        });
    });
}
