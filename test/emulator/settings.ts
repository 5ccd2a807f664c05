// Everything about the emulator that can be tuned at start, through PUT /settings or through
// POST /reset, with validation of the JSON bodies that carry them.

import { InitialLayout } from "./clusterState";

export interface ClientCredentials {
    clientId: string;
    clientSecret: string;
    audience: string;
}

export interface Member {
    name: string;
    email: string;
    roles: string[];
    invitePending: boolean;
}

/**
 * The platform release the management API and the gateway answer as: 8.9 (the newest release line) plans scale
 * changes between PRE_SCALING and POST_SCALING and reports the cluster id; 8.8 does neither.
 */
export type Release = "8.8" | "8.9";

export const RELEASES: readonly Release[] = ["8.8", "8.9"];

export interface Settings {
    release: Release;
    /** Time each operation of a change takes. */
    opMs: number;
    tokenLifetimeSeconds: number;
    /** How long an address that exceeded the token rate limit stays blocked; 0 disables the limit. */
    rateLimitBlockSeconds: number;
    clients: ClientCredentials[];
    members: Member[];
    /** false makes PATCH answer 405, like a server older than the PATCH endpoint. */
    patchSupported: boolean;
    /** The brokers' partition-scaling feature switch. */
    partitionScaling: boolean;
    /** The administration API: members and pending invitations the organization has room for; null: no limit. */
    seats: number | null;
    /** How long a new hosted cluster reports Creating, and what it reports then (Healthy, or a failure to try). */
    clusterCreateMs: number;
    clusterCreateOutcome: string;
    /** How long an upgraded cluster reports Updating, and how long a deleted one is still found. */
    clusterUpdateMs: number;
    clusterDeleteMs: number;
    /** How long a deleted connector secret is still listed (the API is eventually consistent). */
    secretDeleteLagMs: number;
    clientLimit: number;
    secretLimit: number;
    /** Whether the organization has the IP allowlist feature (clusters show `ipallowlist` only then). */
    ipAllowlistFeature: boolean;
    /**
     * Where the reference is silent, the other ways the API may answer: `true` shows a cluster's stage label among its
     * `labels`; `false` answers clusters without `labels` at all (the OpenAPI Cluster has no stageLabel field).
     */
    clusterLabels: boolean;
    /** How a pending invitation is listed: name `""`, or the invited email as its name (the API leaves it undocumented). */
    invitationName: "empty" | "email";
}

export const DEMO_CLIENT: ClientCredentials = { clientId: "demo-client", clientSecret: "demo-secret", audience: "127.0.0.1" };

export const DEFAULT_MEMBERS: Member[] = [
    { name: "Ada Lovelace", email: "ada@example.com", roles: ["owner"], invitePending: false },
    { name: "Grace Hopper", email: "grace@example.com", roles: ["admin", "operationsengineer"], invitePending: false },
    { name: "Alan Turing", email: "alan@example.com", roles: ["developer"], invitePending: true },
];

export const DEFAULT_SETTINGS: Settings = {
    release: "8.9",
    opMs: 200,
    tokenLifetimeSeconds: 300,
    rateLimitBlockSeconds: 10,
    clients: [DEMO_CLIENT],
    members: DEFAULT_MEMBERS,
    patchSupported: true,
    partitionScaling: false,
    seats: null,
    clusterCreateMs: 1_000,
    clusterCreateOutcome: "Healthy",
    clusterUpdateMs: 500,
    clusterDeleteMs: 300,
    secretDeleteLagMs: 300,
    clientLimit: 50,
    secretLimit: 100,
    ipAllowlistFeature: true,
    clusterLabels: true,
    invitationName: "empty",
};

export const DEFAULT_LAYOUT: InitialLayout = { brokers: 3, partitions: 3, replicationFactor: 3 };

/** A control request that cannot be applied; answered 400 by the control API. */
export class ControlError extends Error {}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
    return typeof value === "object" && value !== null && !Array.isArray(value);
}

