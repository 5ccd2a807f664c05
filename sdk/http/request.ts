// HTTP over undici: one place for timeouts, JSON, typed errors and the retry rules.
// Connections are kept alive per origin by undici's global dispatcher, or by the shared dispatcher of the
// request's connection settings (proxies, TLS; see transport.ts). What may be sent again is the request's `replay`:
// a GET (and any write the caller declares idempotent) after any transient failure, a write that must not run twice
// only after a 429 (the server refused it before doing anything), anything else never.

import { undici } from "./undici";
import {
    AbortedError,
    AuthError,
    ConflictError,
    InvalidRequestError,
    PlatformError,
    RateLimitedError,
    RequestDescription,
    RequestTimeoutError,
    ResponseFormatError,
    ServerError,
    TlsError,
    UnexpectedStatusError,
    UnreachableError,
    redact,
    truncateMessage,
} from "../errors";
import { type ConnectionSettings, dispatcherFor } from "./transport";
import { TIME_LIMITS } from "../timeLimits";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export type QueryValue = string | number | boolean | undefined;

export interface RetryPolicy {
    /** Attempts in all, the first included. */
    maxAttempts: number;
    /** First backoff delay; doubled on every retry (with jitter) up to maxDelayMs. */
    baseDelayMs: number;
    maxDelayMs: number;
    /** A Retry-After longer than this ends the retries (the 429/503 is returned as an error). */
    maxRetryAfterMs: number;
}

/**
 * Which failures a request may be sent again after:
 * - "safe": it does the same however often it arrives (a GET, a PUT, a DELETE, an upsert): transport failures,
 *   timeouts, 429, 502, 503, 504;
 * - "refused-only": it must not run twice (a POST that creates something): only a 429, which the server answers
 *   before doing anything. After an unclear answer (a reset, a timeout, a 5xx) the caller reads before it sends again;
 * - "never".
 */
export type Replay = "safe" | "refused-only" | "never";

/** What a retry tells its caller before it waits: the attempt that failed, why, and the wait before the next. */
export interface RetryNotice {
    method: HttpMethod;
    path: string;
    /** The status that is retried (429, 503, …), or undefined for a transport failure or a timeout. */
    status?: number;
    /** The failed attempt, from 1. */
    attempt: number;
    delayMs: number;
}

export interface HttpRequest {
    method: HttpMethod;
    /** Absolute URL without query. */
    url: string;
    query?: Record<string, QueryValue>;
    headers?: Record<string, string>;
    /** Sent as application/json. */
    json?: unknown;
    /** Sent as application/x-www-form-urlencoded. */
    form?: Record<string, string>;
    /** Time limit of one attempt, headers and body included. */
    timeoutMs?: number;
    signal?: AbortSignal;
    /** Retry settings (false: never retry). */
    retry?: Partial<RetryPolicy> | false;
    /** Which failures may be retried (default: "safe" for a GET, "never" for any other method). */
    replay?: Replay;
    /** Called before each retry. */
    onRetry?: (notice: RetryNotice) => void;
    /** Strings that must never appear in an error message (secrets, tokens). */
    redact?: readonly (string | undefined)[];
    /** Proxies and TLS settings (default: from the environment only). */
    connection?: ConnectionSettings;
}

export interface HttpResponse {
    status: number;
    headers: Record<string, string | string[] | undefined>;
    text: string;
    request: RequestDescription;
}

export type DecodeResult<T> = { ok: true; value: T } | { ok: false; problem: string };

export const DEFAULT_TIMEOUT_MS = TIME_LIMITS.requestMs;

export const DEFAULT_RETRY: RetryPolicy = {
    maxAttempts: 4,
    baseDelayMs: 200,
    maxDelayMs: 5_000,
    maxRetryAfterMs: 30_000,
};

const RETRYABLE_STATUSES = [429, 502, 503, 504];

