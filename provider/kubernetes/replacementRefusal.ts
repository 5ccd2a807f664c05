// What leaveBrokerReplicasToClusterScale says when the program declares a StatefulSet Kubernetes cannot update in place:
// which field, what a replacement would do to the brokers, what the transform does about it, and the way that keeps
// them (claims expanded in place for more disk; the orphaning re-creation for the template itself).
import type { StatefulSetView } from "../../sdk/kubernetes/brokerStatefulSet";
import type { FixedFieldChange } from "./fixedFields";

export interface RefusalContext {
    statefulSet: string;
    namespace: string;
    live: StatefulSetView;
    /** The API server the live StatefulSet was read from. */
    server: string;
}

export function replacementRefused(changes: readonly FixedFieldChange[], context: RefusalContext): string {
    const { statefulSet, namespace, live, server } = context;
    const fields = changes.map(({ field, live: was, declared }) => `${field} ${was} → ${declared}`).join("; ");
    const brokers = live.replicas === 1 ? "its broker" : `all ${live.replicas} brokers`;
    const lines = [
        `StatefulSet ${statefulSet} would be replaced, and leaveBrokerReplicasToClusterScale refuses that before anything changes: ` +
            `Kubernetes cannot update ${fields} in place (live as read from ${server}, declared by the program). ` +
            `A replacement deletes the StatefulSet and creates it anew: ${brokers} would stop at once while they hold partition replicas, ` +
            `and the new one would start at the program's count, not the layout's ${live.replicas}.`,
    ];
    const storage = changes.filter((change) => change.storageOf !== undefined);
    for (const change of storage) lines.push(expandClaims(change, context));
    const others = changes.length > storage.length;
    lines.push(
        `${storage.length > 0 ? "Keep the template's size. " : ""}To change ${others ? "such a field" : "the template"} all the same, delete the StatefulSet ` +
            `keeping its pods (kubectl -n ${namespace} delete statefulset ${statefulSet} --cascade=orphan), pulumi refresh, then up with the new value ` +
            `and the program's count at the live ${live.replicas}: the new StatefulSet adopts the running pods (pulumi-platform's README, "When the StatefulSet must be replaced").`,
    );
    return lines.join("\n");
}

function expandClaims(change: FixedFieldChange, { statefulSet, namespace, live }: RefusalContext): string {
    const first = live.firstOrdinal;
    const last = first + live.replicas - 1;
    const claim = (ordinal: number | string) => `${change.storageOf}-${statefulSet}-${ordinal}`;
    const which = live.replicas <= 1 ? claim(first) : `${claim(first)} to ${claim(last)}`;
    const patch = JSON.stringify({ spec: { resources: { requests: { storage: change.declared } } } });
    return (
        `To give the brokers ${change.declared}, expand their claims in place, one at a time (the storage class must allow volume expansion), ` +
        `${which}: kubectl -n ${namespace} patch pvc ${claim("<ordinal>")} -p '${patch}'; the template only shapes the claims of brokers added later.`
    );
}
