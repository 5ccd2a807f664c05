// The next step of applying a layout: a pure function of what this round observed (the cluster read, the change of
// this resource that may be running, the dry run's outcome once there is one) and of what earlier rounds learned
// (unclear sends). apply.ts observes, asks, acts, and observes again; resuming an interrupted up is one more round.

/** Where a running change came from. */
export type Ownership = "this run" | "an earlier run" | "elsewhere";

export interface LayoutFacts {
    round: number;
    maxRounds: number;
    force: boolean;
    /** The cluster read of this round: a change pending on it, or a failed read (transient: worth planning without it). */
    read: { ok: true; pendingChangeId?: number } | { ok: false; transient: boolean };
    /** This resource's change that may be running (an earlier run's, or one this run sent without a clear answer). */
    inFlightId?: number;
    /** The pending change has the in-flight change's id but another plan (a rebuilt cluster numbers changes anew). */
    pendingRunsAnotherPlan?: boolean;
    /** The id of the change an earlier run left in flight. */
    earlierId?: number;
    /** The dry run's outcome, once this round planned. */
    planned?: "busy" | "unreachable" | "rejected" | "empty" | "changes";
    /** Scale requests in a row whose answer left it unclear whether the cluster took them. */
    unclearSends: number;
    maxUnclearSends: number;
}

export type LayoutStep =
    /** The read failed while a change of this resource may run: fail, keeping its id for the next up. */
    | { kind: "failKeepingInFlight" }
    /** The read failed: refuse, nothing sent. */
    | { kind: "refuseUnreadable" }
    /** The read failed, but a force removal goes to the lowest broker it keeps: plan from its own dry run. */
    | { kind: "planWithoutRead" }
    /** The pending change has this resource's id but another plan: forget the in-flight id, then decide again. */
    | { kind: "forgetInFlight" }
    | { kind: "waitForPending"; changeId: number; ownership: Ownership }
    | { kind: "plan" }
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
    | { kind: "send" };

export function decideLayoutStep(facts: LayoutFacts): LayoutStep {
    const { read } = facts;
    if (facts.planned === undefined) {
        if (!read.ok) {
            if (facts.inFlightId !== undefined) return { kind: "failKeepingInFlight" };
            return facts.force && read.transient ? { kind: "planWithoutRead" } : { kind: "refuseUnreadable" };
        }
        const pending = read.pendingChangeId;
        if (pending === undefined) return { kind: "plan" };
        if (facts.inFlightId === pending && facts.pendingRunsAnotherPlan) return { kind: "forgetInFlight" };
        const mine = facts.inFlightId === pending;
        const ownership: Ownership = !mine ? "elsewhere" : pending === facts.earlierId ? "an earlier run" : "this run";
        return { kind: "waitForPending", changeId: pending, ownership };
    }
    switch (facts.planned) {
        case "busy":
            return read.ok ? { kind: "observeAgain" } : { kind: "refuseBusyUnreadable" };
        case "unreachable":
            return facts.round >= facts.maxRounds ? { kind: "refuseUnreachable" } : { kind: "planAgainLater" };
        case "rejected":
            return { kind: "refusePlan" };
        case "empty":
            return read.ok ? { kind: "record" } : { kind: "refuseNothingToRecord" };
        case "changes":
            return facts.unclearSends >= facts.maxUnclearSends ? { kind: "refuseUnclearSends" } : { kind: "send" };
    }
}
