// The next step of an up whose brokers run in a StatefulSet, as a table: what was observed, and the step it leads to.
import * as assert from "assert";
import { type PodFact, type RolloutFacts, type RolloutStep, decideRolloutStep } from "../../provider/clusterScale/rolloutDecision";

const running = (...ordinals: number[]): PodFact[] => ordinals.map((ordinal) => ({ ordinal, started: true, deleting: false }));
const facts = (overrides: Partial<RolloutFacts>): RolloutFacts => ({
    desired: [0, 1, 2],
    members: [0, 1, 2],
    replicas: 3,
    orderedReady: false,
    firstOrdinal: 0,
    pods: running(0, 1, 2),
    layoutApplied: false,
    claimsToDelete: [],
    ...overrides,
});

const TABLE: [string, Partial<RolloutFacts>, RolloutStep][] = [
    ["nothing to do: the layout is applied and the pods match", { layoutApplied: true }, { kind: "done" }],
    ["scale-up: replicas first", { desired: [0, 1, 2, 3, 4] }, { kind: "grow", from: 3, to: 5 }],
    [
        "scale-up: new pods not started yet",
        { desired: [0, 1, 2, 3, 4], replicas: 5, pods: [...running(0, 1, 2, 3), { ordinal: 4, started: false, deleting: false }] },
        { kind: "waitForPods", ordinals: [4] },
    ],
    [
        "scale-up: a pod still going away (scaled down and up again) is not a running pod",
        { desired: [0, 1, 2, 3], replicas: 4, pods: [...running(0, 1, 2), { ordinal: 3, started: true, deleting: true }] },
        { kind: "waitForPods", ordinals: [3] },
    ],
    ["scale-up: every pod runs, so the layout change goes", { desired: [0, 1, 2, 3, 4], replicas: 5, pods: running(0, 1, 2, 3, 4) }, { kind: "applyLayout" }],
    [
        "an up resumed after Ctrl-C past the growth: straight to the change",
        { desired: [0, 1, 2, 3], replicas: 4, pods: running(0, 1, 2, 3) },
        { kind: "applyLayout" },
    ],
    [
        "scale-down: the layout change first, replicas untouched",
        { desired: [0, 1, 2], members: [0, 1, 2, 3, 4], replicas: 5, pods: running(0, 1, 2, 3, 4) },
        { kind: "applyLayout" },
    ],
    [
        "scale-down: once the change completed, replicas go down",
        { members: [0, 1, 2, 3, 4], replicas: 5, pods: running(0, 1, 2, 3, 4), layoutApplied: true },
        { kind: "shrink", from: 5, to: 3 },
    ],
    [
        "scale-down: waits until the removed pods are gone",
        { replicas: 3, pods: [...running(0, 1, 2), { ordinal: 4, started: true, deleting: true }], layoutApplied: true },
        { kind: "waitForPodsGone", ordinals: [4] },
    ],
    [
        "scale-down: then the removed brokers' claims, when asked",
        { layoutApplied: true, claimsToDelete: ["data-platform-zeebe-3", "data-platform-zeebe-4"] },
        { kind: "deleteClaims", names: ["data-platform-zeebe-3", "data-platform-zeebe-4"] },
    ],
    [
        "someone lowered replicas under running members: refused before anything",
        { desired: [0, 1, 2, 3, 4], members: [0, 1, 2, 3, 4], replicas: 3, pods: running(0, 1, 2) },
        { kind: "refuse", stopping: [3, 4] },
    ],
    [
        "OrderedReady, two brokers added: pod 4 would wait forever for broker 3, which is Ready only once a member",
        { orderedReady: true, desired: [0, 1, 2, 3, 4] },
        { kind: "refuseOrderedStart", blocked: [4], notReady: [3] },
    ],
    [
        "OrderedReady, a gap in the layout: pod 3 would start but never be Ready, so pod 4 never starts",
        { orderedReady: true, desired: [0, 1, 2, 4] },
        { kind: "refuseOrderedStart", blocked: [4], notReady: [3] },
    ],
    ["OrderedReady, one broker added: its pod starts after the Ready ones", { orderedReady: true, desired: [0, 1, 2, 3] }, { kind: "grow", from: 3, to: 4 }],
    [
        "OrderedReady, resumed with the new pod running: the change goes",
        { orderedReady: true, desired: [0, 1, 2, 3], replicas: 4, pods: running(0, 1, 2, 3) },
        { kind: "applyLayout" },
    ],
    [
        "OrderedReady, the new brokers' pods already exist: nothing waits on readiness",
        { orderedReady: true, desired: [0, 1, 2, 3, 4], replicas: 5, pods: running(0, 1, 2, 3, 4) },
        { kind: "applyLayout" },
    ],
    [
        "OrderedReady, scale-down: the change first, as with Parallel",
        { orderedReady: true, desired: [0, 1, 2], members: [0, 1, 2, 3, 4], replicas: 5, pods: running(0, 1, 2, 3, 4) },
        { kind: "applyLayout" },
    ],
    [
        "pods numbered from another ordinal than 0: refused, whatever else was observed",
        { firstOrdinal: 1, desired: [0, 1, 2, 3] },
        { kind: "refuseOrdinals", start: 1 },
    ],
    ["the cluster could not be read: no refusal from it, the pods decide", { desired: [0, 1, 2, 3], members: undefined }, { kind: "grow", from: 3, to: 4 }],
    [
        "a gap in the broker ids: every ordinal below the highest runs (a StatefulSet has no gaps)",
        { desired: [0, 1, 2, 4], replicas: 5, pods: running(0, 1, 2, 4) },
        { kind: "waitForPods", ordinals: [3] },
    ],
];

describe("ClusterScale: the next step with a StatefulSet (rolloutDecision)", () => {
    for (const [name, overrides, expected] of TABLE) {
        it(name, () => assert.deepStrictEqual(decideRolloutStep(facts(overrides)), expected));
    }
});
