// Reads something again and again until a decision says it is done, it failed, or the time is up: the waits of the
// administration API (a cluster becoming Healthy or going away, a client's details once the cluster is ready, a deleted
// secret leaving the list). The delay grows from the first to the longest; transient failures of a read are read
// again (the thing waited for goes on whatever happens to one request); the rest end the wait.

import { isTransientError, sleep } from "../http/request";

/** Done (with the result), failed, or still waiting (and why); `soon`: read again after the first delay (a confirmation). */
export type PollDecision<R> = { done: R } | { fail: Error } | { wait: string; soon?: boolean };

export interface PollOptions<T, R> {
    read: () => Promise<T>;
    /** What the value read means: done (with the result), failed, or still waiting (and why, for the caller's lines). */
    decide: (value: T) => PollDecision<R>;
    timeoutMs: number;
    /** Delays between reads: from the first, doubling up to the longest. */
    firstDelayMs?: number;
    maxDelayMs?: number;
    /** Told when the reason for waiting changes, and at most every `reportEveryMs` while it stays the same. */
    onWaiting?: (reason: string, elapsedMs: number) => void;
    reportEveryMs?: number;
    /** The error when the time is up, from the last reason for waiting (undefined if no read succeeded). */
    timedOut: (lastReason: string | undefined, elapsedMs: number) => Error;
    /** Failures of a read, other than transient ones, that mean "wait" rather than "fail" (a 412 while not ready). */
    waitOn?: (error: unknown) => string | undefined;
    signal?: AbortSignal;
}

export async function pollUntil<T, R>(options: PollOptions<T, R>): Promise<R> {
    const started = Date.now();
    const firstDelayMs = options.firstDelayMs ?? 250;
    const maxDelayMs = options.maxDelayMs ?? 5_000;
    const reportEveryMs = options.reportEveryMs ?? 30_000;
    let delayMs = firstDelayMs;
    let lastReason: string | undefined;
    let reportedAt = 0;
    for (;;) {
        let decision: PollDecision<R>;
        try {
            decision = options.decide(await options.read());
        } catch (error) {
            const waiting = options.waitOn?.(error);
            if (waiting === undefined && !isTransientError(error)) throw error;
            decision = { wait: waiting ?? lastReason ?? "the API did not answer" };
        }
        if ("done" in decision) return decision.done;
        if ("fail" in decision) throw decision.fail;
        const reason = decision.wait;
        const elapsedMs = Date.now() - started;
        if (reason !== lastReason || elapsedMs - reportedAt >= reportEveryMs) {
            options.onWaiting?.(reason, elapsedMs);
            reportedAt = elapsedMs;
        }
        lastReason = reason;
        const left = options.timeoutMs - elapsedMs;
        if (left <= 0) throw options.timedOut(lastReason, elapsedMs);
        const soon = "soon" in decision && decision.soon === true;
        await sleep(Math.min(soon ? firstDelayMs : delayMs, left), options.signal);
        if (!soon) delayMs = Math.min(maxDelayMs, delayMs * 2);
    }
}
