// Flux helm-controller beside ClusterScale on the real control plane, its writes emulated from its code (helm-controller
// is not served by the module proxy here: see the reference's gitops-other-managers.md). helm-controller embeds Helm 4
// and always forces conflicts on server-side apply; the emulation is Helm 4's own `helm upgrade --server-side
// --force-conflicts` of the test chart, the StatefulSet labelled as helm-controller labels what it deploys
// (helm.toolkit.fluxcd.io/name and /namespace; the field manager is Helm's `helm`, not `helm-controller`). The recipe,
// a postRenderers kustomize patch removing /spec/replicas, is emulated by a Helm 4 post-renderer plugin doing the same.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { failed, succeeded } from "../provider/clusterScaleSupport";
import { HELM4_VERSION } from "../tools/helm";
import { CHART, RELEASE, STATEFUL_SET, helm, helmBin } from "./brokerWorkload";
import { refusedWithoutRecipe } from "./gitOpsRefusal";
import { type RealCluster, useRealCluster } from "./realCluster";

const REMOVE_REPLICAS = path.join(__dirname, "remove-replicas");
const FLUX_LABELS = { "helm.toolkit.fluxcd.io/name": RELEASE, "helm.toolkit.fluxcd.io/namespace": "flux-system" };

/** Helm 4 as helm-controller runs it: server-side, conflicts forced, the StatefulSet carrying helm-controller's labels. */
function helmController(cluster: RealCluster) {
    const values = path.join(cluster.plane.workDir, `${cluster.namespace}-flux-values.json`);
    fs.writeFileSync(values, JSON.stringify({ labels: FLUX_LABELS }));
    const run = (...args: string[]) => helm(cluster.plane, cluster.namespace, helmBin(HELM4_VERSION), args);
    const recipe = ["--post-renderer", "remove-replicas", "--post-renderer-args", STATEFUL_SET];
    return {
        install: () => run("install", RELEASE, CHART, "--server-side=true", "--values", values),
        // The plugin is installed once per control plane (Helm's folders are the plane's).
        installRecipe: () => run("plugin", "list").includes("remove-replicas") || run("plugin", "install", REMOVE_REPLICAS),
        /** An upgrade (a new revision, a values change); with the recipe, /spec/replicas removed from what it applies. */
        upgrade: (options: { recipe: boolean; annotation?: string }) =>
            run(
                "upgrade",
                RELEASE,
                CHART,
                "--server-side=true",
                "--force-conflicts",
                "--values",
                values,
                ...(options.annotation ? ["--set", `annotations.revision=${options.annotation}`] : []),
                ...(options.recipe ? recipe : []),
            ),
    };
}

describe(`Flux helm-controller's upgrades (emulated with Helm ${HELM4_VERSION}: upgrade --server-side --force-conflicts, helm-controller's labels) beside ClusterScale on a real control plane`, function () {
    this.timeout(240_000);
    const real = useRealCluster();

    it("named before the count moves; refused without the recipe, up with kubernetes.gitOpsRecipes; upgrades with the recipe keep 5 and 4; an upgrade without it writes the chart's 3 back, stopping broker 3, and the preview after it names it and Helm", async () => {
        const cluster = await real.start({ byProgram: true });
        const flux = helmController(cluster);
        flux.install();
        await cluster.waitReady(3);
        await refusedWithoutRecipe(cluster, {
            deployedBy: `StatefulSet ${STATEFUL_SET} is deployed by Flux helm-controller (labels helm.toolkit.fluxcd.io/*)`,
            cannotRead: `ClusterScale cannot read HelmRelease flux-system/${RELEASE}`,
            refusal: /it would move spec\.replicas from 3, and StatefulSet camunda-zeebe is deployed by Flux helm-controller/,
        });

        const declared = (brokerCount: number) => ({ brokerCount, kubernetes: { ...cluster.route, gitOpsRecipes: ["helm-controller"] } });
        flux.installRecipe();
        for (const brokerCount of [5, 4]) {
            succeeded(await cluster.run("up", declared(brokerCount)));
            flux.upgrade({ recipe: true });
            flux.upgrade({ recipe: true, annotation: `brokers-${brokerCount}` });
            assert.equal(await cluster.replicas(), brokerCount, "an upgrade with the recipe changed the count");
            assert.deepEqual(
                await cluster.names("pods"),
                Array.from({ length: brokerCount }, (_, ordinal) => `${STATEFUL_SET}-${ordinal}`),
            );
        }
        const lost = () => cluster.kubelet.lost.map((broker) => broker.brokerId);
        assert.deepEqual(lost(), [], "a broker was stopped while it held replicas");

        // Without the recipe, as helm-controller upgrades: the chart's 3, conflicts forced.
        flux.upgrade({ recipe: false, annotation: "without-recipe" });
        assert.equal(await cluster.replicas(), 3);
        await cluster.waitPodsGone(3);
        assert.deepEqual(lost(), [3], "the chart's count did not stop broker 3, which held replicas");
        const stderr = failed(await cluster.run("preview", declared(4)));
        assert.match(stderr, /its replicas \(3\) are below the layout's highest broker: broker 3 \(pod camunda-zeebe-3\) is down already/);
        assert.match(stderr, /managedFields name Helm \(field manager helm\) as writer of spec\.replicas/);
    });

    it("the recipe added before ClusterScale first changed the count (Helm still the field's only owner): the upgrade drops spec.replicas to 1, as the recipe's text warns", async () => {
        const cluster = await real.start({ byProgram: true });
        const flux = helmController(cluster);
        flux.install();
        await cluster.waitReady(3);
        flux.installRecipe();
        flux.upgrade({ recipe: true });
        assert.equal(await cluster.replicas(), 1);
        await cluster.waitPodsGone(1, 2);
        const preview = await cluster.run("preview", { brokerCount: 3, kubernetes: { ...cluster.route, gitOpsRecipes: ["helm-controller"] } });
        assert.match(
            failed(preview),
            /its replicas \(1\) are below the layout's highest broker: brokers 1, 2 \(pods camunda-zeebe-1, camunda-zeebe-2\) are down already/,
        );
    });
});
