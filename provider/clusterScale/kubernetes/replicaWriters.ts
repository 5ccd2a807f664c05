// Who set the StatefulSet's spec.replicas below the layout, as the API server tells it: the field managers that own the
// field (managedFields), and whether the StatefulSet is another object than the one the last up followed (its uid), as
// when it was deleted and created again: a StatefulSet created anew starts at its creator's count, not the layout's.
// Nothing is guessed: what the API server does not say is not said.

import { FIELD_MANAGER, type StatefulSetView } from "../../../sdk/kubernetes/brokerStatefulSet";

/** A field manager in words: who it is when its name says so (measured in test/kubernetes/), and its name. */
export function managerText(manager: string): string {
    if (manager.startsWith("pulumi-kubernetes-")) return `Pulumi's Kubernetes provider (field manager ${manager}, server-side apply)`;
    if (manager === "pulumi-kubernetes") return `Pulumi's Kubernetes provider (field manager ${manager}, without server-side apply)`;
    if (manager === "helm") return "Helm (field manager helm)";
    if (manager.startsWith("kubectl")) return `kubectl (field manager ${manager})`;
    return `field manager ${manager}`;
}

/** Why spec.replicas is what it is, for a refusal: the StatefulSet created anew, if it was; who owns the field. */
export function lowerCountCause(statefulSet: string, view: StatefulSetView, recordedUid: string | undefined): string {
    const others = view.replicaManagers.filter((manager) => manager !== FIELD_MANAGER);
    const writers =
        others.length === 0
            ? "managedFields name no other writer of spec.replicas"
            : `managedFields name ${others.map(managerText).join(" and ")} as writer of spec.replicas`;
    if (recordedUid === undefined || view.uid === undefined || view.uid === recordedUid) return writers;
    const created = view.createdAt === undefined ? "" : ` at ${view.createdAt}`;
    return (
        `StatefulSet ${statefulSet} was deleted and created anew${created} (uid ${view.uid}; the last up followed uid ${recordedUid}), ` +
        `at the count its creator gave, not the layout's; ${writers}`
    );
}

/** Who else owns spec.replicas, for a count the layout does not match: "; spec.replicas written by …", or nothing. */
export function otherWritersNote(view: StatefulSetView): string {
    const others = view.replicaManagers.filter((manager) => manager !== FIELD_MANAGER);
    return others.length === 0 ? "" : `; spec.replicas ${view.replicas} written by ${others.map(managerText).join(" and ")} (managedFields)`;
}
