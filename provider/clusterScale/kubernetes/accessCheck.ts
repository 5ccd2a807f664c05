// Before an up begins, whether the kubeconfig's user may make the writes it will need once it has begun: scaling the
// StatefulSet (after the layout change, when brokers are removed), watching the pods, deleting the removed brokers'
// claims. A refusal met halfway would leave the layout changed and the StatefulSet not; asked first (the API server's
// SelfSubjectAccessReview), it stops preview and up before anything is sent. An API server that does not answer reviews
// leaves the steps to meet their own refusals, as before.

import type { AccessRequest, BrokerStatefulSet, StatefulSetView } from "../../../sdk/kubernetes/brokerStatefulSet";
import { subject } from "../messages";
import { claimsOf } from "./statefulSetSteps";
import { removedOrdinals } from "./removedOrdinals";

/** The writes and watches a run needs to move the StatefulSet from its replicas to `needed`, and to delete claims. */
export function neededAccess(
    statefulSet: BrokerStatefulSet,
    view: StatefulSetView,
    plan: { needed: number; ranReplicas: number; deleteVolumes: boolean },
): AccessRequest[] {
    const sts = statefulSet.ref.statefulSet;
    const requests: AccessRequest[] = [];
    if (view.replicas !== plan.needed) {
        requests.push(
            { verb: "get", group: "apps", resource: "statefulsets/scale", name: sts },
            { verb: "update", group: "apps", resource: "statefulsets/scale", name: sts },
            { verb: "watch", group: "", resource: "pods" },
        );
    }
    const claims = plan.deleteVolumes ? claimsOf(statefulSet, view, removedOrdinals(plan.needed, plan.ranReplicas)) : [];
    if (claims.length > 0) {
        requests.push({ verb: "list", group: "", resource: "persistentvolumeclaims" });
        for (const claim of claims) requests.push({ verb: "delete", group: "", resource: "persistentvolumeclaims", name: claim });
    }
    return requests;
}

/** Throws, naming each permission missing, when the API server says the user may not make one of these requests. */
export async function refuseMissingAccess(name: string, statefulSet: BrokerStatefulSet, requests: readonly AccessRequest[]): Promise<void> {
    if (requests.length === 0) return;
    const denied = await statefulSet.deniedOf(requests);
    if (denied === undefined || denied.length === 0) return;
    throw new Error(
        `${subject(name)}: kubernetes.statefulSet: the API server says the kubeconfig's user may not ${deniedText(denied)} in namespace ` +
            `${statefulSet.ref.namespace}, which this up would need once it had begun; the kubeconfig's user needs ${permissionsText(denied)} ` +
            `in the namespace (see the README's Role). Nothing was sent.`,
    );
}

/** `update resource "statefulsets/scale" (camunda-zeebe), delete resource "persistentvolumeclaims" (data-…-3, data-…-4)` */
function deniedText(denied: readonly AccessRequest[]): string {
    return groups(denied)
        .map(({ verb, resource, names }) => `${verb} resource "${resource}"${names.length > 0 ? ` (${names.join(", ")})` : ""}`)
        .join(", ");
}

/** `"update" on statefulsets/scale, "delete" on persistentvolumeclaims` */
function permissionsText(denied: readonly AccessRequest[]): string {
    return groups(denied)
        .map(({ verb, resource }) => `"${verb}" on ${resource}`)
        .join(", ");
}

function groups(requests: readonly AccessRequest[]): { verb: string; resource: string; names: string[] }[] {
    const byKey = new Map<string, { verb: string; resource: string; names: string[] }>();
    for (const request of requests) {
        const key = `${request.verb} ${request.resource}`;
        const group = byKey.get(key) ?? { verb: request.verb, resource: request.resource, names: [] };
        if (request.name !== undefined) group.names.push(request.name);
        byKey.set(key, group);
    }
    return [...byKey.values()];
}
