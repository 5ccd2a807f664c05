// Cluster's inputs, checked without a request: the name, the creation parameters as a display name or an id (resolved
// by resolve.ts), the optional fields and their rules, the time limit, the cluster to take over, the credentials.

import { z } from "zod";
import { CLUSTER_STAGES } from "../../sdk/adminSchemas";
import { type AdminCredentials, checkAdminCredentials } from "../shared/adminCredentials";
import type { Environment, StackCredentialConfig } from "../shared/credentials";
import { UNKNOWN } from "../shared/unknowns";

export const DEFAULT_CLUSTER_TIMEOUT_SECONDS = 1800;
const MAX_TIMEOUT_SECONDS = 7 * 24 * 3600;
/** The administration API refuses longer names and descriptions. */
const MAX_NAME_LENGTH = 50;
const MAX_DESCRIPTION_LENGTH = 150;

/** The program's inputs, checked (values may be UNKNOWN during a preview); resolve.ts adds the parameters' ids. */
export interface ClusterGiven {
    resourceName: string;
    name: string;
    channel: string;
    region: string;
    planType: string;
    generation?: string;
    description?: string;
    stageLabel?: string;
    autoUpdate?: boolean;
    timeoutSeconds: number;
    existingClusterId?: string;
    credentials: AdminCredentials;
}

const text = (field: string) =>
    z
        .string({ error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be a string`) })
        .trim()
        .min(1, `${field} must not be empty`);

const FIELDS = {
    name: text("name").max(MAX_NAME_LENGTH, `name is longer than the ${MAX_NAME_LENGTH} characters a cluster name may have`),
    channel: text("channel"),
    region: text("region"),
    planType: text("planType"),
    generation: text("generation").optional(),
    description: z
        .string({ error: "description must be a string" })
        .max(MAX_DESCRIPTION_LENGTH, `description is longer than ${MAX_DESCRIPTION_LENGTH} characters`)
        .optional(),
    stageLabel: z.enum(CLUSTER_STAGES, { error: `stageLabel must be one of ${CLUSTER_STAGES.join(", ")}` }).optional(),
    autoUpdate: z.boolean({ error: "autoUpdate must be true or false" }).optional(),
    timeoutSeconds: z
        .number({ error: "timeoutSeconds must be a number" })
        .positive("timeoutSeconds must be more than 0")
        .max(MAX_TIMEOUT_SECONDS, `timeoutSeconds must be at most ${MAX_TIMEOUT_SECONDS} (7 days)`)
        .default(DEFAULT_CLUSTER_TIMEOUT_SECONDS),
    existingClusterId: text("existingClusterId").optional(),
} as const;

export function checkClusterInputs(
    news: Record<string, unknown>,
    config: StackCredentialConfig,
    env: Environment,
): { given?: ClusterGiven; failures: { property: string; reason: string }[] } {
    const failures: { property: string; reason: string }[] = [];
    const values: Record<string, unknown> = {};
    for (const [field, schema] of Object.entries(FIELDS)) {
        const raw = news[field];
        if (raw === UNKNOWN) {
            values[field] = raw;
            continue;
        }
        const checked = (schema as z.ZodType).safeParse(raw === null ? undefined : raw);
        if (checked.success) values[field] = checked.data;
        else failures.push({ property: field, reason: checked.error.issues[0].message });
    }
    const credentials = checkAdminCredentials(news.credentials, config, env, (property, reason) => failures.push({ property, reason }));
    if (failures.length > 0 || credentials === undefined) return { failures };
    const resourceName = typeof news.resourceName === "string" ? news.resourceName : "(unnamed)";
    const given = { resourceName, ...values, credentials } as ClusterGiven;
    for (const key of Object.keys(given) as (keyof ClusterGiven)[]) if (given[key] === undefined) delete given[key];
    return { given, failures };
}
