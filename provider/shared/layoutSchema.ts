// The one declaration of a cluster layout as a program gives it: brokers (ids) or brokerCount, partitionCount,
// replicationFactor, force, and how long to wait. ClusterScale checks its inputs with it, BrokerStatefulSetScaling
// its broker set, and the tests take the limits from it. Values Pulumi does not know yet pass through one wrapper
// (`orUnknown`); each problem becomes a check failure `{ property, reason }` that names the field and the rule.

import { z } from "zod";
import { UNKNOWN } from "./unknowns";

/**
 * Upper limits, far above any real cluster, so that a typo (`brokerCount: 1e9`) is a clear check failure instead
 * of a provider host that runs out of memory. Partitions: the engine's protocol maximum.
 */
export const LIMITS = {
    brokers: 1024,
    brokerId: 65_535,
    partitionCount: 8192,
    /** Seven days: longer waits belong to a later `up`, and Node timers overflow past 24.8 days. */
    timeoutSeconds: 7 * 24 * 3600,
} as const;

export const DEFAULT_TIMEOUT_SECONDS = 1800;

/** The one wrapper for values not known yet (preview): the engine's sentinel passes any field. */
export function orUnknown<T extends z.ZodType>(schema: T) {
    return z.union([z.literal(UNKNOWN), schema]);
}

const integer = (minimum: number, maximum: number) => orUnknown(z.number().int().min(minimum).max(maximum)).nullish();
const flag = orUnknown(z.boolean()).nullish();

export const layoutSchema = z
    .object({
        brokers: z
            .array(orUnknown(z.number().int().min(0).max(LIMITS.brokerId)))
            .min(1)
            .max(LIMITS.brokers)
            .check(
                z.superRefine((ids, ctx) => {
                    const seen = new Set<unknown>();
                    for (const id of ids) {
                        if (typeof id === "number" && seen.has(id))
                            ctx.addIssue({ code: "custom", path: [], message: `broker ${id} is listed twice: broker ids must be unique` });
                        seen.add(id);
                    }
                }),
            )
            .nullish(),
        brokerCount: integer(1, LIMITS.brokers),
        partitionCount: integer(1, LIMITS.partitionCount),
        replicationFactor: integer(1, LIMITS.brokers),
        force: flag,
        cancelOnTimeout: flag,
        timeoutSeconds: orUnknown(z.number().positive().max(LIMITS.timeoutSeconds)).nullish(),
        maxBrokersRemoved: integer(0, LIMITS.brokers),
    })
    .check(
        z.superRefine(
            (layout, ctx) => {
                const given = (value: unknown) => value !== undefined && value !== null;
                if (!given(layout.brokers) && !given(layout.brokerCount)) {
                    ctx.addIssue({
                        code: "custom",
                        path: ["brokers"],
                        message: "give either brokers (the ids of every broker) or brokerCount (brokers 0 … n-1)",
                    });
                } else if (given(layout.brokers) && given(layout.brokerCount)) {
                    ctx.addIssue({ code: "custom", path: ["brokerCount"], message: "give either brokers or brokerCount, not both" });
                }
                const brokers = brokerIdsOf(layout.brokers, layout.brokerCount)?.length;
                const factor = layout.replicationFactor;
                if (typeof factor === "number" && Number.isSafeInteger(factor) && brokers !== undefined && factor > brokers) {
                    ctx.addIssue({
                        code: "custom",
                        path: ["replicationFactor"],
                        message: `replicationFactor ${factor} is more than the ${brokers} broker(s) of the cluster`,
                    });
                }
            },
            { when: () => true },
        ),
    );

/** A layout as checked: known values typed, unknown ones still the sentinel. */
export type LayoutInput = z.output<typeof layoutSchema>;

export interface InputFailure {
    property: string;
    reason: string;
}

/** Checks the layout fields of `raw`; the failures in today's wording, one per problem. */
export function checkLayout(raw: Record<string, unknown>): { layout?: LayoutInput; failures: InputFailure[] } {
    const fields = Object.fromEntries(LAYOUT_FIELDS.filter((field) => raw[field] !== undefined).map((field) => [field, raw[field]]));
    const result = layoutSchema.safeParse(fields);
    if (result.success) return { layout: result.data, failures: [] };
    return { failures: result.error.issues.map((issue) => failureOf(issue, fields)) };
}

const LAYOUT_FIELDS = [
    "brokers",
    "brokerCount",
    "partitionCount",
    "replicationFactor",
    "force",
    "cancelOnTimeout",
    "timeoutSeconds",
    "maxBrokersRemoved",
] as const;

/** The reason of each field's value problem (custom issues carry their own). */
const REASONS: Record<string, (value: unknown) => string> = {
    brokerCount: (value) => `brokerCount is ${JSON.stringify(value)}: it must be an integer ≥ 1 and at most ${LIMITS.brokers}`,
    partitionCount: (value) => `partitionCount is ${JSON.stringify(value)}: it must be an integer ≥ 1 and at most ${LIMITS.partitionCount}`,
    replicationFactor: (value) => `replicationFactor is ${JSON.stringify(value)}: it must be an integer ≥ 1 and at most ${LIMITS.brokers}`,
    force: (value) => `force is ${JSON.stringify(value)}: it must be true or false`,
    cancelOnTimeout: (value) => `cancelOnTimeout is ${JSON.stringify(value)}: it must be true or false`,
    maxBrokersRemoved: (value) => `maxBrokersRemoved is ${JSON.stringify(value)}: it must be an integer ≥ 0 and at most ${LIMITS.brokers}`,
    timeoutSeconds: (value) => `timeoutSeconds is ${JSON.stringify(value)}: it must be a number of seconds > 0 and at most ${LIMITS.timeoutSeconds} (7 days)`,
};

function failureOf(issue: z.core.$ZodIssue, fields: Record<string, unknown>): InputFailure {
    const property = String(issue.path[0] ?? "brokers");
    if (issue.code === "custom") return { property, reason: issue.message };
    const value = fields[property];
    if (property !== "brokers") return { property, reason: REASONS[property](value) };
    const index = issue.path[1];
    if (typeof index === "number") {
        const id = (value as unknown[])[index];
        return { property, reason: `brokers[${index}] is ${JSON.stringify(id)}: every broker id must be an integer ≥ 0 and at most ${LIMITS.brokerId}` };
    }
    if (!Array.isArray(value)) return { property, reason: "brokers must be a list of broker ids" };
    if (value.length === 0) return { property, reason: "brokers must name at least one broker" };
    return { property, reason: `brokers lists ${value.length} ids: a cluster has at most ${LIMITS.brokers} brokers` };
}

/** The broker ids of a `brokers` list or a valid `brokerCount`, ascending; undefined when not (fully) known or not valid. */
export function brokerIdsOf(brokers: unknown, brokerCount: unknown): number[] | undefined {
    if (Array.isArray(brokers)) {
        if (!brokers.every((id): id is number => typeof id === "number")) return undefined;
        return [...new Set(brokers)].sort((a, b) => a - b);
    }
    if (typeof brokerCount === "number" && Number.isSafeInteger(brokerCount) && brokerCount >= 1 && brokerCount <= LIMITS.brokers) {
        return Array.from({ length: brokerCount }, (_, i) => i);
    }
    return undefined;
}
