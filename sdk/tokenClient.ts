// OAuth 2.0 client-credentials tokens for the administration API (and, where deployments require it,
// the management and gateway APIs).
//
// One token per (issuer URL, client id, audience) for the whole process: a memory cache on globalThis
// shared by every client object and by every copy of this module (each Pulumi dynamic provider is
// deserialized separately), single-flight (concurrent callers share one request), backed by a disk
// cache for later processes. Token requests go through the process-wide rate limiter. Credentials the
// issuer rejected (400/401/403) are remembered, so the process never sends them again: a client with
// bad credentials must not use up the address's shared rate limit.

import { createHash } from "crypto";
import {
  AbortedError,
  AuthError,
  PlatformError,
  PlatformErrorDetails,
  RateLimitedError,
  RequestTimeoutError,
  ResponseFormatError,
  ServerError,
  UnexpectedStatusError,
  UnreachableError,
} from "./errors";
import { HttpResponse, abortable, decodeJsonBody, errorFromResponse, isTransientError, parseRetryAfter, send } from "./http";
import { blockTokenRequestsUntil, runRateLimited } from "./rateLimiter";
import { decoder, tokenResponseSchema } from "./schemas";
import {
  CachedToken,
  defaultTokenCacheDir,
  deleteCachedToken,
  diskCacheEnabledByEnv,
  readCachedToken,
  writeCachedToken,
} from "./tokenDiskCache";

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
  const state = sharedState();
  state.tokens.clear();
  state.failures.clear();
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
    this.cacheDir = diskCache ? options.cacheDir ?? defaultTokenCacheDir(env) : undefined;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 4);
    this.maxRateLimitWaitMs = options.maxRateLimitWaitMs ?? 60_000;
    this.cacheKey = sha256([this.authUrl, this.clientId, this.audience]);
  }

  /** A valid access token: from memory, else from disk, else from the issuer (one request for all concurrent callers). */
  async getToken(options: { signal?: AbortSignal } = {}): Promise<string> {
    const state = sharedState();
    const failure = state.failures.get(this.failureKey());
    if (failure) throw reviveError(failure);
    const cached = state.tokens.get(this.cacheKey);
    if (cached && Date.now() < cached.renewAt) return cached.accessToken;

    let flight = state.inflight.get(this.cacheKey);
    if (!flight) {
      flight = this.obtain().finally(() => state.inflight.delete(this.cacheKey));
      state.inflight.set(this.cacheKey, flight);
    }
    const outcome = await abortable(flight, options.signal);
    if (outcome.ok) return outcome.token.accessToken;
    throw reviveError(outcome.error);
  }

  async invalidate(token: string): Promise<void> {
    const state = sharedState();
    if (state.tokens.get(this.cacheKey)?.accessToken === token) state.tokens.delete(this.cacheKey);
    if (this.cacheDir !== undefined) await deleteCachedToken(this.cacheDir, this.cacheKey, token);
  }

  /** What the client is, without its secret (for logs and JSON.stringify). */
  toJSON(): { clientId: string; authUrl: string; audience: string } {
    return { clientId: this.clientId, authUrl: this.authUrl, audience: this.audience };
  }

  private async obtain(): Promise<TokenOutcome> {
    try {
      if (this.cacheDir !== undefined) {
        const fromDisk = await readCachedToken(this.cacheDir, this.cacheKey);
        if (fromDisk && Date.now() < fromDisk.renewAt) {
          sharedState().tokens.set(this.cacheKey, fromDisk);
          return { ok: true, token: fromDisk };
        }
      }
      return { ok: true, token: await this.requestToken() };
    } catch (error) {
      return { ok: false, error: shareError(error) };
    }
  }

  private async requestToken(): Promise<CachedToken> {
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
          });
        });
      } catch (error) {
        if (!last && isTransientError(error)) continue;
        throw error;
      }

      if (res.status >= 200 && res.status <= 299) return this.remember(res, startedAt);

      const redactions = [this.clientSecret];
      if (res.status === 400 || res.status === 401 || res.status === 403) {
        const rejected = errorFromResponse(res, redactions);
        const error = new AuthError(
          `The token issuer ${this.issuerForMessages()} rejected the credentials of client '${this.clientId}' ` +
            `for audience '${this.audience}'; they will not be tried again in this process`,
          { request: rejected.request, status: rejected.status, serverMessage: rejected.serverMessage },
        );
        sharedState().failures.set(this.failureKey(), shareError(error));
        throw error;
      }
      if (res.status === 429) {
        const waitMs = parseRetryAfter(res.headers["retry-after"]) ?? 1_000 * 2 ** (attempt - 1);
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

  private async remember(res: HttpResponse, requestedAt: number): Promise<CachedToken> {
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
    sharedState().tokens.set(this.cacheKey, token);
    if (this.cacheDir !== undefined) await writeCachedToken(this.cacheDir, this.cacheKey, token);
    return token;
  }

  /** Key of remembered failures: these exact credentials, secret included (hashed, never stored on the object). */
  private failureKey(): string {
    return sha256([this.authUrl, this.clientId, this.audience, this.clientSecret]);
  }

  private issuerForMessages(): string {
    const url = new URL(this.authUrl);
    return url.origin + url.pathname;
  }
}

