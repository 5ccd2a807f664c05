// The next step of applying a layout, as a table: what the round observed, and the step it leads to.
import * as assert from "assert";
import { type LayoutFacts, type LayoutStep, decideLayoutStep } from "../../provider/clusterScale/layoutDecision";

const facts = (overrides: Partial<LayoutFacts>): LayoutFacts => ({
    round: 1,
    maxRounds: 6,
    force: false,
    read: { ok: true },
    unclearSends: 0,
    maxUnclearSends: 3,
    ...overrides,
});

const TABLE: [string, Partial<LayoutFacts>, LayoutStep][] = [
    ["a quiet cluster: plan", {}, { kind: "plan" }],
    ["the dry run plans changes: send", { planned: "changes" }, { kind: "send" }],
    ["the dry run plans nothing: record the layout", { planned: "empty" }, { kind: "record" }],
    ["the dry run is refused: refuse, nothing sent", { planned: "rejected" }, { kind: "refusePlan" }],
    ["another change started between read and dry run: read again", { planned: "busy" }, { kind: "observeAgain" }],
    ["no answer to the dry run: plan again later", { planned: "unreachable", round: 2 }, { kind: "planAgainLater" }],
    ["no answer to the dry run in the last round: refuse", { planned: "unreachable", round: 6 }, { kind: "refuseUnreachable" }],
    ["three unclear sends in a row: refuse rather than send a fourth", { planned: "changes", unclearSends: 3 }, { kind: "refuseUnclearSends" }],
    ["another client's change runs: wait for it", { read: { ok: true, pendingChangeId: 7 } }, { kind: "waitForPending", changeId: 7, ownership: "elsewhere" }],
    [
        "the change an earlier up left in flight runs: resume waiting for it",
        { read: { ok: true, pendingChangeId: 4 }, inFlightId: 4, earlierId: 4 },
        { kind: "waitForPending", changeId: 4, ownership: "an earlier run" },
    ],
    [
        "the change this run sent without a clear answer runs: wait for it as this run's",
        { read: { ok: true, pendingChangeId: 5 }, inFlightId: 5 },
        { kind: "waitForPending", changeId: 5, ownership: "this run" },
    ],
    [
        "the recorded id runs another plan (a rebuilt cluster): forget it first",
        { read: { ok: true, pendingChangeId: 4 }, inFlightId: 4, earlierId: 4, pendingRunsAnotherPlan: true },
        { kind: "forgetInFlight" },
    ],
    [
        "the read fails while a change of this resource may run: fail keeping its id",
        { read: { ok: false, transient: true }, inFlightId: 4 },
        { kind: "failKeepingInFlight" },
    ],
    ["the read fails: refuse, nothing sent", { read: { ok: false, transient: true } }, { kind: "refuseUnreadable" }],
    ["the read fails for good (not transient), even with force: refuse", { read: { ok: false, transient: false }, force: true }, { kind: "refuseUnreadable" }],
    [
        "a force removal whose read fails (the lowest broker is gone): plan from the dry run",
        { read: { ok: false, transient: true }, force: true },
        { kind: "planWithoutRead" },
    ],
    [
        "a force removal that removes nobody, with no read: refuse",
        { read: { ok: false, transient: true }, force: true, planned: "empty" },
        { kind: "refuseNothingToRecord" },
    ],
    ["busy while the cluster cannot be read: refuse", { read: { ok: false, transient: true }, force: true, planned: "busy" }, { kind: "refuseBusyUnreadable" }],
];

describe("ClusterScale: the next step of applying a layout (layoutDecision)", () => {
    for (const [name, overrides, expected] of TABLE) {
        it(name, () => assert.deepStrictEqual(decideLayoutStep(facts(overrides)), expected));
    }
});
