// The process-wide limit on token requests. The issuer allows about one request per second per source
// address and blocks the address when exceeded, whatever client sent it, so every token client of the
// process shares one queue.

import { abortable, sleep } from "../http/request";
import { TIME_LIMITS } from "../timeLimits";

/** Minimum time between the end of one token request and the start of the next. */
export const TOKEN_REQUEST_INTERVAL_MS = TIME_LIMITS.tokenRequestIntervalMs;

interface LimiterState {
    /** Settles when the request queued last has finished. Never rejects. */
    tail: Promise<void>;
    /** When the last request ended (epoch ms). */
    lastEndedAt: number;
    /** No request before this time (epoch ms): the issuer asked us to wait (Retry-After). */
    blockedUntil: number;
}

const limiter: LimiterState = { tail: Promise.resolve(), lastEndedAt: 0, blockedUntil: 0 };

/**
 * Runs `send` once no other token request of the process is running, at least one interval after the
 * previous one ended, and after any block announced by the issuer. The interval is measured from the
 * end of the previous request, so the issuer never sees two requests closer than that, however long
 * the network took.
 */
export async function runRateLimited<T>(send: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const state = limiter;
    const previous = state.tail;
    let release!: () => void;
    state.tail = new Promise<void>((resolve) => (release = resolve));
    let started = false;
    try {
        await abortable(previous, signal);
        const waitMs = Math.max(state.lastEndedAt + TOKEN_REQUEST_INTERVAL_MS, state.blockedUntil) - Date.now();
        if (waitMs > 0) await sleep(waitMs, signal);
        started = true;
        return await send();
    } finally {
        if (started) state.lastEndedAt = Date.now();
        // Our turn ends when the previous holder's does, even if we gave up early.
        void previous.then(release);
    }
}

/** Holds every token request of the process until `until` (epoch ms). */
export function blockTokenRequestsUntil(until: number): void {
    const state = limiter;
    state.blockedUntil = Math.max(state.blockedUntil, until);
}

/** When the process's last token request ended, and until when the issuer blocked the address (epoch ms). */
export function tokenRequestPacing(): { lastEndedAt: number; blockedUntil: number } {
    return { lastEndedAt: limiter.lastEndedAt, blockedUntil: limiter.blockedUntil };
}

/** Paces the process's next token request after another process's (its last request's end, the issuer's block). */
export function paceAfter(other: { lastEndedAt: number; blockedUntil: number }): void {
    limiter.lastEndedAt = Math.max(limiter.lastEndedAt, other.lastEndedAt);
    blockTokenRequestsUntil(other.blockedUntil);
}
