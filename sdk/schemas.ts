// zod schemas of every response of the four interfaces, and the types inferred from them.
//
// Lenient where the platform varies between releases: absent and empty lists alike, unknown fields
// dropped, operation and state names accepted as any string, timestamps in every observed format.
// Strict where a wrong value would mislead: ids, versions and counts must be integers.

import { z } from "zod";
import type { DecodeResult } from "./http/request";

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

/**
 * Parses ISO 8601 / RFC 3339 timestamps: years of 4 to 9 digits, `T`, `t` or a space between date and
 * time, optional seconds, fractions of any length, and `Z`, `+00:00`, `+0000`, `+00` or no offset (UTC).
 * Returns null for anything else and for the "unset" years 0 and 1 and below.
 */
export function parseTimestamp(raw: string): number | null {
    // A scanner rather than a regular expression: a long change's GET carries thousands of completedAt
    // stamps, decoded on every poll, and a regular expression match allocates a dozen strings per stamp.
    const text = raw.trim();
    const signed = text.startsWith("+") || text.startsWith("-");
    const yearStart = signed ? 1 : 0;
    let at = yearStart;
    while (isDigitAt(text, at)) at++;
    if (at - yearStart < 4 || at - yearStart > 9) return null;
    const year = (text.startsWith("-") ? -1 : 1) * digitsValue(text, yearStart, at);
    // Fixed width from here: -MM-DDTHH:MM
    const separator = text[at + 6];
    if (text[at] !== "-" || text[at + 3] !== "-" || (separator !== "T" && separator !== "t" && separator !== " ") || text[at + 9] !== ":") {
        return null;
    }
    const month = twoDigitsAt(text, at + 1);
    const day = twoDigitsAt(text, at + 4);
    const hour = twoDigitsAt(text, at + 7);
    const minute = twoDigitsAt(text, at + 10);
    at += 12;
    let second = 0;
    let millis = 0;
    if (text[at] === ":") {
        second = twoDigitsAt(text, at + 1);
        at += 3;
        if (text[at] === "." || text[at] === ",") {
            const fractionStart = ++at;
            while (isDigitAt(text, at)) at++;
            if (at === fractionStart) return null;
            const millisDigits = Math.min(3, at - fractionStart);
            millis = digitsValue(text, fractionStart, fractionStart + millisDigits) * 10 ** (3 - millisDigits);
        }
    }
    while (at < text.length && text.charAt(at).trim() === "") at++;
    const offset = offsetMinutesAt(text, at);
    if (year <= 1 || Number.isNaN(offset)) return null;
    if (month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 60) {
        return null;
    }
    const utc = Date.UTC(year, month - 1, day, hour, minute, Math.min(second, 59), millis) - offset * 60_000;
    return Number.isFinite(utc) ? utc : null;
}

function isDigitAt(text: string, at: number): boolean {
    const code = text.charCodeAt(at);
    return code >= 48 && code <= 57;
}

/** The value of the decimal digits text[from..to), which the caller has checked. */
function digitsValue(text: string, from: number, to: number): number {
    let value = 0;
    for (let at = from; at < to; at++) value = value * 10 + (text.charCodeAt(at) - 48);
    return value;
}

/** The two-digit number at `at`, or -1. */
function twoDigitsAt(text: string, at: number): number {
    return isDigitAt(text, at) && isDigitAt(text, at + 1) ? digitsValue(text, at, at + 2) : -1;
}

/** The UTC offset in minutes that ends the text from `at` (none, Z, +HH, +HHMM, +HH:MM), or NaN. */
function offsetMinutesAt(text: string, at: number): number {
    if (at === text.length) return 0;
    const sign = text[at];
    if (sign === "Z" || sign === "z") return at + 1 === text.length ? 0 : NaN;
    if (sign !== "+" && sign !== "-") return NaN;
    const hours = twoDigitsAt(text, at + 1);
    let minutesAt = at + 3;
    let minutes = 0;
    if (minutesAt < text.length) {
        if (text[minutesAt] === ":") minutesAt++;
        minutes = twoDigitsAt(text, minutesAt);
        minutesAt += 2;
    }
    if (hours < 0 || minutes < 0 || minutesAt < text.length) return NaN;
    return (sign === "-" ? -1 : 1) * (hours * 60 + minutes);
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
    return schema.nullish().transform((value): z.output<T> | undefined => (value === null ? undefined : value));
}

export const timestampSchema = z
    .string()
    .nullish()
    .transform((raw): Timestamp => ({ raw: raw ?? null, epochMs: raw === undefined || raw === null ? null : parseTimestamp(raw) }));

