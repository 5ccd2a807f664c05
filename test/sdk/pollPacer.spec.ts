// The polling pace while a change runs (pure logic: times are given, nothing sleeps).

import assert from "node:assert/strict";
import { PollPacer } from "../../sdk/pollPacer";

const OPTIONS = { minIntervalMs: 15, maxIntervalMs: 2_000 };

describe("sdk poll pacer", () => {
  it("without any completion seen, the delay grows from the floor to the ceiling", () => {
    const pacer = new PollPacer(OPTIONS);
    pacer.observe({ sentAt: 0, receivedAt: 2, completedAt: [] });
    const delays = [pacer.nextDelay(2)];
    for (let i = 0; i < 10; i++) {
      pacer.observe({ sentAt: 10, receivedAt: 12, completedAt: [] });
      delays.push(pacer.nextDelay(12));
    }
    assert.deepEqual(delays.slice(0, 5), [15, 30, 60, 120, 240]);
    assert.equal(delays[delays.length - 1], 2_000);
  });

  it("schedules the next poll just after the predicted end of the running operation", () => {
    // Same clock on both sides; operations take 100 ms.
    const pacer = new PollPacer(OPTIONS);
    pacer.observe({ sentAt: 1_000, receivedAt: 1_002, completedAt: [] });
    pacer.observe({ sentAt: 1_205, receivedAt: 1_207, completedAt: [1_100, 1_200] });
    const delay = pacer.nextDelay(1_207);
    // Next completion expected at 1_300: poll a few ms after it.
    assert.ok(delay >= 300 - 207 && delay <= 300 - 207 + 10, `delay ${delay}`);
  });

  it("learns the first operation's duration from the time the change was accepted", () => {
    const pacer = new PollPacer({ ...OPTIONS, acceptedAt: 5_000 });
    pacer.observe({ sentAt: 5_001, receivedAt: 5_003, completedAt: [] });
    pacer.observe({ sentAt: 5_260, receivedAt: 5_262, completedAt: [5_250] });
    const delay = pacer.nextDelay(5_262);
    assert.ok(delay >= 5_500 - 5_262 && delay <= 5_500 - 5_262 + 15, `delay ${delay}`);
  });

  it("uses the pace of earlier changes until the change shows its own", () => {
    const pacer = new PollPacer({ ...OPTIONS, acceptedAt: 0, priorDurationMs: 200 });
    pacer.observe({ sentAt: 0, receivedAt: 2, completedAt: [] });
    assert.equal(pacer.nextDelay(2), 200 + 10 - 2, "just after the first operation's predicted end");
    pacer.observe({ sentAt: 210, receivedAt: 212, completedAt: [] }); // slower than before: ramp
    assert.equal(pacer.nextDelay(212), 30);
    pacer.observe({ sentAt: 242, receivedAt: 244, completedAt: [240] });
    pacer.observe({ sentAt: 490, receivedAt: 492, completedAt: [240, 480] });
    // Its own operations take 240 ms: the prior no longer counts.
    assert.equal(pacer.typicalDurationMs(), 240);
    assert.equal(pacer.nextDelay(492), 480 + 240 + 12 - 492);
  });

  it("copes with a server clock far ahead of ours", () => {
    const skew = 60_000;
    const pacer = new PollPacer(OPTIONS);
    pacer.observe({ sentAt: 0, receivedAt: 2, completedAt: [] });
    pacer.observe({ sentAt: 205, receivedAt: 207, completedAt: [100 + skew, 200 + skew] });
    assert.ok(pacer.offset() > 59_700 && pacer.offset() <= skew, `offset ${pacer.offset()}`);
    const delay = pacer.nextDelay(207);
    assert.ok(delay >= 15 && delay < 200, `delay ${delay}`);
  });

  it("falls back to the ramp when the running operation is overdue or timestamps are unknown", () => {
    const pacer = new PollPacer(OPTIONS);
    pacer.observe({ sentAt: 0, receivedAt: 2, completedAt: [] });
    pacer.observe({ sentAt: 205, receivedAt: 207, completedAt: [100, 200] });
    pacer.observe({ sentAt: 310, receivedAt: 312, completedAt: [100, 200] }); // predicted 300, not done yet
    assert.equal(pacer.nextDelay(312), 30);
    pacer.observe({ sentAt: 345, receivedAt: 347, completedAt: [100, 200] });
    assert.equal(pacer.nextDelay(347), 60);

    const blind = new PollPacer(OPTIONS);
    blind.observe({ sentAt: 0, receivedAt: 2, completedAt: [] });
    blind.observe({ sentAt: 205, receivedAt: 207, completedAt: [null, null] });
    assert.equal(blind.nextDelay(207), 15);
  });

  it("never waits longer than the ceiling, even for slow operations", () => {
    const pacer = new PollPacer(OPTIONS);
    pacer.observe({ sentAt: 0, receivedAt: 2, completedAt: [] });
    pacer.observe({ sentAt: 60_005, receivedAt: 60_007, completedAt: [30_000, 60_000] });
    assert.equal(pacer.nextDelay(60_007), 2_000);
  });
});
