// Typed errors of the SDK. Every error names the request (method and path) and, when there was one,
// the HTTP status and the server's message. None ever carries request headers, tokens or secrets.

/** The request an error is about: method and path (with query), never headers or bodies. */
export interface RequestDescription {
    method: string;
    path: string;
}

export interface PlatformErrorDetails {
    request?: RequestDescription;
    status?: number;
    serverMessage?: string;
    /** A short machine-readable cause, such as "ECONNREFUSED" or "UND_ERR_SOCKET". */
    code?: string;
    /** The reason of a Kubernetes API server's own refusal (a Status object: Unauthorized, Forbidden, NotFound, ServiceUnavailable). */
    apiServerReason?: string;
}

/** Progress of a cluster change as last observed. */
export interface ChangeProgress {
    changeId: number;
    completed: number;
    total: number;
    /** The operation running now (the first pending one), if any. */
    current?: OperationSummary;
}

export interface OperationSummary {
    operation: string;
    brokerId?: number;
    partitionId?: number;
}

const MAX_SERVER_MESSAGE_LENGTH = 500;

// Every class names itself on its prototype, so that its name heads the stack trace and survives bundlers
// that rename classes.

export class PlatformError extends Error {
    /** The message without the request and server parts. */
    readonly summary: string;
    readonly request?: RequestDescription;
    readonly status?: number;
    readonly serverMessage?: string;
    readonly code?: string;
    readonly apiServerReason?: string;

    constructor(summary: string, details: PlatformErrorDetails = {}) {
        const message = composeMessage(summary, details);
        super(message);
        this.summary = summary;
        this.request = details.request;
        this.status = details.status;
        this.serverMessage = details.serverMessage;
        this.code = details.code;
        this.apiServerReason = details.apiServerReason;
    }
}
PlatformError.prototype.name = "PlatformError";

/** 400: the server refused the request as invalid; `serverMessage` says why. */
export class InvalidRequestError extends PlatformError {}
InvalidRequestError.prototype.name = "InvalidRequestError";

/** 401/403 from an API, or any failure to obtain a token (bad credentials, missing configuration). */
export class AuthError extends PlatformError {}
AuthError.prototype.name = "AuthError";

/** 409: another change is in progress. `pendingChangeId` is set when it could be learned. */
export class ConflictError extends PlatformError {
    readonly pendingChangeId?: number;

    constructor(summary: string, details: PlatformErrorDetails & { pendingChangeId?: number }) {
        super(details.pendingChangeId === undefined ? summary : `${summary} (pending change ${details.pendingChangeId})`, details);
        this.pendingChangeId = details.pendingChangeId;
    }
}
ConflictError.prototype.name = "ConflictError";

/** 429 that outlasted the retries allowed. `retryAfterMs` is the server's last hint, if any. */
export class RateLimitedError extends PlatformError {
    readonly retryAfterMs?: number;

    constructor(summary: string, details: PlatformErrorDetails & { retryAfterMs?: number }) {
        super(summary, details);
        this.retryAfterMs = details.retryAfterMs;
    }
}
RateLimitedError.prototype.name = "RateLimitedError";

/** 5xx. 502 and 504 from the management API mean the gateway could not reach the coordinator. */
export class ServerError extends PlatformError {
    /** From a Retry-After header (a 503 may carry one). */
    readonly retryAfterMs?: number;

    constructor(summary: string, details: PlatformErrorDetails & { retryAfterMs?: number } = {}) {
        super(summary, details);
        this.retryAfterMs = details.retryAfterMs;
    }
}
ServerError.prototype.name = "ServerError";

/** Any other unexpected status (404 for a wrong base path, 405, 501, ...). */
export class UnexpectedStatusError extends PlatformError {}
UnexpectedStatusError.prototype.name = "UnexpectedStatusError";

/** The connection failed: refused, reset, closed early, name not resolved. */
export class UnreachableError extends PlatformError {}
UnreachableError.prototype.name = "UnreachableError";

/** The TLS handshake failed: the server's certificate is not trusted, or the server refused the client's. Not transient. */
export class TlsError extends PlatformError {}
TlsError.prototype.name = "TlsError";

/** The request did not complete within its time limit. */
export class RequestTimeoutError extends PlatformError {}
RequestTimeoutError.prototype.name = "RequestTimeoutError";

/** Pods did not reach the state waited for within the time limit; `pods` is what was last seen of them. */
export class PodWaitTimeoutError extends PlatformError {
    constructor(
        summary: string,
        readonly pods: readonly { name: string; phase: string; started: boolean; ready: boolean; waiting?: { reason: string; message?: string } }[],
    ) {
        super(summary);
    }
}
PodWaitTimeoutError.prototype.name = "PodWaitTimeoutError";

/**
 * A StatefulSet's scale showed another count than the caller last saw (`expected`): someone else wrote it in between,
 * so nothing was written. `replicas` is the count it showed.
 */
export class ReplicasMovedError extends PlatformError {
    constructor(
        readonly expected: number,
        readonly replicas: number,
    ) {
        super(`spec.replicas is ${replicas}, not the ${expected} last read: another writer changed it; nothing was written`);
    }
}
ReplicasMovedError.prototype.name = "ReplicasMovedError";