// ---------------------------------------------------------------------------------------------------
// Token issuer

export const tokenResponseSchema = z.object({
    access_token: z.string().min(1),
    expires_in: z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]).pipe(z.number().positive()),
    refresh_expires_in: optionalOf(z.number()),
    token_type: optionalOf(z.string()),
    "not-before-policy": optionalOf(z.number()),
});

// ---------------------------------------------------------------------------------------------------
// Administration API

export const memberSchema = z.object({
    name: z.string(),
    email: z.string(),
    roles: listOf(z.string()),
    invitePending: z
        .boolean()
        .nullish()
        .transform((value) => value ?? false),
});

export const memberListSchema = z.array(memberSchema);

// ---------------------------------------------------------------------------------------------------
// Cluster management API

export const exporterSchema = z.object({ id: z.string(), state: z.string() });

export const partitionConfigSchema = z.object({
    exporting: optionalOf(z.object({ exporters: listOf(exporterSchema) })),
});

export const partitionStateSchema = z.object({
    id: id(),
    state: z.string(),
    priority: z.number().int(),
    config: optionalOf(partitionConfigSchema),
});

export const brokerStateSchema = z.object({
    id: id(),
    state: z.string(),
    version: z.number().int(),
    lastUpdatedAt: timestampSchema,
    partitions: listOf(partitionStateSchema),
});

const operationFields = {
    operation: z.string().min(1),
    brokerId: optionalOf(id()),
    partitionId: optionalOf(id()),
    priority: optionalOf(z.number().int()),
    brokers: listOf(id()),
    exporterId: optionalOf(z.string()),
};

/** An entry of plannedChanges and pendingChange.pending. */
export const operationSchema = z.object(operationFields);

/** An entry of pendingChange.completed. */
export const completedOperationSchema = z.object({ ...operationFields, completedAt: timestampSchema });

/** lastChange: the last change that ended (COMPLETED, CANCELLED, ...). */
export const changeRecordSchema = z.object({
    id: id(),
    status: z.string(),
    startedAt: timestampSchema,
    completedAt: timestampSchema,
});

/** pendingChange: the change running now. */
export const pendingChangeSchema = z.object({
    id: id(),
    status: z.string(),
    completed: listOf(completedOperationSchema),
    pending: listOf(operationSchema),
});

const clusterStateShape = z.object({
    version: z.number().int(),
    brokers: listOf(brokerStateSchema),
    lastChange: optionalOf(changeRecordSchema),
    pendingChange: optionalOf(pendingChangeSchema),
    clusterId: optionalOf(z.string()),
});

/** GET {basePath} and the body of a successful cancel; decoded by a fast path first (see below). */
export const clusterStateSchema = z.withParser(clusterStateShape, (input) => fastClusterState(input) ?? z.INVALID);

const changePlanShape = z.object({
    changeId: id(),
    currentTopology: listOf(brokerStateSchema),
    plannedChanges: listOf(operationSchema),
    expectedTopology: listOf(brokerStateSchema),
});

/** The 202 body of POST {basePath}/brokers and PATCH {basePath}; decoded by a fast path first (see below). */
export const changePlanSchema = z.withParser(changePlanShape, (input) => fastChangePlan(input) ?? z.INVALID);

// ---------------------------------------------------------------------------------------------------
// Gateway topology

export const topologyPartitionSchema = z.object({ partitionId: id(), role: z.string(), health: z.string() });

export const topologyBrokerSchema = z.object({
    nodeId: id(),
    host: z.string(),
    port: z.number().int(),
    partitions: listOf(topologyPartitionSchema),
    version: optionalOf(z.string()),
});

/**
 * lastCompletedChangeId is sent as a string. Parsed to a number; null when no change completed yet
 * ("-1" or ""), undefined when the gateway does not report it (releases before 8.8).
 */
export const changeIdTextSchema = z
    .union([z.string().regex(/^\s*-?\d*\s*$/, "expected a change id (digits)"), z.number().int()])
    .optional()
    .transform((value): number | null | undefined => {
        if (value === undefined) return undefined;
        const text = String(value).trim();
        if (text === "") return null;
        const parsed = Number(text);
        return parsed < 0 ? null : parsed;
    });

export const gatewayTopologySchema = z.object({
    brokers: listOf(topologyBrokerSchema),
    clusterSize: z.number().int(),
    partitionsCount: z.number().int(),
    replicationFactor: z.number().int(),
    gatewayVersion: optionalOf(z.string()),
    lastCompletedChangeId: changeIdTextSchema,
});