// ---------------------------------------------------------------------------------------------------
// Process-wide state, shared through globalThis by every copy of this module

/** An error as stored in the shared state: plain data, so each module copy rebuilds its own classes. */
interface SharedError {
  name: string;
  message: string;
  summary: string;
  details: PlatformErrorDetails & { retryAfterMs?: number; problem?: string };
}

type TokenOutcome = { ok: true; token: CachedToken } | { ok: false; error: SharedError };

interface SharedTokenState {
  tokens: Map<string, CachedToken>;
  inflight: Map<string, Promise<TokenOutcome>>;
  failures: Map<string, SharedError>;
}

function sharedState(): SharedTokenState {
  // The key is made here, not in a module constant: the closure serializer cannot capture symbols.
  const key = Symbol.for("pulumi-platform.tokenCache.v1");
  const holder = globalThis as unknown as Record<symbol, SharedTokenState | undefined>;
  return (holder[key] ??= { tokens: new Map(), inflight: new Map(), failures: new Map() });
}

function shareError(error: unknown): SharedError {
  if (error instanceof PlatformError) {
    const extra = error as PlatformError & { retryAfterMs?: number; problem?: string };
    return {
      name: error.name,
      message: error.message,
      summary: error.summary,
      details: {
        request: error.request,
        status: error.status,
        serverMessage: error.serverMessage,
        code: error.code,
        retryAfterMs: extra.retryAfterMs,
        problem: extra.problem,
      },
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { name: "AuthError", message: `Token request failed: ${message}`, summary: `Token request failed: ${message}`, details: {} };
}

function reviveError(shared: SharedError): PlatformError {
  const { details } = shared;
  let error: PlatformError;
  switch (shared.name) {
    case "RateLimitedError":
      error = new RateLimitedError(shared.summary, details);
      break;
    case "UnreachableError":
      error = new UnreachableError(shared.summary, details);
      break;
    case "RequestTimeoutError":
      error = new RequestTimeoutError(shared.summary, details);
      break;
    case "ServerError":
      error = new ServerError(shared.summary, details);
      break;
    case "ResponseFormatError":
      error = new ResponseFormatError(shared.summary, { ...details, problem: details.problem ?? "" });
      break;
    case "UnexpectedStatusError":
      error = new UnexpectedStatusError(shared.summary, details);
      break;
    case "AbortedError":
      error = new AbortedError(shared.summary, details);
      break;
    default:
      error = new AuthError(shared.summary, details);
  }
  // The original wording, whatever the constructor above composed.
  return Object.assign(error, { message: shared.message, summary: shared.summary });
}

// ---------------------------------------------------------------------------------------------------

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