/**
 * A hosted cluster did not reach the state waited for: it reported a state that ends the wait (`Unhealthy`,
 * `WaitingForInput`, `Suspended`, …), or the time ran out (`timedOut`) while it still reported `clusterStatus`.
 */
export class HostedClusterStateError extends PlatformError {
    constructor(
        summary: string,
        readonly clusterId: string,
        readonly clusterStatus: string | undefined,
        readonly timedOut: boolean,
    ) {
        super(summary);
    }
}
HostedClusterStateError.prototype.name = "HostedClusterStateError";

/** The caller's AbortSignal fired. */
export class AbortedError extends PlatformError {}
AbortedError.prototype.name = "AbortedError";

/** The response was not the JSON the interface defines; `problem` says briefly what was wrong. */
export class ResponseFormatError extends PlatformError {
    readonly problem: string;

    constructor(summary: string, details: PlatformErrorDetails & { problem: string }) {
        super(`${summary}: ${details.problem}`, details);
        this.problem = details.problem;
    }
}
ResponseFormatError.prototype.name = "ResponseFormatError";

/** Base of the errors raised while waiting for a change; all carry the change id and the last progress seen. */
export class ChangeError extends PlatformError {
    readonly changeId: number;
    readonly progress?: ChangeProgress;

    constructor(summary: string, details: PlatformErrorDetails & { changeId: number; progress?: ChangeProgress }) {
        super(summary, details);
        this.changeId = details.changeId;
        this.progress = details.progress;
    }
}
ChangeError.prototype.name = "ChangeError";

/** The change did not complete in time. It may still be running: wait again with the same id. */
export class ChangeTimeoutError extends ChangeError {}
ChangeTimeoutError.prototype.name = "ChangeTimeoutError";

/** The change was cancelled (DELETE /changes/{id}); operations already applied stay applied. */
export class ChangeCancelledError extends ChangeError {}
ChangeCancelledError.prototype.name = "ChangeCancelledError";

/** The change ended with a status other than COMPLETED or CANCELLED (e.g. FAILED). */
export class ChangeFailedError extends ChangeError {
    readonly changeStatus: string;

    constructor(summary: string, details: PlatformErrorDetails & { changeId: number; progress?: ChangeProgress; changeStatus: string }) {
        super(summary, details);
        this.changeStatus = details.changeStatus;
    }
}
ChangeFailedError.prototype.name = "ChangeFailedError";

/** A newer change is recorded, so the outcome of this one can no longer be read. */
export class ChangeSupersededError extends ChangeError {
    readonly latestChangeId: number;

    constructor(summary: string, details: PlatformErrorDetails & { changeId: number; progress?: ChangeProgress; latestChangeId: number }) {
        super(summary, details);
        this.latestChangeId = details.latestChangeId;
    }
}
ChangeSupersededError.prototype.name = "ChangeSupersededError";

/** Secrets are hidden even when echoed in part: any run of this many of their characters counts. */
export const SECRET_FRAGMENT_LENGTH = 8;

/**
 * Replaces every occurrence of the given secrets in a text, and every fragment of one of
 * SECRET_FRAGMENT_LENGTH characters or more (a server that echoes a token without its `Bearer ` prefix, or cut
 * short). Secrets shorter than 4 characters are ignored; shorter than the fragment length, only whole ones count.
 */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
    const hidden = new Array<boolean>(text.length).fill(false);
    const hide = (fragment: string): void => {
        for (let at = text.indexOf(fragment); at !== -1; at = text.indexOf(fragment, at + 1)) {
            hidden.fill(true, at, at + fragment.length);
        }
    };
    for (const secret of secrets) {
        if (secret === undefined || secret.length < 4) continue;
        if (secret.length < SECRET_FRAGMENT_LENGTH) hide(secret);
        for (let start = 0; start + SECRET_FRAGMENT_LENGTH <= secret.length; start++) hide(secret.slice(start, start + SECRET_FRAGMENT_LENGTH));
    }
    let result = "";
    for (let i = 0; i < text.length;) {
        if (!hidden[i]) {
            result += text[i++];
            continue;
        }
        let end = i;
        while (end < text.length && hidden[end]) end++;
        // White space at the edges of a hidden run is the text's own (the space after "Bearer"): keep it readable.
        const run = text.slice(i, end);
        const core = run.trim();
        result += core === "" ? run : `${run.slice(0, run.indexOf(core))}[redacted]${run.slice(run.indexOf(core) + core.length)}`;
        i = end;
    }
    return result;
}

/** Cuts a server message to a readable length. */
export function truncateMessage(text: string): string {
    const trimmed = text.trim();
    return trimmed.length <= MAX_SERVER_MESSAGE_LENGTH ? trimmed : `${trimmed.slice(0, MAX_SERVER_MESSAGE_LENGTH)}…`;
}

function composeMessage(summary: string, details: PlatformErrorDetails): string {
    const parts: string[] = [];
    if (details.request) parts.push(`${details.request.method} ${details.request.path}`);
    if (details.status !== undefined) parts.push(`status ${details.status}`);
    const head = parts.length > 0 ? `${parts.join(", ")}: ` : "";
    const server = details.serverMessage ? ` Server said: ${details.serverMessage}` : "";
    const end = /[.!?)]$/.test(summary) ? "" : ".";
    return `${head}${summary}${end}${server}`;
}