function nonNegativeNumber(body: Json, key: string): number | undefined {
    const value = body[key];
    if (value === undefined) return undefined;
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
        throw new ControlError(`${key} must be a non-negative number`);
    }
    return value;
}

function positiveInteger(body: Json, key: string): number | undefined {
    const value = body[key];
    if (value === undefined) return undefined;
    if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > 8192) {
        throw new ControlError(`${key} must be an integer between 1 and 8192`);
    }
    return value as number;
}

function boolean(body: Json, key: string): boolean | undefined {
    const value = body[key];
    if (value === undefined) return undefined;
    if (typeof value !== "boolean") throw new ControlError(`${key} must be a boolean`);
    return value;
}

function clients(value: unknown): ClientCredentials[] {
    if (!Array.isArray(value)) throw new ControlError("clients must be an array");
    return value.map((entry, i) => {
        if (!isObject(entry) || typeof entry.clientId !== "string" || typeof entry.clientSecret !== "string" || typeof entry.audience !== "string") {
            throw new ControlError(`clients[${i}] must have string clientId, clientSecret and audience`);
        }
        return { clientId: entry.clientId, clientSecret: entry.clientSecret, audience: entry.audience };
    });
}

function members(value: unknown): Member[] {
    if (!Array.isArray(value)) throw new ControlError("members must be an array");
    return value.map((entry, i) => {
        if (
            !isObject(entry) ||
            typeof entry.name !== "string" ||
            typeof entry.email !== "string" ||
            !Array.isArray(entry.roles) ||
            !entry.roles.every((role) => typeof role === "string") ||
            typeof entry.invitePending !== "boolean"
        ) {
            throw new ControlError(`members[${i}] must have string name and email, string[] roles and boolean invitePending`);
        }
        return { name: entry.name, email: entry.email, roles: [...(entry.roles as string[])], invitePending: entry.invitePending };
    });
}

const ADMIN_DURATION_KEYS = ["clusterCreateMs", "clusterUpdateMs", "clusterDeleteMs", "secretDeleteLagMs"] as const;
const ADMIN_LIMIT_KEYS = ["clientLimit", "secretLimit"] as const;
const CLUSTER_OUTCOMES = ["Healthy", "Unhealthy", "WaitingForInput", "Suspended", "Maintenance"];
const SETTING_KEYS = [
    "release",
    "opMs",
    "tokenLifetimeSeconds",
    "rateLimitBlockSeconds",
    "clients",
    "members",
    "patchSupported",
    "partitionScaling",
    "seats",
    "clusterCreateOutcome",
    "ipAllowlistFeature",
    "clusterLabels",
    "invitationName",
    ...ADMIN_DURATION_KEYS,
    ...ADMIN_LIMIT_KEYS,
];
const LAYOUT_KEYS = ["brokers", "partitions", "replicationFactor", "running"];

function rejectUnknownKeys(body: Json, allowed: string[]): void {
    const unknown = Object.keys(body).filter((key) => !allowed.includes(key));
    if (unknown.length > 0) throw new ControlError(`unknown field(s): ${unknown.join(", ")}`);
}

