// OAuth 2.0 client-credentials tokens for the administration API (and, where deployments require it,
// the management and gateway APIs).
//
// One token per (issuer URL, client id, audience) for the whole process: a memory cache shared by every
// client object, single-flight (concurrent callers share one request), backed by a disk
// cache for later processes. Token requests go through the process-wide rate limiter. Credentials the
// issuer rejected (400/401/403) are remembered, so the process never sends them again: a client with
// bad credentials must not use up the address's shared rate limit.
//
// A secret that changes (a rotation, or a wrong new secret). Every token is filed under a fingerprint of the
// credentials that obtained it, secret included, so a caller with another secret never gets it: it asks the
// issuer, and a wrong secret fails at once. In memory the fingerprint is an HMAC keyed with random bytes that
// exist only in this process. On disk it is scrypt of the credentials (slow to test guesses against); the
// files hold that fingerprint, the token and its times, never the secret. A caller that must prove its
// secret against the issuer itself (after a rotation, say) passes `verifySecret`: its token then comes from
// the issuer, or from memory when this secret already got one from the issuer in this process.

import { createHash, createHmac, randomBytes, scrypt } from "crypto";
import { AuthError, PlatformError, RateLimitedError } from "../errors";
import { HttpResponse, abortable, decodeJsonBody, errorFromResponse, exponentialDelay, isTransientError, parseRetryAfter, send } from "../http/request";
import { type IssuerLockOptions, withIssuerLock } from "./issuerLock";
import { blockTokenRequestsUntil, paceAfter, runRateLimited, tokenRequestPacing } from "./rateLimiter";
import { decoder, tokenResponseSchema } from "../schemas";
import { CachedToken, defaultTokenCacheDir, deleteCachedToken, diskCacheEnabledByEnv, readCachedToken, writeCachedToken } from "./tokenDiskCache";
import type { ConnectionSettings } from "../http/transport";
import { TIME_LIMITS } from "../timeLimits";

/** A token and when it expires. */
export interface TokenInfo {
    token: string;
    /** The expiry the client goes by: expires_in from the issuer's answer, or the JWT's exp if that is sooner. */
    expiresAt: Date;
}

export interface GetTokenOptions {
    signal?: AbortSignal;
    /**
     * Prove the secret: accept only a token the issuer gave for this very secret in this process, never one
     * from the disk cache (which cannot tell which secret obtained it). Costs one token request per secret
     * and process at most.
     */
    verifySecret?: boolean;
}

/** Anything that can give a bearer token: a TokenClient, or a caller's own implementation. */
export interface TokenProvider {
    getToken(options?: { signal?: AbortSignal }): Promise<string>;
    /** Forgets a token the API refused (401), so the next getToken fetches a new one. */
    invalidate?(token: string): Promise<void> | void;
}

export interface TokenClientOptions {
    /** Else PLATFORM_CONSOLE_CLIENT_ID. */
    clientId?: string;
    /** Else PLATFORM_CONSOLE_CLIENT_SECRET. */
    clientSecret?: string;
    /** The issuer's token endpoint. Else PLATFORM_OAUTH_URL. */
    authUrl?: string;
    /** Else PLATFORM_CONSOLE_OAUTH_AUDIENCE, else the host name of adminBaseUrl. */
    audience?: string;
    /** Base URL of the administration API; only used for the default audience. */
    adminBaseUrl?: string;
    /** Disk cache on (default) or off. PLATFORM_TOKEN_DISK_CACHE=off turns it off too. */
    diskCache?: boolean;
    /** Directory of the disk cache. Else PLATFORM_TOKEN_CACHE_DIR, else ~/.pulumi-platform/tokens. */
    cacheDir?: string;
    /** Time limit of one token request (default 15 s). */
    timeoutMs?: number;
    /** Token requests in all for one token, retries of 429 and transient failures included (default 4). */
    maxAttempts?: number;
    /** The longest the client waits in total for the issuer's rate-limit blocks (default 60 s). */
    maxRateLimitWaitMs?: number;
    /** Environment to read (default process.env). */
    env?: Record<string, string | undefined>;
    /** Proxies and TLS for the token endpoint (default: from the environment only). */
    connection?: ConnectionSettings;
}

/** Renewal margin: 30 s, or 20 % of the lifetime for short-lived tokens. */
export function renewalMarginMs(lifetimeMs: number): number {
    return Math.min(30_000, lifetimeMs * 0.2);
}

/** The `exp` claim (epoch seconds) of a JWT, or undefined for tokens that are not JWTs. */
export function jwtExpiry(token: string): number | undefined {
    const parts = token.split(".");
    if (parts.length !== 3) return undefined;
    try {
        const payload: unknown = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8"));
        const exp = typeof payload === "object" && payload !== null ? (payload as { exp?: unknown }).exp : undefined;
        return typeof exp === "number" && Number.isFinite(exp) ? exp : undefined;
    } catch {
        return undefined;
    }
}

