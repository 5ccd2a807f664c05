// Injected faults: the next `count` requests matching an interface (and optionally a method and a
// path prefix) are answered with a status, have their connection reset, or are delayed. With
// `afterProcessing: true` the request is first handled normally (a change may be accepted) and
// only the answer is replaced, as when a gateway times out after the coordinator acted.

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
}

const FAULT_KEYS = ["interface", "method", "pathPrefix", "count", "status", "reset", "delayMs", "afterProcessing"];

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
  if (raw.status === undefined && raw.reset !== true && raw.delayMs === undefined) {
    throw new ControlError("a fault needs status, reset or delayMs");
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
  };
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
  take(iface: FaultableInterface, method: string, path: string): FaultSpec | undefined {
    const index = this.faults.findIndex(
      (f) =>
        f.interface === iface &&
        (f.method === undefined || f.method === method) &&
        (f.pathPrefix === undefined || path.startsWith(f.pathPrefix)),
    );
    if (index === -1) return undefined;
    const fault = this.faults[index];
    fault.count -= 1;
    if (fault.count === 0) this.faults.splice(index, 1);
    return { ...fault };
  }
}

/** A plausible body for an injected status on the given interface. */
export function faultReply(iface: FaultableInterface, status: number): Reply {
  const reason = STATUS_CODES[status] ?? "Error";
  if (iface === "auth") {
    const error = status === 429 ? "too_many_requests" : status >= 500 ? "temporarily_unavailable" : "invalid_request";
    return jsonReply(status, { error, error_description: reason }, status === 429 ? { "retry-after": "1" } : {});
  }
  return jsonReply(status, { message: reason }, status === 429 || status === 503 ? { "retry-after": "1" } : {});
}
