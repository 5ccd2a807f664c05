// The next step of an up whose brokers run in a StatefulSet (pod ordinal = broker id): a pure function of what was
// observed. New brokers' pods run before the layout change names them; removed brokers' pods stop only once the change
// completed; then, if asked, their claims go. Observing again after each step is what resumes an interrupted up.
// With podManagementPolicy OrderedReady the StatefulSet creates a pod only once every lower one is Ready, and a broker
// is Ready only once it is a member: a layout that needs a pod above a broker that is not a member yet never starts.

export interface PodFact {
    ordinal: number;
    /** The container started (a broker that is not yet a member cannot report Ready, so started is what counts). */
    started: boolean;
    deleting: boolean;
    waiting?: { reason: string; message?: string };
}

export interface RolloutFacts {
    /** The brokers the program declares. */
    desired: readonly number[];
    /** The cluster's members before the layout change (undefined: the cluster could not be read). */
    members: readonly number[] | undefined;
    /** The StatefulSet's spec.replicas. */
    replicas: number;
    /** spec.podManagementPolicy is OrderedReady: pods are created one at a time, each once the lower ones are Ready. */
    orderedReady: boolean;
    /** spec.ordinals.start: the first pod's ordinal; pod ordinal = broker id holds only from 0. */
    firstOrdinal: number;
    pods: readonly PodFact[];
    /** The layout change was applied (sent and completed, or nothing to send) in this up. */
    layoutApplied: boolean;
    /** The claims of removed brokers that still exist, to delete (empty when volumes are retained). */
    claimsToDelete: readonly string[];
}

/** The steps that refuse the whole up before anything is changed. */
export type RolloutRefusal =
    { kind: "refuse"; stopping: number[] } | { kind: "refuseOrderedStart"; blocked: number[]; notReady: number[] } | { kind: "refuseOrdinals"; start: number };

export type RolloutStep =
    | RolloutRefusal
    | { kind: "grow"; from: number; to: number }
    | { kind: "waitForPods"; ordinals: number[] }
    | { kind: "applyLayout" }
    | { kind: "shrink"; from: number; to: number }
    | { kind: "waitForPodsGone"; ordinals: number[] }
    | { kind: "deleteClaims"; names: string[] }
    | { kind: "done" };

export function isRefusal(step: RolloutStep): step is RolloutRefusal {
    return step.kind === "refuse" || step.kind === "refuseOrdinals" || step.kind === "refuseOrderedStart";
}

/** How many pods the layout needs: one past the highest broker id. */
export function replicasFor(brokers: readonly number[]): number {
    return brokers.length === 0 ? 0 : Math.max(...brokers) + 1;
}

export function decideRolloutStep(facts: RolloutFacts): RolloutStep {
    // With ordinals from N, replicas R run the pods N … N+R-1: the count this loop sets would stop the wrong brokers.
    if (facts.firstOrdinal !== 0) return { kind: "refuseOrdinals", start: facts.firstOrdinal };
    const needed = replicasFor(facts.desired);
    if (!facts.layoutApplied) {
        // Members whose pods the StatefulSet no longer keeps: someone lowered replicas under the running layout.
        const stopping = (facts.members ?? []).filter((id) => id >= facts.replicas).sort((a, b) => a - b);
        if (stopping.length > 0) return { kind: "refuse", stopping };
        const pods = new Map(facts.pods.map((pod) => [pod.ordinal, pod]));
        if (facts.orderedReady && facts.members !== undefined) {
            const { blocked, notReady } = orderedStartBlocked(facts.desired, facts.members, [...pods.keys()]);
            if (blocked.length > 0) return { kind: "refuseOrderedStart", blocked, notReady };
        }
        if (facts.replicas < needed) return { kind: "grow", from: facts.replicas, to: needed };
        const notRunning = range(needed).filter((ordinal) => {
            const pod = pods.get(ordinal);
            return pod === undefined || pod.deleting || !pod.started;
        });
        if (notRunning.length > 0) return { kind: "waitForPods", ordinals: notRunning };
        return { kind: "applyLayout" };
    }
    if (facts.replicas > needed) return { kind: "shrink", from: facts.replicas, to: needed };
    const remaining = facts.pods
        .map((pod) => pod.ordinal)
        .filter((ordinal) => ordinal >= needed)
        .sort((a, b) => a - b);
    if (remaining.length > 0) return { kind: "waitForPodsGone", ordinals: remaining };
    if (facts.claimsToDelete.length > 0) return { kind: "deleteClaims", names: [...facts.claimsToDelete] };
    return { kind: "done" };
}

/**
 * Under OrderedReady, the pods the layout needs that would never be created: those without a pod above an ordinal whose
 * broker is not a member yet (it cannot be Ready before the layout change that needs the higher pod too).
 */
function orderedStartBlocked(
    desired: readonly number[],
    members: readonly number[],
    existingPods: readonly number[],
): { blocked: number[]; notReady: number[] } {
    const needed = range(replicasFor(desired));
    const notReady = needed.filter((ordinal) => !members.includes(ordinal));
    const blocked = needed.filter((ordinal) => !existingPods.includes(ordinal) && notReady.some((lower) => lower < ordinal));
    return { blocked, notReady: notReady.filter((ordinal) => ordinal < Math.max(...blocked, -1)) };
}

function range(count: number): number[] {
    return Array.from({ length: count }, (_, i) => i);
}
