// The one set of request-log readings the suites assert with: what the emulator served, by kind.
import type { RequestLogEntry, RunningEmulator } from "../emulator";

export const isDryRun = (entry: RequestLogEntry): boolean => entry.query.dryRun === "true";
const isManagementWrite = (entry: RequestLogEntry): boolean => entry.interface === "management" && entry.method !== "GET";

/** Requests that may change the cluster: POST/PATCH/DELETE to the management API, dry runs excepted. */
export function mutating(requests: readonly RequestLogEntry[]): RequestLogEntry[] {
    return requests.filter((entry) => isManagementWrite(entry) && !isDryRun(entry));
}

/** The dry runs (plans) among the management API's requests. */
export function dryRuns(requests: readonly RequestLogEntry[]): RequestLogEntry[] {
    return requests.filter((entry) => isManagementWrite(entry) && isDryRun(entry));
}

/** Requests that start a change: POST {basePath}/brokers and PATCH {basePath}, dry runs excepted (no cancel). */
export function scaleRequests(requests: readonly RequestLogEntry[]): RequestLogEntry[] {
    return mutating(requests).filter((entry) => entry.method === "POST" || entry.method === "PATCH");
}

export function tokenRequests(requests: readonly RequestLogEntry[]): RequestLogEntry[] {
    return requests.filter((entry) => entry.interface === "auth");
}

/** What the emulator served on one interface (and method), from its log. */
export function requestsTo(emulator: RunningEmulator, iface: RequestLogEntry["interface"], method?: string): RequestLogEntry[] {
    return emulator.control.requests().filter((entry) => entry.interface === iface && (method === undefined || entry.method === method));
}

/** `METHOD path?query status`, for readable assertions. */
export function requestLine(entry: RequestLogEntry): string {
    const query = new URLSearchParams(entry.query).toString();
    return `${entry.method} ${entry.path}${query ? `?${query}` : ""} ${entry.status}`;
}