// ---------------------------------------------------------------------------------------------------
// Types

export type TokenResponse = z.output<typeof tokenResponseSchema>;
export type Member = z.output<typeof memberSchema>;
export type Exporter = z.output<typeof exporterSchema>;
type PartitionConfig = z.output<typeof partitionConfigSchema>;
export type PartitionState = z.output<typeof partitionStateSchema>;
export type BrokerState = z.output<typeof brokerStateSchema>;
export type Operation = z.output<typeof operationSchema>;
export type CompletedOperation = z.output<typeof completedOperationSchema>;
export type ChangeRecord = z.output<typeof changeRecordSchema>;
export type PendingChange = z.output<typeof pendingChangeSchema>;
export type ClusterState = z.output<typeof clusterStateShape>;
/** The answer to a scale request (202): the change id, the topology now, the planned operations and the expected topology. */
export type ChangePlan = z.output<typeof changePlanShape>;
export type TopologyBroker = z.output<typeof topologyBrokerSchema>;
export type GatewayTopology = z.output<typeof gatewayTopologySchema>;

// ---------------------------------------------------------------------------------------------------
// Fast paths of the large answers
//
// A dry run of thousands of operations, and the GET polled while a long change runs, are decoded first
// by the hand-written parsers below: plain loops that allocate little beyond the result, a fraction of
// the cost of zod's interpreter, and fast from the first call of a process. They produce exactly what
// the schemas above produce (test/sdk/schemas.spec.ts compares both on every sample and on many
// variations) and give up, returning undefined, at anything irregular: zod then decodes the answer or
// reports what is wrong with it. A field added to a schema must be added here too.

type Fields = Record<string, unknown>;

function fieldsOf(value: unknown): Fields | undefined {
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Fields) : undefined;
}

function integerOrUndefined(value: unknown): number | undefined {
    return typeof value === "number" && Number.isSafeInteger(value) ? value : undefined;
}

function stringOrUndefined(value: unknown): string | undefined {
    return typeof value === "string" ? value : undefined;
}

/** As listOf: absent and null are empty. Undefined when an entry does not decode. */
function fastList<T>(value: unknown, decodeEntry: (entry: unknown) => T | undefined): T[] | undefined {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) return undefined;
    // Sized up front: pushing would give every short list a backing store of 17 entries.
    const result = new Array<T>(value.length);
    for (let index = 0; index < value.length; index++) {
        const decoded = decodeEntry(value[index]);
        if (decoded === undefined) return undefined;
        result[index] = decoded;
    }
    return result;
}

/** As optionalOf: an absent field stays absent, null becomes undefined. False when the value does not decode. */
function fastOptional(from: Fields, to: Fields, key: string, decode: (value: unknown) => unknown): boolean {
    const value = from[key];
    if (value === undefined || value === null) {
        if (key in from) to[key] = undefined;
        return true;
    }
    const decoded = decode(value);
    to[key] = decoded;
    return decoded !== undefined;
}

function fastTimestamp(value: unknown): Timestamp | undefined {
    if (value === undefined || value === null) return { raw: null, epochMs: null };
    return typeof value === "string" ? { raw: value, epochMs: parseTimestamp(value) } : undefined;
}

function fastExporter(value: unknown): Exporter | undefined {
    const fields = fieldsOf(value);
    if (fields === undefined || typeof fields.id !== "string" || typeof fields.state !== "string") return undefined;
    return { id: fields.id, state: fields.state };
}

function fastExporting(value: unknown): PartitionConfig["exporting"] {
    const fields = fieldsOf(value);
    const exporters = fields && fastList(fields.exporters, fastExporter);
    return exporters && { exporters };
}

function fastPartitionConfig(value: unknown): PartitionConfig | undefined {
    const fields = fieldsOf(value);
    const config: Fields = {};
    return fields !== undefined && fastOptional(fields, config, "exporting", fastExporting) ? (config as PartitionConfig) : undefined;
}

function fastPartition(value: unknown): PartitionState | undefined {
    const fields = fieldsOf(value);
    if (fields === undefined) return undefined;
    const id = integerOrUndefined(fields.id);
    const state = stringOrUndefined(fields.state);
    const priority = integerOrUndefined(fields.priority);
    if (id === undefined || state === undefined || priority === undefined) return undefined;
    const partition: Fields = { id, state, priority };
    return fastOptional(fields, partition, "config", fastPartitionConfig) ? (partition as PartitionState) : undefined;
}