// undici's codes for a connection that failed or broke; Node's socket errors (ECONNRESET, ...) match /^E[A-Z]+$/.
const CONNECTION_FAILURE_CODES = ["UND_ERR_SOCKET", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_CLOSED"];

// Node's and OpenSSL's codes for a handshake that failed over trust: an unknown CA, a self-signed or expired
// certificate, a name mismatch, a client certificate the server requires or refuses.
const TLS_FAILURE = /CERT|SIGNATURE|ISSUER|ERR_TLS|ERR_SSL|HOSTNAME|ALTNAME/;

function tlsAdvice(code: string, host: string): string {
    if (/CERTIFICATE_REQUIRED|BAD_CERTIFICATE|UNKNOWN_CA|ALERT/.test(code)) {
        return `TLS handshake with ${host} failed (${code}): the server requires a client certificate it accepts; give tls.clientCertificate and tls.clientKey`;
    }
    return `TLS handshake with ${host} failed (${code}): the server's certificate is not trusted; give its CA as tls.caCertificate, or a PEM bundle in PLATFORM_TLS_CA_FILE`;
}

/**
 * Sends one request and returns the response whatever its status; transport failures become typed errors.
 * With a debug log in the connection settings, one line per request: method, path, status, milliseconds, retry.
 */
export async function send(req: HttpRequest, attempt = 1): Promise<HttpResponse> {
    const log = req.connection?.log;
    if (log === undefined) return sendOnce(req);
    const url = buildUrl(req.url, req.query);
    const started = Date.now();
    const retry = attempt > 1 ? ` (retry ${attempt - 1})` : "";
    try {
        const res = await sendOnce(req);
        log(`${req.method} ${url.pathname}${url.search} → ${res.status} in ${Date.now() - started} ms${retry}`);
        return res;
    } catch (error) {
        const what = error instanceof PlatformError ? (error.code ?? error.name) : "failed";
        log(`${req.method} ${url.pathname}${url.search} → ${what} after ${Date.now() - started} ms${retry}`);
        throw error;
    }
}

async function sendOnce(req: HttpRequest): Promise<HttpResponse> {
    const url = buildUrl(req.url, req.query);
    const description: RequestDescription = { method: req.method, path: url.pathname + url.search };
    const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;

    const headers: Record<string, string> = {
        accept: "application/json",
        ...lowerCaseKeys(req.connection?.headers ?? {}),
        ...lowerCaseKeys(req.headers ?? {}),
    };
    let body: string | undefined;
    if (req.json !== undefined) {
        headers["content-type"] = "application/json";
        body = JSON.stringify(req.json);
    } else if (req.form !== undefined) {
        headers["content-type"] = "application/x-www-form-urlencoded";
        body = new URLSearchParams(req.form).toString();
    }

    // The connection's signal stops requests from starting; one already sent runs to its answer, which tells the caller
    // what the server did (a write cut off would leave that open).
    if (req.signal?.aborted || req.connection?.signal?.aborted) throw new AbortedError("Request aborted by the caller", { request: description });
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), Math.max(1, timeoutMs));
    const signal = req.signal ? AbortSignal.any([req.signal, deadline.signal]) : deadline.signal;
    try {
        const res = await undici().request(url, {
            dispatcher: dispatcherFor(req.connection),
            method: req.method,
            headers,
            body,
            signal,
            // Backstops only: undici's own timers are coarse, the AbortSignal above is the precise limit.
            headersTimeout: timeoutMs + 1_000,
            bodyTimeout: timeoutMs + 1_000,
        });
        const text = await res.body.text();
        return { status: res.statusCode, headers: res.headers, text, request: description };
    } catch (error) {
        if (req.signal?.aborted) throw new AbortedError("Request aborted by the caller", { request: description });
        if (deadline.signal.aborted) {
            throw new RequestTimeoutError(`No complete response within ${timeoutMs} ms`, { request: description });
        }
        const code = errorCode(error);
        if (code !== undefined && TLS_FAILURE.test(code)) {
            throw new TlsError(tlsAdvice(code, url.host), { request: description, code });
        }
        if (code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") {
            throw new RequestTimeoutError("The server stopped responding", { request: description, code });
        }
        if (code !== undefined && (/^E[A-Z]+$/.test(code) || CONNECTION_FAILURE_CODES.includes(code))) {
            throw new UnreachableError(`Connection to ${url.host} failed (${code})`, { request: description, code });
        }
        throw error;
    } finally {
        clearTimeout(timer);
    }
}

/** The replay rule of a request: its own, else "safe" for a GET and "never" for any other method. */
export function replayOf(req: HttpRequest): Replay {
    if (req.retry === false) return "never";
    return req.replay ?? (req.method === "GET" ? "safe" : "never");
}

