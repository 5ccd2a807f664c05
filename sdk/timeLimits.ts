// Every time limit the SDK applies when the caller gives none, in one place.
export const TIME_LIMITS = {
    /** One attempt of a request to the management API, the gateway or the administration API. */
    requestMs: 30_000,
    /** One attempt of a token request. */
    tokenRequestMs: 15_000,
    /** Waiting for a change to complete. */
    changeMs: 10 * 60_000,
    /** One poll while waiting for a change (never past the wait's own limit). */
    pollRequestMs: 10_000,
    /** The gateway's confirmation of a completed change: best effort, within this bound. */
    gatewayConfirmMs: 5_000,
    /** Between the end of one token request of the process and the start of the next (the issuer's rate limit). */
    tokenRequestIntervalMs: 1_000,
} as const;
