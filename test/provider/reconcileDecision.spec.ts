// The next step of an up, as a table: what a round observed (and what the up did so far), and the step it leads to.
// Rows named "soak" are interleavings the seeded soak found (npm run soak).
import * as assert from "assert";
import { type PodFact, type ReconcileFacts, type ReconcileStep, type WorkloadFacts, decideNext } from "../../provider/clusterScale/reconcileDecision";

const running = (...ordinals: number[]): PodFact[] => ordinals.map((ordinal) => ({ ordinal, started: true, deleting: false }));
const workload = (overrides: Partial<WorkloadFacts> = {}): WorkloadFacts => ({
    replicas: 3,
    orderedReady: false,
    firstOrdinal: 0,
    pods: running(0, 1, 2),
    claimsToDelete: [],
    ...overrides,
});
const facts = (overrides: Partial<ReconcileFacts>): ReconcileFacts => ({
    round: 1,
    maxRounds: 6,
    force: false,
    desired: [0, 1, 2],
    read: { ok: true, members: [0, 1, 2] },
    planned: "changes",
    unclearSends: 0,
    maxUnclearSends: 3,
    layoutApplied: false,
    ...overrides,
});
const unreadable = { ok: false as const, transient: true };

const LAYOUT: [string, Partial<ReconcileFacts>, ReconcileStep][] = [
    ["the dry run plans changes: send", {}, { kind: "send", unread: false }],
    ["the dry run plans nothing: record the layout", { planned: "empty" }, { kind: "record" }],
    ["the dry run is refused: refuse, nothing sent", { planned: "rejected" }, { kind: "refusePlan" }],
    ["another change started between read and dry run: read again", { planned: "busy" }, { kind: "observeAgain" }],
    ["no answer to the dry run: plan again later", { planned: "unreachable", round: 2 }, { kind: "planAgainLater" }],
    ["no answer to the dry run in the last round: refuse", { planned: "unreachable", round: 6 }, { kind: "refuseUnreachable" }],
    ["three unclear sends in a row: refuse rather than send a fourth", { unclearSends: 3 }, { kind: "refuseUnclearSends" }],
    ["the layout is applied, no StatefulSet: done", { layoutApplied: true, planned: undefined }, { kind: "done" }],
    [
        "another client's change runs: wait for it",
        { read: { ok: true, members: [0, 1, 2], pendingChangeId: 7 }, planned: undefined },
        { kind: "waitForPending", changeId: 7, ownership: "elsewhere" },
    ],
    [
        "the change an earlier up left in flight runs: resume waiting for it",
        { read: { ok: true, members: [0, 1, 2], pendingChangeId: 4 }, inFlightId: 4, earlierId: 4, planned: undefined },
        { kind: "waitForPending", changeId: 4, ownership: "an earlier run" },
    ],
    [
        "the change this run sent without a clear answer runs: wait for it as this run's",
        { read: { ok: true, members: [0, 1, 2], pendingChangeId: 5 }, inFlightId: 5, planned: undefined },
        { kind: "waitForPending", changeId: 5, ownership: "this run" },
    ],
    [
        "the recorded id runs another plan (a rebuilt cluster): forget it first",
        { read: { ok: true, members: [0, 1, 2], pendingChangeId: 4 }, inFlightId: 4, earlierId: 4, pendingRunsAnotherPlan: true, planned: undefined },
        { kind: "forgetInFlight" },
    ],
    [
        "the read fails while a change of this resource may run: fail keeping its id",
        { read: unreadable, inFlightId: 4, planned: undefined },
        { kind: "failKeepingInFlight" },
    ],
    ["the read fails: refuse, nothing sent", { read: unreadable, planned: undefined }, { kind: "refuseUnreadable" }],
    [
        "the read fails for good (not transient), even with force: refuse",
        { read: { ok: false, transient: false }, force: true, planned: undefined },
        { kind: "refuseUnreadable" },
    ],
    [
        "a force removal whose read fails (the lowest broker is gone): sent as its own dry run planned it",
        { read: unreadable, force: true },
        { kind: "send", unread: true },
    ],
    ["a force removal that removes nobody, with no read: refuse", { read: unreadable, force: true, planned: "empty" }, { kind: "refuseNothingToRecord" }],
    ["busy while the cluster cannot be read: refuse", { read: unreadable, force: true, planned: "busy" }, { kind: "refuseBusyUnreadable" }],
];

