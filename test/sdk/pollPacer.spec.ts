// The polling pace while a change runs (pure logic: times are given, nothing sleeps). The last part
// runs whole changes on a virtual clock, with seeded noise standing for a loaded machine.

import assert from "node:assert/strict";
import { PaceInput, PollPacer, pollDelay } from "../../sdk/cluster/pollPacer";

const OPTIONS = { minIntervalMs: 15, maxIntervalMs: 2_000 };

describe("sdk poll pacer: the next delay", () => {
    const at = (input: Partial<PaceInput>): number =>
        pollDelay({ now: 10_000, runningSince: 10_000, durationMs: undefined, jitterMs: 0, remainingOps: undefined, ...OPTIONS, ...input });

    it("with no pace known, probes as the operation runs on, steeply while other operations follow it", () => {
        const probe = (ranMs: number, remainingOps: number | undefined): number => at({ runningSince: 10_000 - ranMs, remainingOps });
        assert.equal(probe(2, 20), 15, "the floor");
        assert.deepEqual(
            [20, 80, 320].map((ran) => probe(ran, 20)),
            [60, 240, 960],
            "x4 while many operations remain",
        );
        assert.equal(probe(20, 3), 40, "x3: never beyond the operations left");
        assert.equal(probe(20, 1), 20, "x2 for the last operation");
        assert.equal(probe(20, undefined), 20, "x2 when the count is not known");
        assert.equal(probe(1_000, 20), 2_000, "the ceiling");
    });

    it("the last operation: just after its predicted end, with a slack that follows the jitter up to 50 ms", () => {
        const last = { runningSince: 10_000, now: 10_010, durationMs: 100, remainingOps: 1 };
        assert.equal(at(last), 100 + 5 - 10, "5% of a regular operation");
        assert.equal(at({ ...last, jitterMs: 20 }), 100 + 20 - 10);
        assert.equal(at({ ...last, jitterMs: 400 }), 100 + 50 - 10);
        assert.equal(at({ ...last, durationMs: 20 }), 15, "the floor");
    });

    it("an operation with others after it: halfway into the next one", () => {
        assert.equal(at({ runningSince: 10_000, now: 10_010, durationMs: 100, remainingOps: 5 }), 100 + 50 - 10);
    });

    it("an overdue operation is polled again after as long as it is late already, not at the floor again and again", () => {
        const overdue = (now: number): number => at({ runningSince: 10_000, now, durationMs: 100, remainingOps: 1 });
        // Predicted end with its slack: 10_105.
        assert.equal(overdue(10_107), 15, "just late: a tenth of an operation, at least the floor");
        assert.deepEqual([10_200, 10_400, 10_800].map(overdue), [95, 295, 695]);
        assert.equal(overdue(13_000), 2_000, "the ceiling");
    });

    it("never waits longer than the ceiling, even for slow operations", () => {
        assert.equal(at({ durationMs: 30_000, remainingOps: 1 }), 2_000);
        assert.equal(at({ durationMs: 30_000, remainingOps: 9 }), 2_000);
    });
});

