// The log of requests served on the four platform interfaces (the control API is not logged).
// Token request bodies and Authorization headers are never recorded; query values whose names
// look secret are masked.

export type LoggedInterface = "auth" | "admin" | "management" | "gateway";

export interface RequestLogEntry {
    at: string;
    remoteAddress: string;
    interface: LoggedInterface;
    method: string;
    path: string;
    query: Record<string, string>;
    /** The status answered; 0 when the connection was reset without an answer. */
    status: number;
    /** Parsed JSON body (or the raw text) of mutating management requests. */
    body?: unknown;
}

const SECRET_NAME = /secret|token|password|authorization/i;

export function queryObject(query: URLSearchParams): Record<string, string> {
    const result: Record<string, string> = {};
    for (const [name, value] of query) result[name] = SECRET_NAME.test(name) ? "***" : value;
    return result;
}

export class RequestLog {
    private entries: RequestLogEntry[] = [];

    add(entry: RequestLogEntry): void {
        this.entries.push(entry);
    }

    list(): RequestLogEntry[] {
        return this.entries.map((entry) => structuredClone(entry));
    }

    clear(): void {
        this.entries = [];
    }
}