function fastBroker(value: unknown): BrokerState | undefined {
    const fields = fieldsOf(value);
    if (fields === undefined) return undefined;
    const id = integerOrUndefined(fields.id);
    const state = stringOrUndefined(fields.state);
    const version = integerOrUndefined(fields.version);
    const lastUpdatedAt = fastTimestamp(fields.lastUpdatedAt);
    const partitions = fastList(fields.partitions, fastPartition);
    if (id === undefined || state === undefined || version === undefined || lastUpdatedAt === undefined || partitions === undefined) {
        return undefined;
    }
    return { id, state, version, lastUpdatedAt, partitions };
}

/** The fields of operationFields, in their order. */
function fastOperationFields(fields: Fields): Fields | undefined {
    const operation = stringOrUndefined(fields.operation);
    if (operation === undefined || operation.length === 0) return undefined;
    const result: Fields = { operation };
    if (
        !fastOptional(fields, result, "brokerId", integerOrUndefined) ||
        !fastOptional(fields, result, "partitionId", integerOrUndefined) ||
        !fastOptional(fields, result, "priority", integerOrUndefined)
    ) {
        return undefined;
    }
    const brokers = fastList(fields.brokers, integerOrUndefined);
    if (brokers === undefined) return undefined;
    result.brokers = brokers;
    return fastOptional(fields, result, "exporterId", stringOrUndefined) ? result : undefined;
}

function fastOperation(value: unknown): Operation | undefined {
    const fields = fieldsOf(value);
    return (fields && fastOperationFields(fields)) as Operation | undefined;
}

function fastCompletedOperation(value: unknown): CompletedOperation | undefined {
    const fields = fieldsOf(value);
    const operation = fields && fastOperationFields(fields);
    const completedAt = fields && fastTimestamp(fields.completedAt);
    if (operation === undefined || completedAt === undefined) return undefined;
    operation.completedAt = completedAt;
    return operation as CompletedOperation;
}

function fastChangeRecord(value: unknown): ChangeRecord | undefined {
    const fields = fieldsOf(value);
    if (fields === undefined) return undefined;
    const id = integerOrUndefined(fields.id);
    const status = stringOrUndefined(fields.status);
    const startedAt = fastTimestamp(fields.startedAt);
    const completedAt = fastTimestamp(fields.completedAt);
    if (id === undefined || status === undefined || startedAt === undefined || completedAt === undefined) return undefined;
    return { id, status, startedAt, completedAt };
}

function fastPendingChange(value: unknown): PendingChange | undefined {
    const fields = fieldsOf(value);
    if (fields === undefined) return undefined;
    const id = integerOrUndefined(fields.id);
    const status = stringOrUndefined(fields.status);
    const completed = fastList(fields.completed, fastCompletedOperation);
    const pending = fastList(fields.pending, fastOperation);
    if (id === undefined || status === undefined || completed === undefined || pending === undefined) return undefined;
    return { id, status, completed, pending };
}

export function fastClusterState(value: unknown): ClusterState | undefined {
    const fields = fieldsOf(value);
    if (fields === undefined) return undefined;
    const version = integerOrUndefined(fields.version);
    const brokers = fastList(fields.brokers, fastBroker);
    if (version === undefined || brokers === undefined) return undefined;
    const state: Fields = { version, brokers };
    const complete =
        fastOptional(fields, state, "lastChange", fastChangeRecord) &&
        fastOptional(fields, state, "pendingChange", fastPendingChange) &&
        fastOptional(fields, state, "clusterId", stringOrUndefined);
    return complete ? (state as ClusterState) : undefined;
}

export function fastChangePlan(value: unknown): ChangePlan | undefined {
    const fields = fieldsOf(value);
    if (fields === undefined) return undefined;
    const changeId = integerOrUndefined(fields.changeId);
    const currentTopology = fastList(fields.currentTopology, fastBroker);
    const plannedChanges = fastList(fields.plannedChanges, fastOperation);
    const expectedTopology = fastList(fields.expectedTopology, fastBroker);
    if (changeId === undefined || currentTopology === undefined || plannedChanges === undefined || expectedTopology === undefined) {
        return undefined;
    }
    return { changeId, currentTopology, plannedChanges, expectedTopology };
}

// ---------------------------------------------------------------------------------------------------
// Decoding

/** A decoder for decodeJsonBody: validates and describes at most three problems, never echoing values. */
export function decoder<T extends z.ZodType>(name: string, schema: T): (data: unknown) => DecodeResult<z.output<T>> {
    return (data) => {
        const result = schema.safeParse(data);
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
