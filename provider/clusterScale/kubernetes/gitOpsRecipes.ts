// The recipe of each GitOps controller deploying the brokers' StatefulSet, as far as ClusterScale can tell: read from
// the controller's object when the kubeconfig may read it, else what the program says (kubernetes.gitOpsRecipes). Also
// the words for it: what the controller does to the count, and its recipe.
import type { BrokerStatefulSet, StatefulSetView } from "../../../sdk/kubernetes/brokerStatefulSet";
import { messageOf } from "../../shared/messageOf";
import { type ControllerId, type GitOpsController, controllersOf, recipeHolds } from "./gitOpsControllers";

/** holds: read and in place; lacks: read and missing; unseen: not readable and not declared; declared: not readable, the program says so. */
export type RecipeState = "holds" | "lacks" | "unseen" | "declared";

export interface ControllerReading extends GitOpsController {
    recipe: RecipeState;
    /** What the object lacks, or why it could not be read. */
    detail?: string;
}

export async function readControllers(statefulSet: BrokerStatefulSet, view: StatefulSetView, declared: readonly ControllerId[]): Promise<ControllerReading[]> {
    return Promise.all(
        controllersOf(view).map(async (controller): Promise<ControllerReading> => {
            const unseen = (detail: string): ControllerReading => ({ ...controller, recipe: declared.includes(controller.id) ? "declared" : "unseen", detail });
            if (controller.object === undefined) return unseen("the StatefulSet does not name its object");
            let object;
            try {
                object = await statefulSet.readObject(controller.object.path);
            } catch (error) {
                return unseen(messageOf(error));
            }
            const verdict = recipeHolds(controller.id, object, statefulSet.ref.statefulSet);
            return verdict.holds ? { ...controller, recipe: "holds" } : { ...controller, recipe: "lacks", detail: verdict.lacks };
        }),
    );
}

const WHO: Record<ControllerId, string> = {
    "argo-cd": "Argo CD",
    "kustomize-controller": "Flux kustomize-controller",
    "helm-controller": "Flux helm-controller",
};

const DOES: Record<ControllerId, string> = {
    "argo-cd": "every sync (self-heal within seconds, a new commit, a manual sync) applies the chart's replicas, stopping the brokers above it",
    "kustomize-controller": "it applies with force at every interval, writing the rendered replicas back and stopping the brokers above them",
    "helm-controller": "every upgrade writes the chart's count back with forced conflicts, stopping the brokers above it",
};

function recipe(id: ControllerId, sts: string): string {
    switch (id) {
        case "argo-cd":
            return `on the Application, ignoreDifferences [{group: apps, kind: StatefulSet, name: ${sts}, jsonPointers: [/spec/replicas]}] and syncOptions [RespectIgnoreDifferences=true]; never Replace=true or Force=true on it`;
        case "kustomize-controller":
            return `on the Kustomization (v1.9.0 or later), spec.ignore [{paths: [/spec/replicas], target: {group: apps, kind: StatefulSet, name: ${sts}}}]; never spec.force`;
        case "helm-controller":
            return `once ClusterScale changed the count, a postRenderers kustomize patch {op: remove, path: /spec/replicas} targeting StatefulSet ${sts} (added before, the count drops to 1), or the chart rendered into a source for kustomize-controller with spec.ignore`;
    }
}

/** One controller in words: who, how it was told, what it does to the count, its recipe, and where the recipe stands. */
export function controllerText(reading: ControllerReading, sts: string): string {
    const object = reading.object?.label ?? "its object";
    const state = {
        holds: `its recipe is in place (read from ${object})`,
        lacks: `${object} lacks its recipe: ${reading.detail}`,
        unseen: `ClusterScale cannot read ${object} (${reading.detail}): up changes the count only once kubernetes.gitOpsRecipes lists "${reading.id}", saying the recipe is in place`,
        declared: `the program says its recipe is in place (kubernetes.gitOpsRecipes; ClusterScale cannot read ${object})`,
    }[reading.recipe];
    return `StatefulSet ${sts} is deployed by ${WHO[reading.id]} (${reading.seenBy}): unless its recipe is in place, ${DOES[reading.id]}. Recipe: ${recipe(reading.id, sts)}. ${state[0]!.toUpperCase()}${state.slice(1)}`;
}
