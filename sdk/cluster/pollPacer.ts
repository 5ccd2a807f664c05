// When to poll next while a change runs. The server stamps every completed operation (completedAt), so
// the pace of the change can be learned and each poll aimed at the predicted end of the running
// operation, instead of polling at a fixed interval. Until the change shows its own pace, the pace of
// earlier changes of the cluster stands in.
//
// - The last operation, whose end the caller waits for: the poll lands just after its predicted end.
// - An operation with others after it: the poll aims halfway into the next one. It still sees every
//   completion, one poll per operation, but an operation running up to half a duration late (a loaded
//   machine) costs no extra poll; being late here delays nothing but a progress report.
// - An operation that overruns its prediction: polled again after as long as it is late already (at
//   least a tenth of an operation), so the polls back off geometrically instead of hammering the floor.
// - No pace known at all (the first operation in a fresh process): probes at geometrically growing
//   intervals from the start of the operation, steeply (x4) while several operations remain: the probe
//   that sees the first completion may land late, but the change is still running then, so that costs
//   nothing at its end. The growth never exceeds the number of operations left (so with equal
//   operations the probe lands before the change ends), and is x2 for the last operation.
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
    /** Local time (epoch ms) the change was accepted, if known: the start of the first operation. */
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
    /** Operations not completed yet, the running one included. */
    pendingCount: number;
}

/** What the next delay is decided from (see pollDelay). */
export interface PaceInput {
    /** Local epoch ms. */
    now: number;
    minIntervalMs: number;
    maxIntervalMs: number;
    /** Local time the running operation started, if known. */
    runningSince: number | undefined;
    /** Typical duration of one operation (ms), if known. */
    durationMs: number | undefined;
    /** How far recent operations ran over the typical duration (ms, 0 when they are regular). */
    jitterMs: number;
    /** Operations left, the running one included, if known. */
    remainingOps: number | undefined;
}

/** Slack after the predicted end of the last operation: covers timer and scheduling noise, bounded to keep the lag low. */
const MIN_SLACK_MS = 3;
const MAX_SLACK_MS = 50;
/** Growth of the probing intervals while the pace is unknown. */
const MIN_GROWTH = 2;
const MAX_GROWTH = 4;
/** Durations remembered for the median and the jitter. */
const DURATION_SAMPLES = 7;

/** Milliseconds to wait before the next poll: a pure function of what the pacer knows. */
export function pollDelay(input: PaceInput): number {
    const { now, minIntervalMs, maxIntervalMs, runningSince, durationMs, jitterMs, remainingOps } = input;
    const clamp = (ms: number): number => Math.min(maxIntervalMs, Math.max(minIntervalMs, ms));
    const start = runningSince ?? now;
    const isLast = remainingOps === undefined || remainingOps <= 1;
    if (durationMs === undefined) {
        // Probe when the operation will have run `growth` times as long as it has now.
        const growth = Math.min(MAX_GROWTH, Math.max(MIN_GROWTH, remainingOps ?? MIN_GROWTH));
        return clamp((now - start) * (growth - 1));
    }
    const slack = isLast ? Math.min(MAX_SLACK_MS, Math.max(MIN_SLACK_MS, durationMs * 0.05, jitterMs)) : Math.max(MIN_SLACK_MS, durationMs / 2);
    const untilDue = start + durationMs + slack - now;
    if (untilDue >= 0) return clamp(untilDue);
    // Overdue: wait as long again as it is late already (at least a tenth of an operation).
    return clamp(Math.max(-untilDue, durationMs * 0.1));
}

export class PollPacer {
    private readonly options: PollPacerOptions;
    /** Operation durations measured between server completion stamps, most recent last. */
    private durations: number[];
    /** The first operation's duration, measured from the local acceptance time (less exact: used alone only). */
    private firstDuration: number | undefined;
    /** Bounds of the clock offset (server minus local, ms). */
    private offsetLow: number;
    private offsetHigh: number;
    private completedCount: number | undefined;
    private pendingCount: number | undefined;
    private lastCompletedAt: number | null;
    /** Local time the completed count was last seen to change: the running operation started before it. */
    private countChangedAt: number | undefined;
    private previousSentAt: number | undefined;
    /** Local time of the first poll, the start of time for a change whose progress is unknown. */
    private firstPollAt: number | undefined;

    constructor(options: PollPacerOptions) {
        this.options = options;
        this.durations = [];
        this.firstDuration = undefined;
        this.offsetLow = -Infinity;
        this.offsetHigh = Infinity;
        this.completedCount = undefined;
        this.pendingCount = undefined;
        this.lastCompletedAt = null;
        this.countChangedAt = undefined;
        this.previousSentAt = undefined;
        this.firstPollAt = undefined;
    }

    observe(poll: PollObservation): void {
        this.firstPollAt ??= poll.sentAt;
        const times = poll.completedAt;
        const count = times.length;
        const previousCount = this.completedCount;
        const firstNew = previousCount ?? 0;

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
            const duration = first - this.offset() - this.options.acceptedAt;
            if (duration >= 0) this.firstDuration = duration;
        }

        if (count !== previousCount) this.countChangedAt = poll.receivedAt;
        this.lastCompletedAt = count > 0 ? times[count - 1] : null;
        this.completedCount = count;
        this.pendingCount = poll.pendingCount;
        this.previousSentAt = poll.sentAt;
    }

    /** Records a poll that taught nothing (a transient error, a change not visible yet). */
    observeNothing(sentAt: number): void {
        this.firstPollAt ??= sentAt;
    }

    /** Milliseconds to wait from `now` (local epoch ms) before the next poll. */
    nextDelay(now: number): number {
        return pollDelay({
            now,
            minIntervalMs: this.options.minIntervalMs,
            maxIntervalMs: this.options.maxIntervalMs,
            runningSince: this.runningOperationStart(),
            durationMs: this.typicalDurationMs() ?? this.options.priorDurationMs,
            jitterMs: this.jitterMs(),
            remainingOps: this.pendingCount,
        });
    }

    /** Median duration of this change's operations seen so far (ms), if any. */
    typicalDurationMs(): number | undefined {
        return this.durations.length > 0 ? median(this.durations) : this.firstDuration;
    }

    /** Estimated server clock minus local clock (ms). */
    offset(): number {
        if (this.offsetLow > this.offsetHigh) return this.offsetLow;
        return Math.min(this.offsetHigh, Math.max(this.offsetLow, 0));
    }

    /** How far the slowest recent operation ran over the median (ms). */
    private jitterMs(): number {
        return this.durations.length < 2 ? 0 : Math.max(...this.durations) - median(this.durations);
    }

    /** Local time the running operation started: the last completion, else acceptance, else as first seen. */
    private runningOperationStart(): number | undefined {
        if (this.lastCompletedAt !== null) return this.lastCompletedAt - this.offset();
        if ((this.completedCount ?? 0) === 0 && this.options.acceptedAt !== undefined) return this.options.acceptedAt;
        return this.countChangedAt ?? this.firstPollAt;
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