/** Sends a request, and sends it again after the failures its replay rule allows (see Replay), within the retry policy. */
export async function sendWithRetry(req: HttpRequest): Promise<HttpResponse> {
    const replay = replayOf(req);
    if (replay === "never") return send(req);
    const retryable = replay === "safe" ? RETRYABLE_STATUSES : [429];
    const policy: RetryPolicy = { ...DEFAULT_RETRY, ...(req.retry || {}) };
    for (let attempt = 1; ; attempt++) {
        const last = attempt >= policy.maxAttempts;
        let delayMs = backoffDelay(policy, attempt);
        let status: number | undefined;
        try {
            const res = await send(req, attempt);
            if (!retryable.includes(res.status) || last) return res;
            status = res.status;
            const retryAfterMs = parseRetryAfter(res.headers["retry-after"]);
            if (retryAfterMs !== undefined) {
                if (retryAfterMs > policy.maxRetryAfterMs) return res;
                // Jitter above the server's wait, so that clients refused together do not come back together.
                delayMs = Math.max(delayMs, Math.round(retryAfterMs * (1 + Math.random() * 0.2)));
            }
        } catch (error) {
            if (last || replay !== "safe" || !isTransientError(error)) throw error;
        }
        req.onRetry?.({ method: req.method, path: new URL(req.url).pathname, status, attempt, delayMs });
        await sleep(delayMs, callerSignalOf(req));
    }
}

/** The request's own signal and its connection's, as one (undefined when it has neither): for waits, which either may end. */
export function callerSignalOf(req: Pick<HttpRequest, "signal" | "connection">): AbortSignal | undefined {
    const signals = [req.signal, req.connection?.signal].filter((signal): signal is AbortSignal => signal !== undefined);
    return signals.length > 1 ? AbortSignal.any(signals) : signals[0];
}

export function decodeJsonBody<T>(res: HttpResponse, decode: (data: unknown) => DecodeResult<T>): T {
    let data: unknown;
    try {
        data = JSON.parse(res.text);
    } catch {
        const problem = res.text.trim() === "" ? "the body is empty, JSON was expected" : "the body is not valid JSON";
        throw new ResponseFormatError("Unexpected response", { request: res.request, status: res.status, problem });
    }
    const decoded = decode(data);
    if (!decoded.ok) {
        throw new ResponseFormatError("Unexpected response", { request: res.request, status: res.status, problem: decoded.problem });
    }
    return decoded.value;
}

/** The typed error for a non-2xx response. A 409 carries no pending change id here (see the cluster client). */
export function errorFromResponse(res: HttpResponse, secrets: readonly (string | undefined)[] = []): PlatformError {
    const details = {
        request: res.request,
        status: res.status,
        serverMessage: serverMessageOf(res.text, secrets),
        apiServerReason: apiServerReasonOf(res.text),
    };
    switch (true) {
        case res.status === 400:
            return new InvalidRequestError("The request was rejected as invalid", details);
        case res.status === 401:
            return new AuthError("Not authenticated (missing, invalid or expired credentials)", details);
        case res.status === 403:
            return new AuthError("Not authorized for this operation", details);
        case res.status === 409:
            return new ConflictError("Another change is in progress", details);
        case res.status === 429:
            return new RateLimitedError("Too many requests", { ...details, retryAfterMs: parseRetryAfter(res.headers["retry-after"]) });
        case res.status >= 500 && res.status !== 501:
            return new ServerError(serverErrorSummary(res.status), { ...details, retryAfterMs: parseRetryAfter(res.headers["retry-after"]) });
        case res.status === 501:
            return new UnexpectedStatusError("Not supported by this server", details);
        default:
            return new UnexpectedStatusError("Unexpected response status", details);
    }
}

/** True for failures worth retrying a safe request for: connection problems, timeouts, 429, 502, 503, 504. */
export function isTransientError(error: unknown): boolean {
    if (error instanceof UnreachableError || error instanceof RequestTimeoutError) return true;
    if (error instanceof PlatformError && error.status !== undefined && !(error instanceof AbortedError)) {
        return RETRYABLE_STATUSES.includes(error.status);
    }
    return false;
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | string[] | undefined, now: number = Date.now()): number | undefined {
    const raw = Array.isArray(value) ? value[0] : value;
    if (raw === undefined || raw.trim() === "") return undefined;
    if (/^\s*\d+(\.\d+)?\s*$/.test(raw)) return Math.round(Number(raw) * 1000);
    const date = Date.parse(raw);
    return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Resolves after ms, or rejects with AbortedError as soon as the signal fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
        if (signal?.aborted) return reject(new AbortedError("Aborted by the caller"));
        let timer: NodeJS.Timeout | undefined = undefined;
        const onAbort = (): void => {
            clearTimeout(timer);
            reject(new AbortedError("Aborted by the caller"));
        };
        timer = setTimeout(
            () => {
                signal?.removeEventListener("abort", onAbort);
                resolve();
            },
            Math.max(0, ms),
        );
        signal?.addEventListener("abort", onAbort, { once: true });
    });
}

