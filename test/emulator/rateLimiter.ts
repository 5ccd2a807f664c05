// The token issuer's per-address rate limit: about one request per second, failed requests
// included. A request arriving sooner than MIN_SPACING_MS after the previous counted request from
// the same address blocks that address; while blocked every request is refused (and does not
// extend the block).

/** Clients are told to space token requests by a second; 100 ms absorbs loopback jitter. */
export const MIN_SPACING_MS = 900;

interface AddressState {
    lastCountedAt: number;
    blockedUntil: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export class TokenRateLimiter {
    private readonly addresses = new Map<string, AddressState>();

    constructor(private readonly blockSeconds: () => number) {}

    admit(address: string, now: number): RateDecision {
        const blockMs = this.blockSeconds() * 1000;
        if (blockMs <= 0) return { allowed: true };
        const state = this.addresses.get(address);
        if (state && now < state.blockedUntil) {
            return { allowed: false, retryAfterSeconds: Math.ceil((state.blockedUntil - now) / 1000) };
        }
        const excess = state !== undefined && now - state.lastCountedAt < MIN_SPACING_MS;
        const blockedUntil = excess ? now + blockMs : 0;
        this.addresses.set(address, { lastCountedAt: now, blockedUntil });
        return excess ? { allowed: false, retryAfterSeconds: Math.ceil(blockMs / 1000) } : { allowed: true };
    }

    clear(): void {
        this.addresses.clear();
    }

    /** Addresses currently blocked, for the control API's state snapshot. */
    blocked(now: number): string[] {
        return [...this.addresses.entries()].filter(([, s]) => now < s.blockedUntil).map(([address]) => address);
    }
}
