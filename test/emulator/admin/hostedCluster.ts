// One cluster of the emulated organization, with its API clients, connector secrets and IP allowlist. Its status
// follows the clock, so no timer runs: `Creating` until the creation time has passed, then the outcome the emulator
// was set to (`Healthy` by default), `Updating` for a while after an upgrade, and gone once a deletion has run its
// time. A status the control API forces wins over all of that.

import { randomBytes, randomUUID } from "node:crypto";
import { NamedRef } from "./parameters";

export const STAGES = ["dev", "test", "stage", "prod"] as const;

export interface ClusterTimings {
    /** How long a new cluster reports `Creating`. */
    createMs: number;
    /** What it reports after that: `Healthy`, or a failure the tests ask for. */
    createOutcome: string;
    /** How long an upgraded cluster reports `Updating`. */
    updateMs: number;
    /** How long a deleted cluster is still listed (and answers GET) before it is gone. */
    deleteMs: number;
    /** How long a deleted connector secret is still listed (the API is eventually consistent). */
    secretDeleteLagMs: number;
}

export interface ClusterSpec {
    name: string;
    channel: NamedRef;
    generation: NamedRef;
    planType: NamedRef;
    region: NamedRef;
    autoUpdate: boolean;
    description?: string;
    stageLabel?: string;
}

export interface ApiClient {
    uuid: string;
    clientId: string;
    clientSecret: string;
    name: string;
    permissions: string[];
}

export interface AllowlistEntry {
    ip: string;
    description: string;
}

export class HostedCluster {
    readonly uuid = randomUUID();
    readonly createdAt: number;
    spec: ClusterSpec;
    forcedStatus: string | undefined;
    readonly clients = new Map<string, ApiClient>();
    readonly secrets = new Map<string, string>();
    /** Secrets deleted, still listed until the given time. */
    readonly deletedSecrets = new Map<string, { value: string; listedUntil: number }>();
    ipallowlist: AllowlistEntry[] = [];
    /** What creation ends with, fixed at creation: a later change of the setting does not change a cluster already being created. */
    private readonly outcome: string;
    private updatingUntil = 0;
    private deletedAt: number | undefined;

    constructor(
        spec: ClusterSpec,
        private readonly timings: () => ClusterTimings,
        now: number,
        /** A cluster made in the console long ago: ready from the start. */
        ready = false,
    ) {
        this.spec = { ...spec };
        this.createdAt = ready ? now - timings().createMs : now;
        this.outcome = ready ? "Healthy" : timings().createOutcome;
    }

    status(now: number): string {
        if (this.forcedStatus !== undefined) return this.forcedStatus;
        if (now < this.createdAt + this.timings().createMs) return "Creating";
        if (now < this.updatingUntil) return "Updating";
        return this.outcome;
    }

    isGone(now: number): boolean {
        return this.deletedAt !== undefined && now >= this.deletedAt + this.timings().deleteMs;
    }

    isDeleting(): boolean {
        return this.deletedAt !== undefined;
    }

    delete(now: number): void {
        this.deletedAt ??= now;
    }

    upgrade(to: NamedRef, now: number): void {
        this.spec.generation = to;
        this.updatingUntil = now + this.timings().updateMs;
    }

    /** The secrets as GET lists them: the live ones and those deleted a moment ago. */
    listedSecrets(now: number): Record<string, string> {
        const listed: Record<string, string> = {};
        for (const [name, { value, listedUntil }] of this.deletedSecrets) {
            if (now < listedUntil) listed[name] = value;
            else this.deletedSecrets.delete(name);
        }
        for (const [name, value] of this.secrets) listed[name] = value;
        return listed;
    }

    deleteSecret(name: string, now: number): boolean {
        const value = this.secrets.get(name);
        if (value === undefined) return false;
        this.secrets.delete(name);
        this.deletedSecrets.set(name, { value, listedUntil: now + this.timings().secretDeleteLagMs });
        return true;
    }

    addClient(name: string, permissions: string[]): ApiClient {
        const client: ApiClient = {
            uuid: randomUUID(),
            clientId: `client-${randomBytes(6).toString("hex")}`,
            clientSecret: `cs-${randomBytes(24).toString("base64url")}`,
            name,
            permissions,
        };
        this.clients.set(client.clientId, client);
        return client;
    }

    /** The host names of the cluster's applications, as the platform makes them. */
    links(): Record<string, string> {
        const region = this.spec.region.uuid.replace(/^region-/, "");
        const host = (app: string) => `https://${region}.${app}.emulated.example/${this.uuid}`;
        return {
            zeebe: `${this.uuid}.${region}.zeebe.emulated.example:443`,
            operate: host("operate"),
            tasklist: host("tasklist"),
            optimize: host("optimize"),
            connectors: host("connectors"),
            console: `https://console.emulated.example/org/clusters/${this.uuid}`,
        };
    }
}
