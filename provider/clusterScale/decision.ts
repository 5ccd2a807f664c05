// Whether a ClusterScale diff is no change, an update or a replacement: a pure function of what diff learned from
// the inputs, the old outputs and the cluster's plan. A force removal is never an in-place update (the engine then
// shows a replacement, which the user must see); everything else that changes is an update.

export type DiffDecision = "none" | "update" | "replace";

/** What the cluster said about the layout, as far as the decision needs it. */
export type ClusterView =
    /** The dry run's plan; `removesBrokers`: the layout leaves out live brokers. */
    | { kind: "planned"; empty: boolean; removesBrokers: boolean }
    /** Another change is running; judged against the recorded layout. */
    | { kind: "busy"; removesBrokers: boolean }
    /** No answer: judged against the recorded layout (`differs` also when nothing is recorded). */
    | { kind: "unreachable"; differs: boolean; removesBrokers: boolean };

export interface DiffFacts {
    force: boolean;
    /** Settings that changed (URLs, auth, timeouts, ...). Alone, an update that sends nothing to the cluster. */
    changedSettings: readonly string[];
    /**
     * The state records a change of this resource as in progress (an up timed out): the next up finds out how it ended
     * and records it, even when the cluster already has the layout.
     */
    inFlight?: boolean;
    /** The brokers' StatefulSet still has steps besides the layout change (replicas to move, claims to delete). */
    workloadPending?: boolean;
    /** The outputs record another layout than the cluster has (a change that ended after its up was killed): up records it. */
    staleRecord?: boolean;
    /** Absent when an input that decides the layout or the route is not known yet (nothing could be asked). */
    cluster?: ClusterView;
}

export function decideDiff(facts: DiffFacts): DiffDecision {
    const changing = (removesBrokers: boolean): DiffDecision => (facts.force && removesBrokers ? "replace" : "update");
    // Something to record even when the layout is there: new settings, how a change left in flight ended, the live layout.
    const toRecord = facts.changedSettings.length > 0 || facts.inFlight === true || facts.workloadPending === true || facts.staleRecord === true;
    const view = facts.cluster;
    if (view === undefined) return facts.force ? "replace" : "update";
    switch (view.kind) {
        case "planned":
            if (view.empty) return toRecord ? "update" : "none";
            return changing(view.removesBrokers);
        case "busy":
            return changing(view.removesBrokers);
        case "unreachable":
            return view.differs || toRecord ? changing(view.removesBrokers) : "none";
    }
}

/** The decision as the engine takes it; a replacement names the broker input (`brokers` or `brokerCount`). */
export function diffResult(decision: DiffDecision, brokerField: string): { changes: boolean; replaces?: string[]; deleteBeforeReplace?: boolean } {
    switch (decision) {
        case "none":
            return { changes: false };
        case "update":
            return { changes: true };
        case "replace":
            return { changes: true, replaces: [brokerField], deleteBeforeReplace: false };
    }
}
