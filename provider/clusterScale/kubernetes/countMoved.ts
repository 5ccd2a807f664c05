// What an up says when it looks at the StatefulSet again right before an act and finds that someone else moved
// spec.replicas since it last read it: before the layout change is sent (new brokers' pods must run), before replicas
// are lowered, and before claims of removed brokers are deleted; and in any round after this up set the count, when
// it is another. Each names the count found, the writer from managedFields (replicaWriters.ts) and what was left
// undone for the next up.
import type { BrokerStatefulSet, StatefulSetView } from "../../../sdk/kubernetes/brokerStatefulSet";
import { lowerCountCause } from "./replicaWriters";
import { podsText } from "./statefulSetSteps";

const RECIPE = "leave the count to ClusterScale (see the README's \"Who owns .spec.replicas\" for each controller's recipe)";

/** The layout change needs `needed` pods; the count read right before sending it is lower. */
export function movedBeforeSend(statefulSet: BrokerStatefulSet, view: StatefulSetView, needed: number, recordedUid: string | undefined): string {
    return (
        `StatefulSet ${statefulSet.ref.statefulSet}: spec.replicas is ${view.replicas} right before the layout change, not the ${needed} it needs ` +
        `(${podsText(statefulSet, view.replicas, needed)} stop): ${lowerCountCause(statefulSet.ref.statefulSet, view, recordedUid)}. No layout change was sent; ` +
        `${RECIPE}, then run up again`
    );
}

/** Replicas were to go down from `from` to `to`; right before the write they were `found`, written by someone else. */
export function movedBeforeLowering(
    statefulSet: BrokerStatefulSet,
    view: StatefulSetView,
    move: { from: number; to: number; found: number },
    recordedUid: string | undefined,
): string {
    const sts = statefulSet.ref.statefulSet;
    return (
        `StatefulSet ${sts}: spec.replicas is ${move.found}, not the ${move.from} this up read before lowering it to ${move.to}: ` +
        `${lowerCountCause(sts, view, recordedUid)}. Nothing was lowered (the layout change completed: the next up lowers it); ${RECIPE}`
    );
}

/** This up set spec.replicas to `set`; a later round found `found`, written by someone else. */
export function movedSinceSet(
    statefulSet: BrokerStatefulSet,
    view: StatefulSetView,
    move: { set: number; found: number; applied: boolean },
    recordedUid: string | undefined,
): string {
    const { set, found } = move;
    const pods = found < set ? `${podsText(statefulSet, found, set)} stop` : `${podsText(statefulSet, set, found)} start`;
    const left = move.applied
        ? "Nothing more was lowered and no claim deleted (the layout change completed: the next up finishes)"
        : "No layout change was sent";
    return (
        `StatefulSet ${statefulSet.ref.statefulSet}: spec.replicas is ${found}, not the ${set} this up set it to (${pods}): ` +
        `${lowerCountCause(statefulSet.ref.statefulSet, view, recordedUid)}. ${left}; ${RECIPE}${move.applied ? "" : ", then run up again"}`
    );
}

/** Claims of removed brokers were to go; right before, the count was raised above the layout's again. */
export function raisedBeforeClaims(statefulSet: BrokerStatefulSet, view: StatefulSetView, needed: number, recordedUid: string | undefined): string {
    return (
        `StatefulSet ${statefulSet.ref.statefulSet}: spec.replicas is ${view.replicas} again, above the layout's ${needed}, right before the claims of removed ` +
        `brokers were to be deleted (${podsText(statefulSet, needed, view.replicas)} start on them): ${lowerCountCause(statefulSet.ref.statefulSet, view, recordedUid)}. ` +
        `No claim was deleted (the layout change completed: the next up lowers the count and deletes them); ${RECIPE}`
    );
}
