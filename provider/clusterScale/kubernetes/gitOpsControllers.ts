// The GitOps controllers that deploy the brokers' StatefulSet, known from the StatefulSet itself before any of them
// owns spec.replicas: Argo CD (its tracking-id annotation, its field manager argocd-controller), Flux
// kustomize-controller and helm-controller (their kustomize.toolkit.fluxcd.io/* and helm.toolkit.fluxcd.io/* labels,
// their field managers). Each renders the chart's count and writes it back at its next sync (facts, with their code:
// the reference's gitops-other-managers.md), unless its recipe is in place; recipeHolds reads the recipe from the
// controller's object (an Argo CD Application, a Flux Kustomization or HelmRelease) when the kubeconfig may read it.
import type { StatefulSetView } from "../../../sdk/kubernetes/brokerStatefulSet";

export type ControllerId = "argo-cd" | "kustomize-controller" | "helm-controller";

export interface GitOpsController {
    id: ControllerId;
    /** What told it: the annotation, the labels or the field manager. */
    seenBy: string;
    /** The controller's object, when the StatefulSet names it: its API path and what to call it. */
    object?: { path: string; label: string };
}

/** The field manager each controller writes as. */
export const CONTROLLER_MANAGERS: Record<ControllerId, string> = {
    "argo-cd": "argocd-controller",
    "kustomize-controller": "kustomize-controller",
    "helm-controller": "helm-controller",
};
export const ARGO_TRACKING = "argocd.argoproj.io/tracking-id";
const FLUX = {
    "kustomize-controller": { group: "kustomize.toolkit.fluxcd.io", version: "v1", plural: "kustomizations", kind: "Kustomization" },
    "helm-controller": { group: "helm.toolkit.fluxcd.io", version: "v2", plural: "helmreleases", kind: "HelmRelease" },
} as const;
/** Argo CD's Applications live in its own namespace unless their name says another (apps in any namespace: `<ns>_<app>`). */
const ARGO_NAMESPACE = "argocd";

export function controllersOf(view: StatefulSetView): GitOpsController[] {
    const found: GitOpsController[] = [];
    const tracking = view.annotations[ARGO_TRACKING];
    if (tracking !== undefined || view.managers.includes(CONTROLLER_MANAGERS["argo-cd"])) {
        found.push({
            id: "argo-cd",
            seenBy: tracking !== undefined ? `annotation ${ARGO_TRACKING}` : "field manager argocd-controller",
            ...(tracking !== undefined ? { object: argoApplication(tracking) } : {}),
        });
    }
    for (const id of ["kustomize-controller", "helm-controller"] as const) {
        const { group, version, plural, kind } = FLUX[id];
        const name = view.labels[`${group}/name`];
        const namespace = view.labels[`${group}/namespace`];
        if (name === undefined && !view.managers.includes(id)) continue;
        found.push({
            id,
            seenBy: name !== undefined ? `labels ${group}/*` : `field manager ${id}`,
            ...(name !== undefined && namespace !== undefined
                ? { object: { path: `/apis/${group}/${version}/namespaces/${namespace}/${plural}/${name}`, label: `${kind} ${namespace}/${name}` } }
                : {}),
        });
    }
    return found;
}

/** `<app>:<group>/<kind>:<namespace>/<name>`; the app `<ns>_<name>` for an Application outside Argo CD's namespace. */
function argoApplication(tracking: string): { path: string; label: string } {
    const app = tracking.split(":")[0] ?? tracking;
    const [namespace, name] = app.includes("_") ? [app.slice(0, app.indexOf("_")), app.slice(app.indexOf("_") + 1)] : [ARGO_NAMESPACE, app];
    return { path: `/apis/argoproj.io/v1alpha1/namespaces/${namespace}/applications/${name}`, label: `Application ${namespace}/${name}` };
}

/** Whether the controller's object leaves spec.replicas of this StatefulSet alone, and if not, what it lacks. */
export function recipeHolds(id: ControllerId, object: Record<string, unknown>, statefulSet: string): { holds: true } | { holds: false; lacks: string } {
    const spec = record(object.spec);
    switch (id) {
        case "argo-cd": {
            const rules = list(spec.ignoreDifferences).map(record);
            const onReplicas = rules.filter(
                (rule) =>
                    rule.kind === "StatefulSet" &&
                    (rule.name === undefined || rule.name === statefulSet) &&
                    (list(rule.jsonPointers).includes("/spec/replicas") || list(rule.jqPathExpressions).includes(".spec.replicas")),
            );
            if (onReplicas.length === 0) return { holds: false, lacks: "no ignoreDifferences rule for /spec/replicas of the StatefulSet" };
            if (!onReplicas.some((rule) => rule.group === "apps" || rule.group === "*")) {
                return {
                    holds: false,
                    lacks: "its ignoreDifferences rule for /spec/replicas has no group: apps, and a rule without group matches nothing (argo-cd#28590)",
                };
            }
            if (!list(record(spec.syncPolicy).syncOptions).includes("RespectIgnoreDifferences=true")) {
                return {
                    holds: false,
                    lacks: "no sync option RespectIgnoreDifferences=true (ignoreDifferences alone only hides the diff: every sync writes the chart's count)",
                };
            }
            return { holds: true };
        }
        case "kustomize-controller": {
            const rules = list(spec.ignore).map(record);
            const holds = rules.some((rule) => {
                const target = record(rule.target);
                return (
                    list(rule.paths).includes("/spec/replicas") &&
                    (target.kind === undefined || target.kind === "StatefulSet") &&
                    (target.name === undefined || target.name === statefulSet)
                );
            });
            return holds
                ? { holds: true }
                : { holds: false, lacks: "no spec.ignore rule for /spec/replicas of the StatefulSet (kustomize-controller v1.9.0 or later)" };
        }
        case "helm-controller": {
            const patches = list(spec.postRenderers).flatMap((renderer) => list(record(record(renderer).kustomize).patches).map(record));
            const holds = patches.some((patch) => {
                const target = record(patch.target);
                return (
                    target.kind === "StatefulSet" &&
                    (target.name === undefined || target.name === statefulSet) &&
                    /remove/.test(String(patch.patch)) &&
                    /\/spec\/replicas/.test(String(patch.patch))
                );
            });
            return holds
                ? { holds: true }
                : {
                      holds: false,
                      lacks: "no postRenderers kustomize patch removing /spec/replicas from the StatefulSet (driftDetection.ignore does not cover upgrades)",
                  };
        }
    }
}

function record(value: unknown): Record<string, unknown> {
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function list(value: unknown): unknown[] {
    return Array.isArray(value) ? value : [];
}
