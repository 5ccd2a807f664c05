// The next step of an up: one pure decision from what a round observed (the cluster read, the dry run when the cluster
// was idle, the brokers' StatefulSet with its pods and claims) and from what this up has done so far (the change of
// this resource that may be running, the sends without a clear answer, whether the layout is applied). reconcile.ts
// observes, asks once, acts, and observes again; resuming an interrupted up is one more round of the same.
//
// With kubernetes.statefulSet (pod ordinal = broker id): new brokers' pods run before the layout change names them;
// removed brokers' pods stop only once the change completed; then, with volumesOfRemovedBrokers "delete", the claims
// of the brokers the layout leaves out go. With podManagementPolicy OrderedReady the StatefulSet creates a pod only
// once every lower one is Ready, and a broker is Ready only once it is a member: a layout that needs a pod above a
// broker that is not a member yet never starts.

import type { ControllerReading } from "./kubernetes/gitOpsRecipes";

/** Where a running change came from. */
export type Ownership = "this run" | "an earlier run" | "elsewhere";

export interface PodFact {
    ordinal: number;
    /** The container started (a broker that is not yet a member cannot report Ready, so started is what counts). */
    started: boolean;
    deleting: boolean;
    waiting?: { reason: string; message?: string };
}

/** The brokers' StatefulSet as a round observed it. */
export interface WorkloadFacts {
    /** spec.replicas. */
    replicas: number;
    /** spec.podManagementPolicy is OrderedReady: pods are created one at a time, each once the lower ones are Ready. */
    orderedReady: boolean;
    /** spec.ordinals.start: the first pod's ordinal; pod ordinal = broker id holds only from 0. */
    firstOrdinal: number;
    pods: readonly PodFact[];
    /** Claims of brokers the layout leaves out, to delete (empty when volumes are retained, or before the layout is applied). */
    claimsToDelete: readonly string[];
    /** The GitOps controllers deploying it, and where their recipes stand (gitOpsRecipes.ts). */
    controllers?: readonly ControllerReading[];
}

/** The dry run's outcome, when the round asked for one (the cluster idle, or a force removal it cannot read). */
export type Planned = "busy" | "unreachable" | "rejected" | "empty" | "changes";

export interface ReconcileFacts {
    /** Rounds spent on the layout so far (waits for other changes, dry runs without an answer, unclear sends), this one included. */
    round: number;
    maxRounds: number;
    force: boolean;
    /** The brokers the program declares. */
    desired: readonly number[];
    /** The cluster read of this round: its members and a change pending on it, or a failed read (transient: worth planning without it). */
    read: { ok: true; members: readonly number[]; pendingChangeId?: number } | { ok: false; transient: boolean };
    /** This resource's change that may be running (an earlier run's, or one this run sent without a clear answer). */
    inFlightId?: number;
    /** The pending change has the in-flight change's id but another plan (a rebuilt cluster numbers changes anew). */
    pendingRunsAnotherPlan?: boolean;
    /** The id of the change an earlier run left in flight. */
    earlierId?: number;
    planned?: Planned;
    /** Scale requests in a row whose answer left it unclear whether the cluster took them. */
    unclearSends: number;
    maxUnclearSends: number;
    /** The layout change was applied in this up (sent and completed, or nothing to send). */
    layoutApplied: boolean;
    /** The count this up last wrote to the StatefulSet's spec.replicas, once it wrote one. */
    replicasSetByThisUp?: number;
    /** The StatefulSet, when the brokers run in one. */
    workload?: WorkloadFacts;
}

/** The steps that refuse before anything is changed because of the StatefulSet. */
export type WorkloadRefusal =
    /** Members above replicas: `down` those whose pods are gone or being deleted already (after the fact), the rest would stop. */
    | { kind: "refuseStopping"; stopping: number[]; down: number[] }
    | { kind: "refuseOrderedStart"; blocked: number[]; notReady: number[] }
    | { kind: "refuseOrdinals"; start: number }
    /** The count would move while a GitOps controller whose recipe is not known to be in place deploys the StatefulSet. */
    | { kind: "refuseController"; controllers: ControllerReading[] };

