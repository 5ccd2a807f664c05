// zod schemas of every response of the four interfaces, and the types inferred from them.
//
// Schemas are built by factory functions, never at module level, because Pulumi's closure serializer
// cannot capture a built zod schema. Built schemas are memoized on globalThis (see `cachedSchema`).
//
// Lenient where the platform varies between releases: absent and empty lists alike, unknown fields
// dropped, operation and state names accepted as any string, timestamps in every observed format.
// Strict where a wrong value would mislead: ids, versions and counts must be integers.

import { z } from "zod";
import type { DecodeResult } from "./http";

/** Operation names known today; servers add new ones in every minor release, so any string is accepted. */
export const KNOWN_OPERATIONS = [
  "BROKER_ADD",
  "BROKER_REMOVE",
  "PARTITION_JOIN",
  "PARTITION_LEAVE",
  "PARTITION_RECONFIGURE_PRIORITY",
  "PARTITION_FORCE_RECONFIGURE",
  "PARTITION_BOOTSTRAP",
  "START_PARTITION_SCALE_UP",
  "AWAIT_REDISTRIBUTION",
  "AWAIT_RELOCATION",
] as const;

/**
 * A timestamp as sent by the server and as epoch milliseconds. `epochMs` is null when the value is
 * absent, an "unset" sentinel (year 0, year 1, or the 8.4 minimum `-999999999-01-01T00:00:00+18:00`)
 * or in a format not recognised; `raw` keeps the original text.
 */
export interface Timestamp {
  raw: string | null;
  epochMs: number | null;
}

const TIMESTAMP_PATTERN =
  /^([+-]?\d{4,9})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** Parses ISO 8601 / RFC 3339 timestamps with any fraction length and `Z`, `+00:00` or `+0000` offsets. */
export function parseTimestamp(raw: string): number | null {
  const match = TIMESTAMP_PATTERN.exec(raw.trim());
  if (!match) return null;
  const [, yearText, monthText, dayText, hourText, minuteText, secondText, fraction, offset] = match;
  const year = Number(yearText);
  if (year <= 1) return null;
  const [month, day, hour, minute, second] = [monthText, dayText, hourText, minuteText, secondText ?? "0"].map(Number);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return null;
  const millis = fraction ? Number(fraction.slice(0, 3).padEnd(3, "0")) : 0;
  const utc = Date.UTC(year, month - 1, day, hour, minute, Math.min(second, 59), millis);
  return utc - offsetMinutes(offset) * 60_000;
}

function offsetMinutes(offset: string | undefined): number {
  if (offset === undefined || offset.toUpperCase() === "Z") return 0;
  const sign = offset.startsWith("-") ? -1 : 1;
  const digits = offset.slice(1).replace(":", "");
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || "0"));
}

// ---------------------------------------------------------------------------------------------------
// Building blocks

function id() {
  return z.number().int();
}

function listOf<T extends z.ZodType>(item: T) {
  return z
    .array(item)
    .nullish()
    .transform((value): z.output<T>[] => value ?? []);
}

function optionalOf<T extends z.ZodType>(schema: T) {
  return schema
    .nullish()
    .transform((value): z.output<T> | undefined => (value === null ? undefined : value));
}

export function timestampSchema() {
  return z
    .string()
    .nullish()
    .transform((raw): Timestamp => ({ raw: raw ?? null, epochMs: raw === undefined || raw === null ? null : parseTimestamp(raw) }));
}

// ---------------------------------------------------------------------------------------------------
// Token issuer

export function tokenResponseSchema() {
  return z.object({
    access_token: z.string().min(1),
    expires_in: z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]).pipe(z.number().positive()),
    refresh_expires_in: optionalOf(z.number()),
    token_type: optionalOf(z.string()),
    "not-before-policy": optionalOf(z.number()),
  });
}

// ---------------------------------------------------------------------------------------------------
// Administration API

export function memberSchema() {
  return z.object({
    name: z.string(),
    email: z.string(),
    roles: listOf(z.string()),
    invitePending: z
      .boolean()
      .nullish()
      .transform((value) => value ?? false),
  });
}

export function memberListSchema() {
  return z.array(memberSchema());
}

// ---------------------------------------------------------------------------------------------------
// Cluster management API

export function exporterSchema() {
  return z.object({ id: z.string(), state: z.string() });
}

export function partitionConfigSchema() {
  return z.object({
    exporting: optionalOf(z.object({ exporters: listOf(exporterSchema()) })),
  });
}

export function partitionStateSchema() {
  return z.object({
    id: id(),
    state: z.string(),
    priority: z.number().int(),
    config: optionalOf(partitionConfigSchema()),
  });
}

export function brokerStateSchema() {
  return z.object({
    id: id(),
    state: z.string(),
    version: z.number().int(),
    lastUpdatedAt: timestampSchema(),
    partitions: listOf(partitionStateSchema()),
  });
}

function operationFields() {
  return {
    operation: z.string().min(1),
    brokerId: optionalOf(id()),
    partitionId: optionalOf(id()),
    priority: optionalOf(z.number().int()),
    brokers: listOf(id()),
    exporterId: optionalOf(z.string()),
  };
}

/** An entry of plannedChanges and pendingChange.pending. */
export function operationSchema() {
  return z.object(operationFields());
}