/** Settles like `promise`, or rejects with AbortedError as soon as the signal fires. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    if (!signal) return promise;
    return new Promise<T>((resolve, reject) => {
        if (signal.aborted) return reject(new AbortedError("Aborted by the caller"));
        const onAbort = (): void => reject(new AbortedError("Aborted by the caller"));
        signal.addEventListener("abort", onAbort, { once: true });
        promise.then(
            (value) => {
                signal.removeEventListener("abort", onAbort);
                resolve(value);
            },
            (error: unknown) => {
                signal.removeEventListener("abort", onAbort);
                reject(error);
            },
        );
    });
}

/** Joins an origin (possibly with a path prefix) and a path without doubling or losing slashes. */
export function joinUrl(base: string, path: string): string {
    const left = base.replace(/\/+$/, "");
    const right = path === "" ? "" : `/${path.replace(/^\/+/, "")}`;
    return left + right;
}

function buildUrl(url: string, query: Record<string, QueryValue> | undefined): URL {
    const result = new URL(url);
    for (const [key, value] of Object.entries(query ?? {})) {
        if (value !== undefined) result.searchParams.set(key, String(value));
    }
    return result;
}

/** The one backoff of the SDK: `baseMs` doubled per attempt (attempt 1 waits `baseMs`), capped at `maxMs`. */
export function exponentialDelay(attempt: number, baseMs: number, maxMs: number): number {
    return Math.min(maxMs, baseMs * 2 ** Math.min(30, Math.max(0, attempt - 1)));
}

/** The backoff of a retried request, with ±25 % jitter so that many clients do not retry in step. */
function backoffDelay(policy: RetryPolicy, attempt: number): number {
    return Math.round(exponentialDelay(attempt, policy.baseDelayMs, policy.maxDelayMs) * (0.75 + Math.random() * 0.5));
}

function serverMessageOf(text: string, secrets: readonly (string | undefined)[]): string | undefined {
    if (text.trim() === "") return undefined;
    let message = text;
    try {
        const data: unknown = JSON.parse(text);
        if (typeof data === "object" && data !== null) {
            const fields = data as Record<string, unknown>;
            if (typeof fields.message === "string") message = fields.message;
            else if (typeof fields.error_description === "string") {
                message = typeof fields.error === "string" ? `${fields.error}: ${fields.error_description}` : fields.error_description;
            } else if (typeof fields.detail === "string") message = fields.detail;
            else if (typeof fields.error === "string") message = fields.error;
            else if (typeof fields.title === "string") message = fields.title;
        }
    } catch {
        // Not JSON: a plain-text body (the reference's 501 stubs, proxies) is the message itself; an HTML page (a
        // proxy's error or login page) is named by its title, its markup is no message.
        if (/^\s*<(!doctype html|html|head|body)\b/i.test(text)) message = htmlPageMessage(text);
    }
    return truncateMessage(redact(message, secrets));
}

/** The reason of a Kubernetes API server's Status answer (the management API never answers one). */
function apiServerReasonOf(text: string): string | undefined {
    if (!text.includes('"Status"')) return undefined;
    try {
        const data = JSON.parse(text) as { kind?: unknown; reason?: unknown };
        return data.kind === "Status" && typeof data.reason === "string" ? data.reason : undefined;
    } catch {
        return undefined;
    }
}

function htmlPageMessage(html: string): string {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1].replace(/\s+/g, " ").trim();
    return title ? `an HTML page titled "${title}"` : "an HTML page";
}

function serverErrorSummary(status: number): string {
    if (status === 502) return "The gateway could not reach the cluster coordinator";
    if (status === 503) return "The service is unavailable";
    if (status === 504) return "The cluster coordinator did not answer in time";
    return "The server failed to process the request";
}

function errorCode(error: unknown): string | undefined {
    for (let current: unknown = error, depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
        const code = (current as { code?: unknown }).code;
        if (typeof code === "string") return code;
        current = (current as { cause?: unknown }).cause;
    }
    return undefined;
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
    const result: Record<string, string> = {};
    for (const [key, value] of Object.entries(headers)) result[key.toLowerCase()] = value;
    return result;
}