export type ReconcileStep =
    | WorkloadRefusal
    /** The read failed while a change of this resource may run: fail, keeping its id for the next up. */
    | { kind: "failKeepingInFlight" }
    /** The read failed: refuse, nothing sent. */
    | { kind: "refuseUnreadable" }
    /** The pending change has this resource's id but another plan: forget the in-flight id, then observe again. */
    | { kind: "forgetInFlight" }
    | { kind: "waitForPending"; changeId: number; ownership: Ownership }
    /** New brokers' pods first: raise replicas, then wait until they run. */
    | { kind: "grow"; from: number; to: number }
    | { kind: "waitForPods"; ordinals: number[] }
    /** Another change started between the read and the dry run: read again (refused when the cluster cannot be read). */
    | { kind: "observeAgain" }
    | { kind: "refuseBusyUnreadable" }
    /** The dry run got no answer: ask again later (a dry run changes nothing), or refuse in the last round. */
    | { kind: "planAgainLater" }
    | { kind: "refuseUnreachable" }
    | { kind: "refusePlan" }
    /** Nothing to send: record the layout (refused when the cluster cannot be read to record it). */
    | { kind: "record" }
    | { kind: "refuseNothingToRecord" }
    | { kind: "refuseUnclearSends" }
    /** Send the layout change and wait for it (`unread`: planned from its own dry run, the cluster unreadable). */
    | { kind: "send"; unread: boolean }
    /** Someone else moved spec.replicas since this up set it: stop (before the change: nothing sent; after it: kept). */
    | { kind: "stopMoved"; set: number; found: number }
    /** Removed brokers' pods once the change completed: lower replicas, wait until they are gone, delete their claims. */
    | { kind: "shrink"; from: number; to: number }
    | { kind: "waitForPodsGone"; ordinals: number[] }
    | { kind: "deleteClaims"; names: string[] }
    | { kind: "done" };

export function isWorkloadRefusal(step: ReconcileStep): step is WorkloadRefusal {
    return step.kind === "refuseStopping" || step.kind === "refuseOrdinals" || step.kind === "refuseOrderedStart" || step.kind === "refuseController";
}

/** How many pods the layout needs: one past the highest broker id. */
export function replicasFor(brokers: readonly number[]): number {
    return brokers.length === 0 ? 0 : Math.max(...brokers) + 1;
}

export function decideNext(facts: ReconcileFacts): ReconcileStep {
    const { read, workload } = facts;
    // With ordinals from N, replicas R run the pods N … N+R-1: the count this loop sets would stop the wrong brokers.
    if (workload !== undefined && workload.firstOrdinal !== 0) return { kind: "refuseOrdinals", start: workload.firstOrdinal };
    // Setting the count again would fight whoever moved it: a controller's next sync would move it back once more.
    const set = facts.replicasSetByThisUp;
    if (workload !== undefined && set !== undefined && workload.replicas !== set) return { kind: "stopMoved", set, found: workload.replicas };
    if (facts.layoutApplied) return workload === undefined ? { kind: "done" } : afterTheChange(facts.desired, workload);
    if (!read.ok) {
        if (facts.inFlightId !== undefined) return { kind: "failKeepingInFlight" };
        // Reading goes through the lowest broker, which a force removal may be removing because it is gone; the force
        // request goes to the lowest broker it keeps. So a force removal goes on from its own dry run.
        if (!(facts.force && read.transient)) return { kind: "refuseUnreadable" };
    } else {
        const refusal = workload === undefined ? undefined : workloadRefusal(facts.desired, read.members, workload);
        if (refusal !== undefined) return refusal;
        const pending = read.pendingChangeId;
        if (pending !== undefined) {
            if (facts.inFlightId === pending && facts.pendingRunsAnotherPlan) return { kind: "forgetInFlight" };
            const mine = facts.inFlightId === pending;
            const ownership: Ownership = !mine ? "elsewhere" : pending === facts.earlierId ? "an earlier run" : "this run";
            return { kind: "waitForPending", changeId: pending, ownership };
        }
    }
    if (workload !== undefined) {
        const before = beforeTheChange(facts.desired, workload);
        if (before !== undefined) return before;
    }
    switch (facts.planned) {
        case undefined:
        case "busy":
            return read.ok ? { kind: "observeAgain" } : { kind: "refuseBusyUnreadable" };
        case "unreachable":
            return facts.round >= facts.maxRounds ? { kind: "refuseUnreachable" } : { kind: "planAgainLater" };
        case "rejected":
            return { kind: "refusePlan" };
        case "empty":
            return read.ok ? { kind: "record" } : { kind: "refuseNothingToRecord" };
        case "changes":
            return facts.unclearSends >= facts.maxUnclearSends ? { kind: "refuseUnclearSends" } : { kind: "send", unread: !read.ok };
    }
}

