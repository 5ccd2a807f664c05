// Authentication of API requests: none, a bearer token from a token provider, or fixed headers.
// The seed leaves the auth of the management and gateway APIs open and deployments differ, so each
// client takes one of these.

import {
    HttpMethod,
    HttpRequest,
    HttpResponse,
    RetryNotice,
    RetryPolicy,
    DecodeResult,
    decodeJsonBody,
    errorFromResponse,
    sendWithRetry,
} from "../http/request";
import type { ConnectionSettings } from "../http/transport";
import { TokenProvider } from "./tokenClient";

export type ApiAuth =
    /** Authorization: Bearer <token>, renewed once when a GET answers 401. */
    | { tokenProvider: TokenProvider }
    /** Headers sent as given (an API key, basic auth, a token obtained elsewhere). Never shown in errors. */
    | { headers: Record<string, string> };

/** Options every API call takes. */
export interface CallOptions {
    signal?: AbortSignal;
    /** Time limit of one attempt (default: the client's). */
    timeoutMs?: number;
    /** The retry policy (false: no retry). What may be retried is the call's own rule (see Replay). */
    retry?: Partial<RetryPolicy> | false;
    /** Told before each retry (a line for the user: the API is rate limiting, say). */
    onRetry?: (notice: RetryNotice) => void;
}

/** The request of one API call: the call's options over the client's time limit, with the client's connection. */
export function callRequest(
    method: HttpMethod,
    url: string,
    options: CallOptions,
    clientTimeoutMs: number,
    connection: ConnectionSettings | undefined,
): HttpRequest {
    return { method, url, timeoutMs: options.timeoutMs ?? clientTimeoutMs, signal: options.signal, retry: options.retry, onRetry: options.onRetry, connection };
}

export interface AuthorizedResponse {
    response: HttpResponse;
    /** The values that must never appear in an error about this request (tokens, header values). */
    secrets: string[];
}

/**
 * Sends a request with the auth applied. A request that may be sent again (a GET, or a write with a replay rule) and
 * is answered 401 is sent once more with a renewed token: the server did nothing with it.
 */
export async function sendWithAuth(req: HttpRequest, auth: ApiAuth | undefined): Promise<AuthorizedResponse> {
    const secrets = [...(req.redact ?? []), ...Object.values(req.connection?.headers ?? {})].filter((value): value is string => value !== undefined);
    if (auth === undefined) return { response: await sendWithRetry(req), secrets };
    if ("headers" in auth) {
        secrets.push(...Object.values(auth.headers));
        const response = await sendWithRetry({ ...req, headers: { ...req.headers, ...auth.headers }, redact: secrets });
        return { response, secrets };
    }
    const provider = auth.tokenProvider;
    const token = await provider.getToken({ signal: req.signal });
    secrets.push(token);
    const response = await sendWithRetry(withBearer(req, token, secrets));
    const resendable = req.method === "GET" || (req.replay ?? "never") !== "never";
    if (response.status !== 401 || !resendable || provider.invalidate === undefined) return { response, secrets };
    await provider.invalidate(token);
    const renewed = await provider.getToken({ signal: req.signal });
    secrets.push(renewed);
    return { response: await sendWithRetry(withBearer(req, renewed, secrets)), secrets };
}

/** sendWithAuth, then a 2xx JSON body decoded, else the typed error of the status. */
export async function requestJsonWithAuth<T>(req: HttpRequest, auth: ApiAuth | undefined, decode: (data: unknown) => DecodeResult<T>): Promise<T> {
    const { response, secrets } = await sendWithAuth(req, auth);
    if (response.status < 200 || response.status > 299) throw errorFromResponse(response, secrets);
    return decodeJsonBody(response, decode);
}

function withBearer(req: HttpRequest, token: string, secrets: string[]): HttpRequest {
    return { ...req, headers: { ...req.headers, authorization: `Bearer ${token}` }, redact: secrets };
}