const STATEFUL_SET: [string, Partial<ReconcileFacts>, ReconcileStep][] = [
    ["nothing to do: the layout is applied and the pods match", { layoutApplied: true, workload: workload() }, { kind: "done" }],
    ["scale-up: replicas first", { desired: [0, 1, 2, 3, 4], workload: workload() }, { kind: "grow", from: 3, to: 5 }],
    [
        "scale-up: new pods not started yet",
        { desired: [0, 1, 2, 3, 4], workload: workload({ replicas: 5, pods: [...running(0, 1, 2, 3), { ordinal: 4, started: false, deleting: false }] }) },
        { kind: "waitForPods", ordinals: [4] },
    ],
    [
        "scale-up: a pod still going away (scaled down and up again) is not a running pod",
        { desired: [0, 1, 2, 3], workload: workload({ replicas: 4, pods: [...running(0, 1, 2), { ordinal: 3, started: true, deleting: true }] }) },
        { kind: "waitForPods", ordinals: [3] },
    ],
    [
        "scale-up: every pod runs, so the layout change goes",
        { desired: [0, 1, 2, 3, 4], workload: workload({ replicas: 5, pods: running(0, 1, 2, 3, 4) }) },
        { kind: "send", unread: false },
    ],
    [
        "scale-down: the layout change first, replicas untouched",
        { read: { ok: true, members: [0, 1, 2, 3, 4] }, workload: workload({ replicas: 5, pods: running(0, 1, 2, 3, 4) }) },
        { kind: "send", unread: false },
    ],
    [
        "scale-down: once the change completed, replicas go down",
        { layoutApplied: true, workload: workload({ replicas: 5, pods: running(0, 1, 2, 3, 4) }) },
        { kind: "shrink", from: 5, to: 3 },
    ],
    [
        "scale-up: the count set back by someone else after this up raised it: stop, nothing sent",
        { desired: [0, 1, 2, 3, 4], replicasSetByThisUp: 5, workload: workload({ replicas: 3 }) },
        { kind: "stopMoved", set: 5, found: 3 },
    ],
    [
        "scale-down: the count raised by someone else after this up lowered it: stop rather than lower it again",
        { layoutApplied: true, replicasSetByThisUp: 3, workload: workload({ replicas: 5, pods: running(0, 1, 2) }) },
        { kind: "stopMoved", set: 3, found: 5 },
    ],
    [
        "scale-down: the count as this up set it: the steps go on",
        { layoutApplied: true, replicasSetByThisUp: 3, workload: workload({ pods: [...running(0, 1, 2), { ordinal: 4, started: true, deleting: true }] }) },
        { kind: "waitForPodsGone", ordinals: [4] },
    ],
    [
        "scale-down: waits until the removed pods are gone",
        { layoutApplied: true, workload: workload({ pods: [...running(0, 1, 2), { ordinal: 4, started: true, deleting: true }] }) },
        { kind: "waitForPodsGone", ordinals: [4] },
    ],
    [
        "scale-down: then the claims of the brokers the layout leaves out, when asked",
        { layoutApplied: true, workload: workload({ claimsToDelete: ["data-platform-zeebe-3", "data-platform-zeebe-4"] }) },
        { kind: "deleteClaims", names: ["data-platform-zeebe-3", "data-platform-zeebe-4"] },
    ],
    [
        "soak: killed between the change and the claims, refreshed, resumed: the claims beyond the layout still go",
        {
            desired: [0],
            layoutApplied: true,
            workload: workload({ replicas: 1, pods: running(0), claimsToDelete: ["data-platform-zeebe-1", "data-platform-zeebe-2", "data-platform-zeebe-3"] }),
        },
        { kind: "deleteClaims", names: ["data-platform-zeebe-1", "data-platform-zeebe-2", "data-platform-zeebe-3"] },
    ],
    [
        "someone lowered replicas under running members: refused before anything",
        { desired: [0, 1, 2, 3, 4], read: { ok: true, members: [0, 1, 2, 3, 4] }, workload: workload() },
        { kind: "refuseStopping", stopping: [3, 4], down: [3, 4] },
    ],
    [
        "replicas lowered a moment ago: pod 4 still runs, pod 3 is being deleted",
        {
            desired: [0, 1, 2, 3, 4],
            read: { ok: true, members: [0, 1, 2, 3, 4] },
            workload: workload({ pods: [...running(0, 1, 2, 4), { ordinal: 3, started: true, deleting: true }] }),
        },
        { kind: "refuseStopping", stopping: [3, 4], down: [3] },
    ],
    [
        "OrderedReady, two brokers added: pod 4 would wait forever for broker 3, which is Ready only once a member",
        { desired: [0, 1, 2, 3, 4], workload: workload({ orderedReady: true }) },
        { kind: "refuseOrderedStart", blocked: [4], notReady: [3] },
    ],
    [
        "OrderedReady, a gap in the layout: pod 3 would start but never be Ready, so pod 4 never starts",
        { desired: [0, 1, 2, 4], workload: workload({ orderedReady: true }) },
        { kind: "refuseOrderedStart", blocked: [4], notReady: [3] },
    ],
    [
        "OrderedReady, one broker added: its pod starts after the Ready ones",
        { desired: [0, 1, 2, 3], workload: workload({ orderedReady: true }) },
        { kind: "grow", from: 3, to: 4 },
    ],
    [
        "OrderedReady, resumed with the new pod running: the change goes",
        { desired: [0, 1, 2, 3], workload: workload({ orderedReady: true, replicas: 4, pods: running(0, 1, 2, 3) }) },
        { kind: "send", unread: false },
    ],
    [
        "OrderedReady, the new brokers' pods already exist: nothing waits on readiness",
        { desired: [0, 1, 2, 3, 4], workload: workload({ orderedReady: true, replicas: 5, pods: running(0, 1, 2, 3, 4) }) },
        { kind: "send", unread: false },
    ],
    [
        "pods numbered from another ordinal than 0: refused, whatever else was observed",
        { desired: [0, 1, 2, 3], layoutApplied: true, workload: workload({ firstOrdinal: 1 }) },
        { kind: "refuseOrdinals", start: 1 },
    ],
    [
        "the cluster cannot be read: refused before the StatefulSet is touched",
        { desired: [0, 1, 2, 3], read: unreadable, planned: undefined, workload: workload() },
        { kind: "refuseUnreadable" },
    ],
    [
        "a change of another client runs: waited for before the StatefulSet grows",
        { desired: [0, 1, 2, 3], read: { ok: true, members: [0, 1, 2], pendingChangeId: 9 }, planned: undefined, workload: workload() },
        { kind: "waitForPending", changeId: 9, ownership: "elsewhere" },
    ],
    [
        "a gap in the broker ids: every ordinal below the highest runs (a StatefulSet has no gaps)",
        { desired: [0, 1, 2, 4], workload: workload({ replicas: 5, pods: running(0, 1, 2, 4) }) },
        { kind: "waitForPods", ordinals: [3] },
    ],
];

describe("ClusterScale: the next step of an up (reconcileDecision)", () => {
    for (const [name, overrides, expected] of [...LAYOUT, ...STATEFUL_SET]) {
        it(name, () => assert.deepStrictEqual(decideNext(facts(overrides)), expected));
    }
});