/** Forgets every token and remembered credential failure of this process (the disk cache stays). */
export function clearTokenCache(): void {
    shared.tokens.clear();
    shared.failures.clear();
}

export class TokenClient implements TokenProvider {
    readonly clientId: string;
    readonly authUrl: string;
    readonly audience: string;
    /** The disk cache directory, or undefined when the disk cache is off. */
    readonly cacheDir: string | undefined;
    // Non-enumerable (set in the constructor), so that inspecting or spreading the client never shows it.
    declare private readonly clientSecret: string;
    private readonly timeoutMs: number;
    private readonly maxAttempts: number;
    private readonly maxRateLimitWaitMs: number;
    private readonly cacheKey: string;
    private readonly connection: ConnectionSettings | undefined;

    constructor(options: TokenClientOptions = {}) {
        const env = options.env ?? process.env;
        this.clientId = required(options.clientId ?? env.PLATFORM_CONSOLE_CLIENT_ID, "client id", "clientId", "PLATFORM_CONSOLE_CLIENT_ID");
        // The secret is used exactly as given (not trimmed).
        const clientSecret = options.clientSecret ?? env.PLATFORM_CONSOLE_CLIENT_SECRET ?? "";
        if (clientSecret === "") {
            throw new AuthError("No client secret configured: pass clientSecret or set PLATFORM_CONSOLE_CLIENT_SECRET");
        }
        Object.defineProperty(this, "clientSecret", { value: clientSecret, enumerable: false });
        this.authUrl = validHttpUrl(required(options.authUrl ?? env.PLATFORM_OAUTH_URL, "token endpoint", "authUrl", "PLATFORM_OAUTH_URL"));
        this.audience = required(
            options.audience ?? env.PLATFORM_CONSOLE_OAUTH_AUDIENCE ?? hostNameOf(options.adminBaseUrl),
            "audience",
            "audience (or adminBaseUrl)",
            "PLATFORM_CONSOLE_OAUTH_AUDIENCE",
        );
        const diskCache = options.diskCache ?? diskCacheEnabledByEnv(env);
        this.cacheDir = diskCache ? (options.cacheDir ?? defaultTokenCacheDir(env)) : undefined;
        this.timeoutMs = options.timeoutMs ?? TIME_LIMITS.tokenRequestMs;
        this.maxAttempts = Math.max(1, options.maxAttempts ?? 4);
        this.maxRateLimitWaitMs = options.maxRateLimitWaitMs ?? 60_000;
        this.cacheKey = sha256([this.authUrl, this.clientId, this.audience]);
        this.connection = options.connection;
    }

    /** A valid access token: from memory, else from disk, else from the issuer (one request for all concurrent callers). */
    async getToken(options: GetTokenOptions = {}): Promise<string> {
        return (await this.getTokenInfo(options)).token;
    }

    /** A valid access token and its expiry, from the same caches as getToken. */
    async getTokenInfo(options: GetTokenOptions = {}): Promise<TokenInfo> {
        const fingerprint = this.secretFingerprint();
        const failure = shared.failures.get(fingerprint);
        if (failure) throw failure;
        const verify = options.verifySecret === true;
        const cached = tokensOf(shared, this.cacheKey).get(fingerprint);
        if (cached && Date.now() < cached.renewAt && !(verify && cached.fromDisk)) {
            this.logSource("memory");
            return infoOf(cached);
        }

        const flightKey = `${fingerprint}/${verify ? "verified" : "any"}`;
        let flight = shared.inflight.get(flightKey);
        if (!flight) {
            flight = this.obtain(fingerprint, verify).finally(() => shared.inflight.delete(flightKey));
            shared.inflight.set(flightKey, flight);
        }
        const outcome = await abortable(flight, options.signal);
        if (outcome.ok) return infoOf(outcome.token);
        throw outcome.error;
    }

    async invalidate(token: string): Promise<void> {
        const tokens = tokensOf(shared, this.cacheKey);
        for (const [fingerprint, cached] of tokens) if (cached.accessToken === token) tokens.delete(fingerprint);
        if (this.cacheDir !== undefined) await deleteCachedToken(this.cacheDir, await this.diskKey(), token);
    }

    /** What the client is, without its secret (for logs and JSON.stringify). */
    toJSON(): { clientId: string; authUrl: string; audience: string } {
        return { clientId: this.clientId, authUrl: this.authUrl, audience: this.audience };
    }

