// ClusterClient's inputs, checked without a request: the cluster, the client's name, its permissions (exactly the
// API's words), the rotation trigger, the time limit, the credentials.

import { z } from "zod";
import { CLUSTER_CLIENT_PERMISSIONS } from "../../sdk/adminSchemas";
import { type AdminCredentials, checkAdminCredentials } from "../shared/adminCredentials";
import type { Environment, StackCredentialConfig } from "../shared/credentials";
import { UNKNOWN, containsUnknown } from "../shared/unknowns";

export const DEFAULT_CLIENT_TIMEOUT_SECONDS = 600;
const MAX_NAME_LENGTH = 50;

export interface ClientInputs {
    resourceName: string;
    clusterId: string;
    clientName: string;
    /** Without repeats, in the API's order. */
    permissions: string[];
    /** Any value; a change replaces the client (a new secret). */
    triggers?: unknown;
    /** A client of this name made outside the stack (an up killed after the create, say) is deleted and made anew. */
    replaceExisting: boolean;
    timeoutSeconds: number;
    credentials: AdminCredentials;
}

const PERMISSIONS: readonly string[] = CLUSTER_CLIENT_PERMISSIONS;

const text = (field: string) =>
    z
        .string({ error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be a string`) })
        .trim()
        .min(1, `${field} must not be empty`);

const clusterIdSchema = text("clusterId");
const clientNameSchema = text("clientName").max(MAX_NAME_LENGTH, `clientName is longer than ${MAX_NAME_LENGTH} characters`);
const timeoutSchema = z
    .number({ error: "timeoutSeconds must be a number" })
    .positive("timeoutSeconds must be more than 0")
    .max(7 * 24 * 3600, "timeoutSeconds must be at most 604800 (7 days)")
    .default(DEFAULT_CLIENT_TIMEOUT_SECONDS);

export function checkClientInputs(
    news: Record<string, unknown>,
    config: StackCredentialConfig,
    env: Environment,
): { inputs?: ClientInputs; failures: { property: string; reason: string }[] } {
    const failures: { property: string; reason: string }[] = [];
    const fail = (property: string, reason: string) => failures.push({ property, reason });
    const field = <T>(name: string, schema: z.ZodType<T>): T => {
        const raw = news[name];
        if (raw === UNKNOWN) return raw as T;
        const checked = schema.safeParse(raw === null ? undefined : raw);
        if (checked.success) return checked.data;
        fail(name, checked.error.issues[0].message);
        return undefined as T;
    };
    const clusterId = field("clusterId", clusterIdSchema);
    const clientName = field("clientName", clientNameSchema);
    const timeoutSeconds = field("timeoutSeconds", timeoutSchema);
    const replaceExisting = field("replaceExisting", z.boolean({ error: "replaceExisting must be true or false" }).default(false));
    const permissions = checkPermissions(news.permissions, fail);
    const credentials = checkAdminCredentials(news.credentials, config, env, fail);
    if (failures.length > 0 || credentials === undefined || permissions === undefined) return { failures };
    const inputs: ClientInputs = {
        resourceName: typeof news.resourceName === "string" ? news.resourceName : "(unnamed)",
        clusterId,
        clientName,
        permissions,
        timeoutSeconds,
        replaceExisting,
        credentials,
    };
    if (news.triggers !== undefined && news.triggers !== null) inputs.triggers = news.triggers;
    return { inputs, failures };
}

/** Default: all five, so that what the client may do never depends on when it was made. */
function checkPermissions(value: unknown, fail: (property: string, reason: string) => void): string[] | undefined {
    if (value === undefined || value === null) return [...PERMISSIONS];
    if (containsUnknown(value)) return value as string[];
    if (!Array.isArray(value) || value.length === 0) {
        fail("permissions", `permissions must list at least one of ${PERMISSIONS.join(", ")} (leave it out for all five)`);
        return undefined;
    }
    let valid = true;
    value.forEach((permission, index) => {
        if (typeof permission === "string" && PERMISSIONS.includes(permission)) return;
        valid = false;
        const cased = typeof permission === "string" ? PERMISSIONS.find((known) => known.toLowerCase() === permission.toLowerCase()) : undefined;
        const shown = typeof permission === "string" && /^[A-Za-z]{1,32}$/.test(permission) ? ` (${permission})` : "";
        fail(
            "permissions",
            `permissions[${index}]${shown} is not a permission${cased ? `: write it as the API does, ${cased}` : ""}: use ${PERMISSIONS.join(", ")}`,
        );
    });
    return valid ? PERMISSIONS.filter((permission) => value.includes(permission)) : undefined;
}
