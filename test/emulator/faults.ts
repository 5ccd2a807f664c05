// Injected faults: the next `count` requests matching an interface (and optionally a method, a
// path prefix and query parameters) are answered with a status, have their connection reset, or
// are delayed. With `afterProcessing: true` the request is first handled normally (a change may be
// accepted) and only the answer is replaced, as when a gateway times out after the coordinator acted.
// A `body` (with an optional `contentType`) replaces the answer's body as given: a truncated JSON
// document, an HTML error page, a plan with an unknown operation. With `afterProcessing` it keeps
// the real status (e.g. a 202 whose body is cut short); without, `status` is required.

import { STATUS_CODES } from "node:http";
import { Reply, jsonReply } from "./httpServer";
import { ControlError } from "./settings";

export const FAULTABLE_INTERFACES = ["auth", "admin", "management", "gateway"] as const;
export type FaultableInterface = (typeof FAULTABLE_INTERFACES)[number];

export interface FaultSpec {
    interface: FaultableInterface;
    method?: string;
    pathPrefix?: string;
    count: number;
    status?: number;
    reset?: boolean;
    delayMs?: number;
    afterProcessing?: boolean;
    /** Query parameters that must all match: a string is the exact value, null means the parameter is absent. */
    query?: Record<string, string | null>;
    /** The answer's body, sent as given. */
    body?: string;
    /** Content-Type of `body` (default application/json). */
    contentType?: string;
    /** The Retry-After header of an injected 429 or 503: seconds or an HTTP date (default "1"). */
    retryAfter?: string;
}

const FAULT_KEYS = [
    "interface",
    "method",
    "pathPrefix",
    "query",
    "count",
    "status",
    "reset",
    "delayMs",
    "afterProcessing",
    "body",
    "contentType",
    "retryAfter",
];

export function parseFault(body: unknown): FaultSpec {
    if (typeof body !== "object" || body === null || Array.isArray(body)) throw new ControlError("fault must be a JSON object");
    const raw = body as Record<string, unknown>;
    const unknown = Object.keys(raw).filter((key) => !FAULT_KEYS.includes(key));
    if (unknown.length > 0) throw new ControlError(`unknown fault field(s): ${unknown.join(", ")}`);
    if (!FAULTABLE_INTERFACES.includes(raw.interface as FaultableInterface)) {
        throw new ControlError(`interface must be one of ${FAULTABLE_INTERFACES.join(", ")}`);
    }
    if (raw.method !== undefined && typeof raw.method !== "string") throw new ControlError("method must be a string");
    if (raw.pathPrefix !== undefined && typeof raw.pathPrefix !== "string") throw new ControlError("pathPrefix must be a string");
    if (!Number.isInteger(raw.count) || (raw.count as number) < 1) throw new ControlError("count must be a positive integer");
    if (raw.status !== undefined && (!Number.isInteger(raw.status) || (raw.status as number) < 100 || (raw.status as number) > 599)) {
        throw new ControlError("status must be an HTTP status code");
    }
    if (raw.reset !== undefined && typeof raw.reset !== "boolean") throw new ControlError("reset must be a boolean");
    if (raw.afterProcessing !== undefined && typeof raw.afterProcessing !== "boolean") {
        throw new ControlError("afterProcessing must be a boolean");
    }
    if (raw.delayMs !== undefined && (typeof raw.delayMs !== "number" || !Number.isFinite(raw.delayMs) || raw.delayMs < 0)) {
        throw new ControlError("delayMs must be a non-negative number");
    }
    const query = parseQueryMatcher(raw.query);
    if (raw.body !== undefined && typeof raw.body !== "string") throw new ControlError("body must be a string");
    if (raw.contentType !== undefined && (typeof raw.contentType !== "string" || raw.contentType === "")) {
        throw new ControlError("contentType must be a non-empty string");
    }
    if (raw.contentType !== undefined && raw.body === undefined) throw new ControlError("contentType needs a body");
    if (raw.body !== undefined && raw.status === undefined && raw.afterProcessing !== true) {
        throw new ControlError("a body needs a status, or afterProcessing to keep the real one");
    }
    if (raw.body !== undefined && raw.reset === true) throw new ControlError("a fault cannot both answer a body and reset");
    if (raw.retryAfter !== undefined && (typeof raw.retryAfter !== "string" || raw.retryAfter.trim() === ""))
        throw new ControlError("retryAfter must be a non-empty string");
    if (raw.status === undefined && raw.reset !== true && raw.delayMs === undefined && raw.body === undefined) {
        throw new ControlError("a fault needs status, reset, delayMs or body");
    }
    if (raw.status !== undefined && raw.reset === true) throw new ControlError("a fault cannot both answer a status and reset");
    return {
        interface: raw.interface as FaultableInterface,
        method: raw.method === undefined ? undefined : (raw.method as string).toUpperCase(),
        pathPrefix: raw.pathPrefix as string | undefined,
        count: raw.count as number,
        status: raw.status as number | undefined,
        reset: raw.reset === true,
        delayMs: raw.delayMs as number | undefined,
        afterProcessing: raw.afterProcessing === true,
        ...(query !== undefined && { query }),
        ...(raw.body !== undefined && { body: raw.body as string, contentType: (raw.contentType as string | undefined) ?? "application/json" }),
        ...(raw.retryAfter !== undefined && { retryAfter: raw.retryAfter as string }),
    };
}