    private async obtain(fingerprint: string, verify: boolean): Promise<TokenOutcome> {
        try {
            const cacheDir = this.cacheDir;
            if (cacheDir === undefined) return { ok: true, token: await this.requestToken(fingerprint) };
            const fromDisk = verify ? undefined : await this.fromDisk(cacheDir, fingerprint);
            if (fromDisk) return { ok: true, token: fromDisk };
            // Processes sharing the cache ask the issuer one at a time: one that waited may find the token written.
            const token = await withIssuerLock(cacheDir, sha256([this.authUrl]), this.issuerLockOptions(), async () => {
                const written = verify ? undefined : await this.fromDisk(cacheDir, fingerprint);
                return written ?? (await this.requestToken(fingerprint));
            });
            return { ok: true, token };
        } catch (error) {
            return { ok: false, error: asPlatformError(error) };
        }
    }

    /** A usable token of these credentials in the disk cache, kept in memory too. */
    private async fromDisk(cacheDir: string, fingerprint: string): Promise<CachedToken | undefined> {
        const cached = await readCachedToken(cacheDir, await this.diskKey());
        if (!cached || Date.now() >= cached.renewAt) return undefined;
        this.logSource("the disk cache");
        tokensOf(shared, this.cacheKey).set(fingerprint, { ...cached, fromDisk: true });
        return cached;
    }

    private issuerLockOptions(): IssuerLockOptions {
        return {
            // The longest a holder's request may take: every attempt's time limit, the issuer's blocks, and some slack.
            staleAfterMs: this.timeoutMs * this.maxAttempts + this.maxRateLimitWaitMs + 5_000,
            onAcquired: paceAfter,
            pacing: tokenRequestPacing,
        };
    }

    private async requestToken(fingerprint: string): Promise<CachedToken> {
        let rateLimitWaitedMs = 0;
        for (let attempt = 1; ; attempt++) {
            const last = attempt >= this.maxAttempts;
            let startedAt = Date.now();
            let res: HttpResponse;
            try {
                res = await runRateLimited(() => {
                    startedAt = Date.now();
                    return send({
                        method: "POST",
                        url: this.authUrl,
                        form: {
                            grant_type: "client_credentials",
                            audience: this.audience,
                            client_id: this.clientId,
                            client_secret: this.clientSecret,
                        },
                        timeoutMs: this.timeoutMs,
                        redact: [this.clientSecret],
                        connection: this.connection,
                    });
                });
            } catch (error) {
                if (!last && isTransientError(error)) continue;
                throw error;
            }

            if (res.status >= 200 && res.status <= 299) return this.remember(res, startedAt, fingerprint);

            const redactions = [this.clientSecret];
            if (res.status === 400 || res.status === 401 || res.status === 403) {
                const rejected = errorFromResponse(res, redactions);
                const error = new AuthError(
                    `The token issuer ${this.issuerForMessages()} rejected the credentials of client '${this.clientId}' ` +
                        `for audience '${this.audience}'; they will not be tried again in this process`,
                    { request: rejected.request, status: rejected.status, serverMessage: rejected.serverMessage },
                );
                shared.failures.set(fingerprint, error);
                throw error;
            }
            if (res.status === 429) {
                const waitMs = parseRetryAfter(res.headers["retry-after"]) ?? exponentialDelay(attempt, 1_000, this.maxRateLimitWaitMs);
                if (last || rateLimitWaitedMs + waitMs > this.maxRateLimitWaitMs) {
                    const limited = errorFromResponse(res, redactions);
                    throw new RateLimitedError(`The token issuer ${this.issuerForMessages()} is rate limiting this address; try again later`, {
                        request: limited.request,
                        status: 429,
                        serverMessage: limited.serverMessage,
                        retryAfterMs: waitMs,
                    });
                }
                rateLimitWaitedMs += waitMs;
                // A little more than asked: Retry-After is whole seconds and the block started before the answer left.
                blockTokenRequestsUntil(Date.now() + waitMs + 100);
                continue;
            }
            if (!last && res.status >= 500) continue;
            throw errorFromResponse(res, redactions);
        }
    }

    private async remember(res: HttpResponse, requestedAt: number, fingerprint: string): Promise<CachedToken> {
        const body = decodeJsonBody(res, decoder("token response", tokenResponseSchema));
        let lifetimeMs = body.expires_in * 1_000;
        const exp = jwtExpiry(body.access_token);
        // Trust the JWT's exp only when it is plausible from our clock (clocks of issuer and client may differ).
        if (exp !== undefined && exp * 1_000 > requestedAt) lifetimeMs = Math.min(lifetimeMs, exp * 1_000 - requestedAt);
        const token: CachedToken = {
            accessToken: body.access_token,
            expiresAt: requestedAt + lifetimeMs,
            renewAt: requestedAt + lifetimeMs - renewalMarginMs(lifetimeMs),
        };
        tokensOf(shared, this.cacheKey).set(fingerprint, { ...token, fromDisk: false });
        this.logSource("the issuer");
        if (this.cacheDir !== undefined) await writeCachedToken(this.cacheDir, await this.diskKey(), token);
        return token;
    }