describe("sdk poll pacer: learning the pace", () => {
    it("learns the duration from the completion stamps and aims at the running operation", () => {
        // Same clock on both sides; operations take 100 ms; 3 of 5 completed.
        const pacer = new PollPacer(OPTIONS);
        pacer.observe({ sentAt: 1_000, receivedAt: 1_002, completedAt: [], pendingCount: 5 });
        pacer.observe({ sentAt: 1_305, receivedAt: 1_307, completedAt: [1_100, 1_200, 1_300], pendingCount: 2 });
        assert.equal(pacer.typicalDurationMs(), 100);
        assert.equal(pacer.nextDelay(1_307), 1_300 + 100 + 50 - 1_307, "halfway into the next operation");
        pacer.observe({ sentAt: 1_450, receivedAt: 1_452, completedAt: [1_100, 1_200, 1_300, 1_400], pendingCount: 1 });
        assert.equal(pacer.nextDelay(1_452), 1_400 + 100 + 5 - 1_452, "just after the end of the last one");
    });

    it("learns the first operation's duration from the time the change was accepted", () => {
        const pacer = new PollPacer({ ...OPTIONS, acceptedAt: 5_000 });
        pacer.observe({ sentAt: 5_001, receivedAt: 5_003, completedAt: [], pendingCount: 2 });
        pacer.observe({ sentAt: 5_260, receivedAt: 5_262, completedAt: [5_250], pendingCount: 1 });
        assert.equal(pacer.typicalDurationMs(), 250);
        assert.equal(pacer.nextDelay(5_262), 5_500 + 12.5 - 5_262, "just after its predicted end, the slack 5% of it");
    });

    it("uses the pace of earlier changes until the change shows its own", () => {
        const pacer = new PollPacer({ ...OPTIONS, acceptedAt: 0, priorDurationMs: 200 });
        pacer.observe({ sentAt: 0, receivedAt: 2, completedAt: [], pendingCount: 1 });
        assert.equal(pacer.nextDelay(2), 200 + 10 - 2, "just after the first operation's predicted end");
        pacer.observe({ sentAt: 212, receivedAt: 214, completedAt: [], pendingCount: 1 }); // slower than before
        assert.equal(pacer.nextDelay(214), 20, "overdue: a tenth of the duration");

        const learning = new PollPacer({ ...OPTIONS, acceptedAt: 0, priorDurationMs: 200 });
        learning.observe({ sentAt: 0, receivedAt: 2, completedAt: [], pendingCount: 3 });
        learning.observe({ sentAt: 490, receivedAt: 492, completedAt: [240, 480], pendingCount: 1 });
        assert.equal(learning.typicalDurationMs(), 240, "its own operations take 240 ms: the prior no longer counts");
        assert.equal(learning.nextDelay(492), 480 + 240 + 12 - 492);
    });

    it("widens the slack of the last operation by the jitter of the operations before it", () => {
        const pacer = new PollPacer(OPTIONS);
        pacer.observe({ sentAt: 0, receivedAt: 2, completedAt: [], pendingCount: 5 });
        pacer.observe({ sentAt: 450, receivedAt: 452, completedAt: [100, 200, 330, 430], pendingCount: 1 });
        assert.equal(pacer.typicalDurationMs(), 100);
        assert.equal(pacer.nextDelay(452), 430 + 100 + 30 - 452);
    });

    it("copes with a server clock far ahead of ours", () => {
        const skew = 60_000;
        const pacer = new PollPacer(OPTIONS);
        pacer.observe({ sentAt: 0, receivedAt: 2, completedAt: [], pendingCount: 3 });
        pacer.observe({ sentAt: 205, receivedAt: 207, completedAt: [100 + skew, 200 + skew], pendingCount: 1 });
        assert.ok(pacer.offset() > 59_700 && pacer.offset() <= skew, `offset ${pacer.offset()}`);
        const delay = pacer.nextDelay(207);
        assert.ok(delay >= 15 && delay < 200, `delay ${delay}`);
    });

    it("without completion stamps, probes from the poll that saw the last completion", () => {
        const pacer = new PollPacer(OPTIONS);
        pacer.observe({ sentAt: 0, receivedAt: 2, completedAt: [], pendingCount: 10 });
        pacer.observe({ sentAt: 205, receivedAt: 207, completedAt: [null, null], pendingCount: 8 });
        assert.equal(pacer.typicalDurationMs(), undefined);
        assert.equal(pacer.nextDelay(207), 15);
        assert.equal(pacer.nextDelay(247), 3 * 40);
    });

    it("a change not visible yet is probed from its acceptance", () => {
        const pacer = new PollPacer({ ...OPTIONS, acceptedAt: 1_000 });
        pacer.observeNothing(1_001);
        assert.equal(pacer.nextDelay(1_003), 15);
        assert.equal(pacer.nextDelay(1_100), 100);
    });
});

describe("sdk poll pacer: whole changes on a virtual clock", () => {
    /** Seeded, exponentially distributed delays (mean in ms): the server's and our timers firing late. */
    function lateness(seed: number, meanMs: number): () => number {
        let state = seed;
        return () => {
            state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
            return -Math.log(1 - state / 2 ** 31) * meanMs;
        };
    }

    /** Waits for one change whose operations take `durations`; returns the GETs and the lag after its end. */
    function waitVirtually(durations: number[], late: () => number): { gets: number; lagMs: number } {
        const ends: number[] = [];
        durations.reduce((end, duration) => (ends.push(end + duration), end + duration), 0);
        const pacer = new PollPacer({ ...OPTIONS, acceptedAt: 0 });
        const roundTripMs = 2;
        for (let gets = 1, sentAt = 1; ; gets++) {
            const completedAt = ends.filter((end) => end <= sentAt + roundTripMs / 2);
            const receivedAt = sentAt + roundTripMs;
            if (completedAt.length === ends.length) return { gets, lagMs: receivedAt - ends[ends.length - 1] };
            pacer.observe({ sentAt, receivedAt, completedAt, pendingCount: ends.length - completedAt.length });
            sentAt = receivedAt + pacer.nextDelay(receivedAt) + late();
        }
    }

    const cases: [number, number][] = [
        [5, 50],
        [5, 200],
        [5, 500],
        [20, 50],
        [20, 200],
        [60, 50],
    ];
    for (const [label, meanLatenessMs] of [
        ["an idle machine", 0.5],
        ["a loaded machine", 5],
    ] as const) {
        it(`on ${label}: at most operations + 5 GETs, and the end seen within 100 ms (median)`, () => {
            for (const [operations, opMs] of cases) {
                const lags: number[] = [];
                for (let seed = 1; seed <= 40; seed++) {
                    const late = lateness(seed * 7_919 + operations, meanLatenessMs);
                    const { gets, lagMs } = waitVirtually(
                        Array.from({ length: operations }, () => opMs + late()),
                        late,
                    );
                    assert.ok(gets <= operations + 5, `${operations} x ${opMs} ms, seed ${seed}: ${gets} GETs`);
                    lags.push(lagMs);
                }
                const medianLag = lags.sort((a, b) => a - b)[lags.length / 2];
                assert.ok(medianLag <= 100, `${operations} x ${opMs} ms: median lag ${medianLag}`);
            }
        });
    }
});
