// When to poll next while a change runs. The server stamps every completed operation (completedAt), so
// the pace of the change can be learned: the next poll is scheduled just after the predicted end of
// the running operation, instead of at a fixed interval. Until the change's own pace is known, the
// pace of earlier changes of the cluster stands in. When nothing can be predicted (no completion seen
// yet, timestamps missing, an operation overdue) the delay grows geometrically from the floor.
//
// Server and client clocks may differ. Each poll bounds the offset (server minus local time): a
// completion seen in a response happened before the response arrived, and a completion not seen by
// the previous poll happened after that poll was sent. The estimate is 0 when the bounds allow it
// (same host or synchronised clocks), else the nearest bound.

export interface PollPacerOptions {
  /** Shortest delay between polls (ms). */
  minIntervalMs: number;
  /** Longest delay between polls (ms), which also caps how late a wrong prediction can make us. */
  maxIntervalMs: number;
  /** Local time (epoch ms) the change was accepted, if known: gives the pace of the first operation. */
  acceptedAt?: number;
  /** Typical operation duration learned from earlier changes of the same cluster (ms), if any. */
  priorDurationMs?: number;
}

/** One successful poll of a running change. */
export interface PollObservation {
  /** Local epoch ms when the request was sent and when the response arrived. */
  sentAt: number;
  receivedAt: number;
  /** completedAt (server epoch ms, null if unknown) of every completed operation, in order of completion. */
  completedAt: (number | null)[];
}

const DURATION_SAMPLES = 5;

// Fields are assigned in the constructor: Pulumi's closure serializer drops class field initializers.
export class PollPacer {
  private readonly options: PollPacerOptions;
  private durations: number[];
  /** Bounds of the clock offset (server minus local, ms). */
  private offsetLow: number;
  private offsetHigh: number;
  private completedCount: number | undefined;
  private lastCompletedAt: number | null;
  private previousSentAt: number | undefined;
  /** Polls in a row that saw no new completion. */
  private unproductivePolls: number;

  constructor(options: PollPacerOptions) {
    this.options = options;
    this.durations = [];
    this.offsetLow = -Infinity;
    this.offsetHigh = Infinity;
    this.completedCount = undefined;
    this.lastCompletedAt = null;
    this.previousSentAt = undefined;
    this.unproductivePolls = 0;
  }

  observe(poll: PollObservation): void {
    const times = poll.completedAt;
    const count = times.length;
    const previousCount = this.completedCount;
    const firstNew = previousCount ?? 0;
    if (previousCount !== undefined && count <= previousCount) this.unproductivePolls++;
    else this.unproductivePolls = 0;

    for (let index = firstNew; index < count; index++) {
      const completedAt = times[index];
      if (completedAt === null) continue;
      this.offsetLow = Math.max(this.offsetLow, completedAt - poll.receivedAt);
      if (this.previousSentAt !== undefined) this.offsetHigh = Math.min(this.offsetHigh, completedAt - this.previousSentAt);
    }
    for (let index = Math.max(1, firstNew); index < count; index++) {
      const [before, after] = [times[index - 1], times[index]];
      if (before !== null && after !== null) this.addDuration(after - before);
    }
    const first = times[0];
    if (previousCount === 0 && count > 0 && first !== null && this.options.acceptedAt !== undefined) {
      // We watched the first operation from the start: it began when the change was accepted.
      this.addDuration(first - this.offset() - this.options.acceptedAt);
    }

    this.lastCompletedAt = count > 0 ? times[count - 1] : null;
    this.completedCount = count;
    this.previousSentAt = poll.sentAt;
  }

  /** Records a poll that taught nothing (a transient error, a change not visible yet). */
  observeNothing(): void {
    this.unproductivePolls++;
  }

  /** Milliseconds to wait from `now` (local epoch ms) before the next poll. */
  nextDelay(now: number): number {
    const { minIntervalMs, maxIntervalMs } = this.options;
    const ramp = Math.min(maxIntervalMs, minIntervalMs * 2 ** this.unproductivePolls);
    const duration = this.typicalDurationMs() ?? this.options.priorDurationMs;
    const startedAt = this.runningOperationStart();
    if (duration === undefined || startedAt === undefined) return ramp;
    const slack = Math.min(50, Math.max(3, duration * 0.05));
    const delay = startedAt + duration + slack - now;
    // Past the prediction the operation is slower than its predecessors: fall back to the ramp.
    if (delay < minIntervalMs && this.unproductivePolls > 0) return ramp;
    return Math.min(maxIntervalMs, Math.max(minIntervalMs, delay));
  }

  /** Median duration of the operations seen so far (ms), if any. */
  typicalDurationMs(): number | undefined {
    return this.durations.length === 0 ? undefined : median(this.durations);
  }

  /** Local time the running operation started: the last completion, or the acceptance for the first one. */
  private runningOperationStart(): number | undefined {
    if (this.lastCompletedAt !== null) return this.lastCompletedAt - this.offset();
    return this.completedCount === 0 ? this.options.acceptedAt : undefined;
  }

  /** Estimated server clock minus local clock (ms). */
  offset(): number {
    if (this.offsetLow > this.offsetHigh) return this.offsetLow;
    return Math.min(this.offsetHigh, Math.max(this.offsetLow, 0));
  }

  private addDuration(duration: number): void {
    if (!Number.isFinite(duration) || duration < 0) return;
    this.durations.push(duration);
    if (this.durations.length > DURATION_SAMPLES) this.durations.shift();
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
