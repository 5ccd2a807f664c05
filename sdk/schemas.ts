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
    "PRE_SCALING",
    "POST_SCALING",
    "UPDATE_ROUTING_STATE",
    "DELETE_HISTORY",
    "UPDATE_INCARNATION_NUMBER",
    "PARTITION_DELETE_EXPORTER",
] as const;

/** `string & {}` keeps a union open without collapsing it into `string` for editors. */
export type Open = string & {};

/** A partition replica's Raft role as the gateway reports it (8.9: leader, follower, inactive), open to new ones. */
export type PartitionRole = "leader" | "follower" | "inactive" | Open;
/** A partition replica's health as the gateway reports it (8.9: healthy, unhealthy, dead), open to new ones. */
export type PartitionHealth = "healthy" | "unhealthy" | "dead" | Open;

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

// Null is read as absent, yet only a null pays for it: the union's first option takes every value the
// server sends (it omits null fields), so no transform runs on them. A transform on every value would
// add half again to the cost of decoding a dry run of thousands of operations.

/** A list; absent and null read as empty. */
export function listOf<T extends z.ZodType>(item: T) {
    return z.union([z.array(item), z.null().transform((): z.output<T>[] => [])]).default(() => []);
}

/** An optional field; null reads as absent. */
export function optionalOf<T extends z.ZodType>(schema: T) {
    return z.union([schema, z.null().transform(() => undefined)]).optional();
}

// The two shapes that come by the thousand (a replica of every partition on every broker, an operation of every plan)
// are compiled by zod (z.compile): the first decode of a large dry run takes about 20 ms instead of 48, and each one
// after it about a sixth less. Anything the compiled parser does not accept goes through zod's interpreter, which gives
// the same result or the error. Compiling takes a few milliseconds, so it happens at the first decode: a provider host
// that decodes nothing (a Check that sends no request) does not pay for it.
function compiledAtFirstUse<T extends z.ZodType>(schema: T) {
    return z.lazy(() => z.compile(schema));
}

/** A timestamp as sent (absent, null or text) in epoch milliseconds: null when absent or not recognised. */
export function epochMsOf(raw: string | null | undefined): number | null {
    return raw === undefined || raw === null ? null : parseTimestamp(raw);
}

export const timestampSchema = z
    .string()
    .nullish()
    .transform((raw): Timestamp => ({ raw: raw ?? null, epochMs: epochMsOf(raw) }));

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
// Cluster management API

export const exporterSchema = z.object({ id: z.string(), state: z.string() });

export const partitionConfigSchema = z.object({
    exporting: optionalOf(z.object({ exporters: listOf(exporterSchema) })),
});

export const partitionStateSchema = compiledAtFirstUse(
    z.object({
        id: id(),
        state: z.string(),
        priority: z.number().int(),
        config: optionalOf(partitionConfigSchema),
    }),
);

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

/** An entry of plannedChanges and pendingChange.pending (compiled, as partitionStateSchema). */
export const operationSchema = compiledAtFirstUse(z.object(operationFields));

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

/**
 * GET {basePath} as a wait reads it while its change runs (see ClusterClient.readChange): the change records, and of the
 * running change only the completion stamps as sent and the pending operations left undecoded. A large change's answer
 * holds thousands of operations and is read every few hundred milliseconds: decoding it whole on every poll was most of
 * a waiting host's CPU and filled its old heap with the copies.
 */
export const changeProgressSchema = z.object({
    lastChange: optionalOf(changeRecordSchema),
    pendingChange: optionalOf(
        z.object({
            id: id(),
            completed: listOf(z.object({ completedAt: z.string().nullish() })),
            pending: listOf(z.unknown()),
        }),
    ),
});

/** GET {basePath} and the body of a successful cancel. */
export const clusterStateSchema = z.object({
    version: z.number().int(),
    brokers: listOf(brokerStateSchema),
    lastChange: optionalOf(changeRecordSchema),
    pendingChange: optionalOf(pendingChangeSchema),
    clusterId: optionalOf(z.string()),
});

/** The 202 body of POST {basePath}/brokers and PATCH {basePath}. */
export const changePlanSchema = z.object({
    changeId: id(),
    currentTopology: listOf(brokerStateSchema),
    plannedChanges: listOf(operationSchema),
    expectedTopology: listOf(brokerStateSchema),
});

// ---------------------------------------------------------------------------------------------------
// Gateway topology

/** Any text, typed as the open union of the values known today. */
export function openText<T extends string>() {
    return z.string() as unknown as z.ZodType<T>;
}

export const topologyPartitionSchema = z.object({ partitionId: id(), role: openText<PartitionRole>(), health: openText<PartitionHealth>() });

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
    /** 8.9 and later; null (read as absent) while the gateway does not know it yet. */
    clusterId: optionalOf(z.string()),
    clusterSize: z.number().int(),
    partitionsCount: z.number().int(),
    replicationFactor: z.number().int(),
    gatewayVersion: optionalOf(z.string()),
    lastCompletedChangeId: changeIdTextSchema,
});

// ---------------------------------------------------------------------------------------------------
// Types

export type TokenResponse = z.output<typeof tokenResponseSchema>;
export type Exporter = z.output<typeof exporterSchema>;
export type PartitionState = z.output<typeof partitionStateSchema>;
export type BrokerState = z.output<typeof brokerStateSchema>;
export type Operation = z.output<typeof operationSchema>;
export type CompletedOperation = z.output<typeof completedOperationSchema>;
export type ChangeRecord = z.output<typeof changeRecordSchema>;
export type PendingChange = z.output<typeof pendingChangeSchema>;
export type ClusterState = z.output<typeof clusterStateSchema>;
/** The answer to a scale request (202): the change id, the topology now, the planned operations and the expected topology. */
export type ChangePlan = z.output<typeof changePlanSchema>;
export type TopologyBroker = z.output<typeof topologyBrokerSchema>;
export type GatewayTopology = z.output<typeof gatewayTopologySchema>;

// ---------------------------------------------------------------------------------------------------
// Decoding

/** A decoder for decodeJsonBody: validates and describes at most three problems, never echoing values. */
export function decoder<T extends z.ZodType>(name: string, schema: T): (data: unknown) => DecodeResult<z.output<T>> {
    return (data) => {
        const result = schema.safeParse(data);
        if (result.success) return { ok: true, value: result.data };
        const issues = innermostIssues(result.error.issues, []);
        const problems = issues.slice(0, 3).map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
        const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : "";
        return { ok: false, problem: `${name} does not match the expected shape: ${problems.join("; ")}${more}` };
    };
}

/**
 * The issues with a union's replaced by those of its first option: every union above puts the shape the server
 * sends first (the others read null), so its issues say what is wrong where, not merely "Invalid input".
 */
function innermostIssues(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[]): { path: PropertyKey[]; message: string }[] {
    return issues.flatMap((issue) => {
        const path = [...prefix, ...issue.path];
        if (issue.code === "invalid_union" && issue.errors.length > 0) return innermostIssues(issue.errors[0], path);
        return [{ path, message: issue.message }];
    });
}

function formatPath(path: readonly PropertyKey[]): string {
    if (path.length === 0) return "(root)";
    return path.map((part, index) => (typeof part === "number" ? `[${part}]` : `${index === 0 ? "" : "."}${String(part)}`)).join("");
}