/** An entry of pendingChange.completed. */
export function completedOperationSchema() {
  return z.object({ ...operationFields(), completedAt: timestampSchema() });
}

/** lastChange: the last change that ended (COMPLETED, CANCELLED, ...). */
export function changeRecordSchema() {
  return z.object({
    id: id(),
    status: z.string(),
    startedAt: timestampSchema(),
    completedAt: timestampSchema(),
  });
}

/** pendingChange: the change running now. */
export function pendingChangeSchema() {
  return z.object({
    id: id(),
    status: z.string(),
    completed: listOf(completedOperationSchema()),
    pending: listOf(operationSchema()),
  });
}

/** GET {basePath} and the body of a successful cancel. */
export function clusterStateSchema() {
  return z.object({
    version: z.number().int(),
    brokers: listOf(brokerStateSchema()),
    lastChange: optionalOf(changeRecordSchema()),
    pendingChange: optionalOf(pendingChangeSchema()),
    clusterId: optionalOf(z.string()),
  });
}

/** The 202 body of POST {basePath}/brokers and PATCH {basePath}. */
export function plannedChangeSchema() {
  return z.object({
    changeId: id(),
    currentTopology: listOf(brokerStateSchema()),
    plannedChanges: listOf(operationSchema()),
    expectedTopology: listOf(brokerStateSchema()),
  });
}

// ---------------------------------------------------------------------------------------------------
// Gateway topology

export function topologyPartitionSchema() {
  return z.object({ partitionId: id(), role: z.string(), health: z.string() });
}

export function topologyBrokerSchema() {
  return z.object({
    nodeId: id(),
    host: z.string(),
    port: z.number().int(),
    partitions: listOf(topologyPartitionSchema()),
    version: optionalOf(z.string()),
  });
}

/**
 * lastCompletedChangeId is sent as a string. Parsed to a number; null when no change completed yet
 * ("-1" or ""), undefined when the gateway does not report it (releases before 8.8).
 */
export function changeIdTextSchema() {
  return z
    .union([z.string().regex(/^\s*-?\d*\s*$/, "expected a change id (digits)"), z.number().int()])
    .optional()
    .transform((value): number | null | undefined => {
      if (value === undefined) return undefined;
      const text = String(value).trim();
      if (text === "") return null;
      const parsed = Number(text);
      return parsed < 0 ? null : parsed;
    });
}

export function gatewayTopologySchema() {
  return z.object({
    brokers: listOf(topologyBrokerSchema()),
    clusterSize: z.number().int(),
    partitionsCount: z.number().int(),
    replicationFactor: z.number().int(),
    gatewayVersion: optionalOf(z.string()),
    lastCompletedChangeId: changeIdTextSchema(),
  });
}

// ---------------------------------------------------------------------------------------------------
// Types

export type TokenResponse = z.output<ReturnType<typeof tokenResponseSchema>>;
export type Member = z.output<ReturnType<typeof memberSchema>>;
export type Exporter = z.output<ReturnType<typeof exporterSchema>>;
export type PartitionState = z.output<ReturnType<typeof partitionStateSchema>>;
export type BrokerState = z.output<ReturnType<typeof brokerStateSchema>>;
export type Operation = z.output<ReturnType<typeof operationSchema>>;
export type CompletedOperation = z.output<ReturnType<typeof completedOperationSchema>>;
export type ChangeRecord = z.output<ReturnType<typeof changeRecordSchema>>;
export type PendingChange = z.output<ReturnType<typeof pendingChangeSchema>>;
export type ClusterState = z.output<ReturnType<typeof clusterStateSchema>>;
export type PlannedChange = z.output<ReturnType<typeof plannedChangeSchema>>;
export type TopologyBroker = z.output<ReturnType<typeof topologyBrokerSchema>>;
export type GatewayTopology = z.output<ReturnType<typeof gatewayTopologySchema>>;

// ---------------------------------------------------------------------------------------------------
// Decoding

/**
 * Builds a schema once per process. The memo lives on globalThis, not in a module variable, so that
 * the serialized copies of this module never capture a built schema.
 */
export function cachedSchema<T extends z.ZodType>(name: string, build: () => T): T {
  // The key is made here, not in a module constant: the closure serializer cannot capture symbols.
  const key = Symbol.for("pulumi-platform.schemas.v1");
  const holder = globalThis as unknown as Record<symbol, Map<string, z.ZodType> | undefined>;
  const cache = (holder[key] ??= new Map<string, z.ZodType>());
  const existing = cache.get(name);
  if (existing) return existing as T;
  const schema = build();
  cache.set(name, schema);
  return schema;
}

/** A decoder for decodeJsonBody: validates and describes at most three problems, never echoing values. */
export function decoder<T extends z.ZodType>(name: string, build: () => T): (data: unknown) => DecodeResult<z.output<T>> {
  return (data) => {
    const result = cachedSchema(name, build).safeParse(data);
    if (result.success) return { ok: true, value: result.data };
    const problems = result.error.issues.slice(0, 3).map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
    const more = result.error.issues.length > 3 ? ` (and ${result.error.issues.length - 3} more)` : "";
    return { ok: false, problem: `${name} does not match the expected shape: ${problems.join("; ")}${more}` };
  };
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "(root)";
  return path.map((part, index) => (typeof part === "number" ? `[${part}]` : `${index === 0 ? "" : "."}${String(part)}`)).join("");
}