function parseQueryMatcher(value: unknown): Record<string, string | null> | undefined {
    if (value === undefined) return undefined;
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
        throw new ControlError("query must be an object of parameter names to a string (the value) or null (absent)");
    }
    const entries = Object.entries(value as Record<string, unknown>);
    if (!entries.every(([, v]) => typeof v === "string" || v === null)) {
        throw new ControlError("query values must be strings (the value) or null (absent)");
    }
    return Object.fromEntries(entries) as Record<string, string | null>;
}

function queryMatches(matcher: Record<string, string | null> | undefined, query: URLSearchParams): boolean {
    if (matcher === undefined) return true;
    return Object.entries(matcher).every(([name, value]) => (value === null ? !query.has(name) : query.get(name) === value));
}

export class FaultTable {
    private faults: FaultSpec[] = [];

    add(fault: FaultSpec): void {
        this.faults.push({ ...fault });
    }

    clear(): void {
        this.faults = [];
    }

    pending(): FaultSpec[] {
        return this.faults.map((fault) => ({ ...fault }));
    }

    /** Consumes one use of the first fault matching the request, if any. */
    take(iface: FaultableInterface, method: string, path: string, query: URLSearchParams = new URLSearchParams()): FaultSpec | undefined {
        const index = this.faults.findIndex(
            (f) =>
                f.interface === iface &&
                (f.method === undefined || f.method === method) &&
                (f.pathPrefix === undefined || path.startsWith(f.pathPrefix)) &&
                queryMatches(f.query, query),
        );
        if (index === -1) return undefined;
        const fault = this.faults[index];
        fault.count -= 1;
        if (fault.count === 0) this.faults.splice(index, 1);
        return { ...fault };
    }
}

/**
 * The answer a fault gives in place of (or, with afterProcessing, instead of the body of) `real`:
 * undefined when the fault changes nothing about the answer (a pure delay).
 */
export function injectedReply(iface: FaultableInterface, fault: FaultSpec, real?: Reply): Reply | undefined {
    if (fault.body !== undefined) {
        const status = fault.status ?? real?.status ?? 200;
        return { status, headers: { "content-type": fault.contentType ?? "application/json" }, body: fault.body };
    }
    return fault.status === undefined ? undefined : faultReply(iface, fault.status, fault.retryAfter);
}

/** A plausible body for an injected status on the given interface. */
export function faultReply(iface: FaultableInterface, status: number, retryAfter = "1"): Reply {
    const reason = STATUS_CODES[status] ?? "Error";
    if (iface === "auth") {
        const error = status === 429 ? "too_many_requests" : status >= 500 ? "temporarily_unavailable" : "invalid_request";
        return jsonReply(status, { error, error_description: reason }, status === 429 ? { "retry-after": retryAfter } : {});
    }
    return jsonReply(status, { message: reason }, status === 429 || status === 503 ? { "retry-after": retryAfter } : {});
}