function settingsFrom(body: Json): Partial<Settings> {
    const patch: Partial<Settings> = {};
    if (body.release !== undefined) {
        if (!RELEASES.includes(body.release as Release)) throw new ControlError(`release must be one of ${RELEASES.join(", ")}`);
        patch.release = body.release as Release;
    }
    const opMs = nonNegativeNumber(body, "opMs");
    if (opMs !== undefined) patch.opMs = opMs;
    const lifetime = nonNegativeNumber(body, "tokenLifetimeSeconds");
    if (lifetime !== undefined && !Number.isInteger(lifetime)) throw new ControlError("tokenLifetimeSeconds must be an integer");
    if (lifetime !== undefined) patch.tokenLifetimeSeconds = lifetime;
    const block = nonNegativeNumber(body, "rateLimitBlockSeconds");
    if (block !== undefined) patch.rateLimitBlockSeconds = block;
    if (body.clients !== undefined) patch.clients = clients(body.clients);
    if (body.members !== undefined) patch.members = members(body.members);
    const patchSupported = boolean(body, "patchSupported");
    if (patchSupported !== undefined) patch.patchSupported = patchSupported;
    const partitionScaling = boolean(body, "partitionScaling");
    if (partitionScaling !== undefined) patch.partitionScaling = partitionScaling;
    if (body.seats !== undefined) {
        if (body.seats !== null && (!Number.isInteger(body.seats) || (body.seats as number) < 0))
            throw new ControlError("seats must be a non-negative integer or null");
        patch.seats = body.seats as number | null;
    }
    for (const key of ADMIN_DURATION_KEYS) {
        const value = nonNegativeNumber(body, key);
        if (value !== undefined) patch[key] = value;
    }
    for (const key of ADMIN_LIMIT_KEYS) {
        const value = nonNegativeNumber(body, key);
        if (value !== undefined && !Number.isInteger(value)) throw new ControlError(`${key} must be an integer`);
        if (value !== undefined) patch[key] = value;
    }
    if (body.clusterCreateOutcome !== undefined) {
        if (!CLUSTER_OUTCOMES.includes(body.clusterCreateOutcome as string))
            throw new ControlError(`clusterCreateOutcome must be one of ${CLUSTER_OUTCOMES.join(", ")}`);
        patch.clusterCreateOutcome = body.clusterCreateOutcome as string;
    }
    const ipAllowlistFeature = boolean(body, "ipAllowlistFeature");
    if (ipAllowlistFeature !== undefined) patch.ipAllowlistFeature = ipAllowlistFeature;
    const clusterLabels = boolean(body, "clusterLabels");
    if (clusterLabels !== undefined) patch.clusterLabels = clusterLabels;
    if (body.invitationName !== undefined) {
        if (body.invitationName !== "empty" && body.invitationName !== "email") throw new ControlError('invitationName must be "empty" or "email"');
        patch.invitationName = body.invitationName;
    }
    return patch;
}

/** Body of PUT /settings: any subset of the settings. */
export function parseSettingsPatch(body: unknown): Partial<Settings> {
    if (!isObject(body)) throw new ControlError("settings must be a JSON object");
    rejectUnknownKeys(body, SETTING_KEYS);
    return settingsFrom(body);
}

export interface ResetRequest {
    layout: Partial<InitialLayout>;
    running?: number[];
    settings: Partial<Settings>;
}

/** Body of POST /reset: layout fields, optional running broker ids, and any settings. */
export function parseResetRequest(body: unknown): ResetRequest {
    if (body === undefined) return { layout: {}, settings: {} };
    if (!isObject(body)) throw new ControlError("reset body must be a JSON object");
    rejectUnknownKeys(body, [...LAYOUT_KEYS, ...SETTING_KEYS]);
    const layout: Partial<InitialLayout> = {};
    const brokers = positiveInteger(body, "brokers");
    if (brokers !== undefined) layout.brokers = brokers;
    const partitions = positiveInteger(body, "partitions");
    if (partitions !== undefined) layout.partitions = partitions;
    const replicationFactor = positiveInteger(body, "replicationFactor");
    if (replicationFactor !== undefined) layout.replicationFactor = replicationFactor;
    let running: number[] | undefined;
    if (body.running !== undefined) {
        if (!Array.isArray(body.running) || !body.running.every((id) => Number.isInteger(id) && (id as number) >= 0)) {
            throw new ControlError("running must be an array of non-negative integer broker ids");
        }
        running = body.running as number[];
    }
    return { layout, running, settings: settingsFrom(body) };
}

export function validateLayout(layout: InitialLayout): void {
    if (layout.replicationFactor > layout.brokers) {
        throw new ControlError(`replicationFactor (${layout.replicationFactor}) cannot exceed the number of brokers (${layout.brokers})`);
    }
}

/** Settings as the control API shows them: client secrets are never echoed. */
export function publicSettings(settings: Settings): object {
    return {
        ...settings,
        clients: settings.clients.map(({ clientId, audience }) => ({ clientId, audience })),
    };
}