    /**
     * These exact credentials, secret included: the key of their tokens in memory and of their remembered
     * failure. Computed when needed, never stored on the object; its key never leaves this process's memory.
     */
    private secretFingerprint(): string {
        return createHmac("sha256", shared.fingerprintKey)
            .update(JSON.stringify([this.authUrl, this.clientId, this.audience, this.clientSecret]))
            .digest("hex");
    }

    /**
     * The disk cache's key of these exact credentials: scrypt of them, salted with the client's cache key, so a
     * file never holds the secret and a guess costs a slow derivation. Derived once per secret and process.
     */
    private async diskKey(): Promise<string> {
        const fingerprint = this.secretFingerprint();
        let key = shared.diskKeys.get(fingerprint);
        if (key === undefined) {
            key = derivedKey(JSON.stringify([this.authUrl, this.clientId, this.audience, this.clientSecret]), this.cacheKey);
            shared.diskKeys.set(fingerprint, key);
        }
        return key;
    }

    private logSource(source: string): void {
        this.connection?.log?.(`token of client '${this.clientId}' for audience '${this.audience}' from ${source}`);
    }

    private issuerForMessages(): string {
        const url = new URL(this.authUrl);
        return url.origin + url.pathname;
    }
}

// ---------------------------------------------------------------------------------------------------
// Process-wide state: every token client of the process shares it

type TokenOutcome = { ok: true; token: CachedToken } | { ok: false; error: PlatformError };

interface MemoryToken extends CachedToken {
    /** Read from the disk cache: not proven against the issuer in this process (see verifySecret). */
    fromDisk: boolean;
}

interface SharedTokenState {
    /** By cache key (issuer, client id, audience), then by secret fingerprint. */
    tokens: Map<string, Map<string, MemoryToken>>;
    /** By secret fingerprint and whether the flight verifies the secret. */
    inflight: Map<string, Promise<TokenOutcome>>;
    /** By secret fingerprint. */
    failures: Map<string, PlatformError>;
    /** Key of the secret fingerprints: random, in this process's memory only. */
    fingerprintKey: Buffer;
    /** Disk cache keys, by secret fingerprint (each derived once). */
    diskKeys: Map<string, Promise<string>>;
}

const shared: SharedTokenState = { tokens: new Map(), inflight: new Map(), failures: new Map(), fingerprintKey: randomBytes(32), diskKeys: new Map() };

function tokensOf(state: SharedTokenState, cacheKey: string): Map<string, MemoryToken> {
    let tokens = state.tokens.get(cacheKey);
    if (!tokens) {
        tokens = new Map();
        state.tokens.set(cacheKey, tokens);
    }
    return tokens;
}

function infoOf(token: CachedToken): TokenInfo {
    return { token: token.accessToken, expiresAt: new Date(token.expiresAt) };
}

/** A token request's failure as every waiting caller gets it: the typed error, or any other wrapped as an AuthError. */
function asPlatformError(error: unknown): PlatformError {
    if (error instanceof PlatformError) return error;
    const message = error instanceof Error ? error.message : String(error);
    return new AuthError(`Token request failed: ${message}`);
}

// ---------------------------------------------------------------------------------------------------

/** scrypt with its default cost (16 MiB, some tens of milliseconds), as hex. */
function derivedKey(secretText: string, salt: string): Promise<string> {
    return new Promise((resolve, reject) => {
        scrypt(secretText, salt, 32, (error, key) => (error ? reject(error) : resolve(key.toString("hex"))));
    });
}

function sha256(parts: string[]): string {
    return createHash("sha256").update(JSON.stringify(parts)).digest("hex");
}

function required(value: string | undefined, what: string, option: string, envName: string): string {
    if (value === undefined || value.trim() === "") {
        throw new AuthError(`No ${what} configured: pass ${option} or set ${envName}`);
    }
    return value.trim();
}

function validHttpUrl(value: string): string {
    let url: URL;
    try {
        url = new URL(value);
    } catch {
        throw new AuthError(`The token endpoint is not a valid URL`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new AuthError(`The token endpoint must be an http(s) URL`);
    return value;
}

function hostNameOf(url: string | undefined): string | undefined {
    if (url === undefined) return undefined;
    try {
        return new URL(url).hostname || undefined;
    } catch {
        return undefined;
    }
}
