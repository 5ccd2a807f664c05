// ClusterScale's diff decision as a table: no change, update or replacement, from what diff learned (no engine,
// no cluster). The engine-level cases (test/provider/clusterScale*.spec.ts) show the same decisions end to end.
import * as assert from "assert";
import { type DiffDecision, type DiffFacts, decideDiff, diffResult } from "../../provider/clusterScale/decision";

const planned = (empty: boolean, removesBrokers = false) => ({ kind: "planned" as const, empty, removesBrokers });

const TABLE: { title: string; facts: DiffFacts; decision: DiffDecision }[] = [
    { title: "the cluster has the layout, nothing else changed", facts: { force: false, changedSettings: [], cluster: planned(true) }, decision: "none" },
    {
        title: "the cluster has the layout, a setting changed",
        facts: { force: false, changedSettings: ["timeoutSeconds"], cluster: planned(true) },
        decision: "update",
    },
    {
        title: "the cluster has the layout, and the state records a change of this resource as in progress (a refresh cleared its init errors)",
        facts: { force: false, changedSettings: [], inFlight: true, cluster: planned(true) },
        decision: "update",
    },
    {
        title: "unreachable, the recorded layout is the one asked for, a change in flight",
        facts: { force: false, changedSettings: [], inFlight: true, cluster: { kind: "unreachable", differs: false, removesBrokers: false } },
        decision: "update",
    },
    {
        title: "soak: a killed up whose change completed before the next up (the plan is empty, the state records the old layout)",
        facts: { force: false, changedSettings: [], staleRecord: true, cluster: planned(true) },
        decision: "update",
    },
    { title: "the plan changes something", facts: { force: false, changedSettings: [], cluster: planned(false) }, decision: "update" },
    { title: "a removal without force", facts: { force: false, changedSettings: [], cluster: planned(false, true) }, decision: "update" },
    { title: "a force removal", facts: { force: true, changedSettings: [], cluster: planned(false, true) }, decision: "replace" },
    { title: "force set, nobody removed", facts: { force: true, changedSettings: [], cluster: planned(false, false) }, decision: "update" },
    { title: "force set, the cluster has the layout", facts: { force: true, changedSettings: [], cluster: planned(true, false) }, decision: "none" },
    { title: "inputs not known yet", facts: { force: false, changedSettings: [] }, decision: "update" },
    { title: "inputs not known yet, force set", facts: { force: true, changedSettings: [] }, decision: "replace" },
    {
        title: "another change runs; the recorded layout loses no broker",
        facts: { force: false, changedSettings: [], cluster: { kind: "busy", removesBrokers: false } },
        decision: "update",
    },
    {
        title: "another change runs; a force removal of recorded brokers",
        facts: { force: true, changedSettings: [], cluster: { kind: "busy", removesBrokers: true } },
        decision: "replace",
    },
    {
        title: "unreachable, the recorded layout is the one asked for",
        facts: { force: false, changedSettings: [], cluster: { kind: "unreachable", differs: false, removesBrokers: false } },
        decision: "none",
    },
    {
        title: "unreachable, the recorded layout differs",
        facts: { force: false, changedSettings: [], cluster: { kind: "unreachable", differs: true, removesBrokers: false } },
        decision: "update",
    },
    {
        title: "unreachable, only a setting changed",
        facts: { force: false, changedSettings: ["auth"], cluster: { kind: "unreachable", differs: false, removesBrokers: false } },
        decision: "update",
    },
    {
        title: "unreachable, a force removal of recorded brokers",
        facts: { force: true, changedSettings: [], cluster: { kind: "unreachable", differs: true, removesBrokers: true } },
        decision: "replace",
    },
];

describe("ClusterScale: the diff decision", () => {
    for (const { title, facts, decision } of TABLE) {
        it(`${title}: ${decision}`, () => assert.strictEqual(decideDiff(facts), decision));
    }

    it("as the engine takes it: a replacement names the broker input and keeps create-before-delete", () => {
        assert.deepStrictEqual(diffResult("none", "brokers"), { changes: false });
        assert.deepStrictEqual(diffResult("update", "brokers"), { changes: true });
        assert.deepStrictEqual(diffResult("replace", "brokerCount"), { changes: true, replaces: ["brokerCount"], deleteBeforeReplace: false });
    });
});