/** Refusals before anything changes: members whose pods the StatefulSet no longer keeps, pods OrderedReady never creates. */
function workloadRefusal(desired: readonly number[], members: readonly number[], workload: WorkloadFacts): WorkloadRefusal | undefined {
    // Members whose pods the StatefulSet no longer keeps: someone lowered replicas under the running layout.
    const stopping = members.filter((id) => id >= workload.replicas).sort((a, b) => a - b);
    if (stopping.length > 0) {
        const running = new Set(workload.pods.filter((pod) => !pod.deleting).map((pod) => pod.ordinal));
        return { kind: "refuseStopping", stopping, down: stopping.filter((id) => !running.has(id)) };
    }
    // A controller that writes the chart's count back would stop the brokers above it right after ClusterScale moved it.
    const unsafe = (workload.controllers ?? []).filter((controller) => controller.recipe === "lacks" || controller.recipe === "unseen");
    if (unsafe.length > 0 && replicasFor(desired) !== workload.replicas) return { kind: "refuseController", controllers: [...unsafe] };
    if (workload.orderedReady) {
        const { blocked, notReady } = orderedStartBlocked(
            desired,
            members,
            workload.pods.map((pod) => pod.ordinal),
        );
        if (blocked.length > 0) return { kind: "refuseOrderedStart", blocked, notReady };
    }
    return undefined;
}

/** New brokers' pods before the layout change names them. */
function beforeTheChange(desired: readonly number[], workload: WorkloadFacts): ReconcileStep | undefined {
    const needed = replicasFor(desired);
    if (workload.replicas < needed) return { kind: "grow", from: workload.replicas, to: needed };
    const pods = new Map(workload.pods.map((pod) => [pod.ordinal, pod]));
    const notRunning = range(needed).filter((ordinal) => {
        const pod = pods.get(ordinal);
        return pod === undefined || pod.deleting || !pod.started;
    });
    return notRunning.length > 0 ? { kind: "waitForPods", ordinals: notRunning } : undefined;
}

/** Removed brokers' pods and claims once the change completed. */
function afterTheChange(desired: readonly number[], workload: WorkloadFacts): ReconcileStep {
    const needed = replicasFor(desired);
    if (workload.replicas > needed) return { kind: "shrink", from: workload.replicas, to: needed };
    const remaining = workload.pods
        .map((pod) => pod.ordinal)
        .filter((ordinal) => ordinal >= needed)
        .sort((a, b) => a - b);
    if (remaining.length > 0) return { kind: "waitForPodsGone", ordinals: remaining };
    if (workload.claimsToDelete.length > 0) return { kind: "deleteClaims", names: [...workload.claimsToDelete] };
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
