// The world the organization soak runs in: the emulator's administration API (a Cluster created fast, the token
// issuer without its spacing), one stack of the `hosted` fixture program through test/engine, the web console's
// changes (made through the emulator's control and the administration API, outside the stack), and what the soak
// reads back for its invariants.

import { mkdtempSync, rmSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { AdminApiClient } from "../../../sdk/adminApiClient";
import { type RunningEmulator, startEmulator } from "../../emulator";
import type { Member } from "../../emulator";
import { AdminRun, AdminStack, CLIENT, platformConfig } from "../../provider/adminClientSupport";
import type { OrganizationProgram, OutsideChange } from "./steps";
import { SECRET_VALUES } from "./steps";

/** The organization before the first step: the owner and two people no program of the soak declares. */
export const ORGANIZATION: Member[] = [
    { name: "Ada Lovelace", email: "ada@example.com", roles: ["owner"], invitePending: false },
    { name: "Grace Hopper", email: "grace@example.com", roles: ["admin"], invitePending: false },
    { name: "", email: "alan@example.com", roles: ["developer"], invitePending: true },
];

/** The secret config keys of the values, one per value: their plain text must never show outside the secret store. */
export const SECRET_CONFIG: Record<string, string> = Object.fromEntries(
    SECRET_VALUES.map((value, index) => [value, `connector-${index}-${value}-${process.pid}`]),
);

export const SETTINGS = {
    opMs: 10,
    rateLimitBlockSeconds: 0,
    clients: [CLIENT],
    members: ORGANIZATION,
    seats: 20,
    clusterCreateMs: 300,
    clusterCreateOutcome: "Healthy",
    clusterUpdateMs: 50,
    clusterDeleteMs: 50,
};

export class OrganizationWorld {
    private emulator: RunningEmulator | undefined;
    private dir = "";
    private stack: AdminStack | undefined;
    /** The texts every run of the soak produced, for the leak scan. */
    readonly runs: AdminRun[] = [];

    constructor(readonly server: { clusterLabels: boolean; invitationName: "empty" | "email" }) {}

    async start(): Promise<void> {
        const settings = { ...SETTINGS, ...this.server };
        this.emulator = await startEmulator(settings);
        this.emulator.control.reset(settings);
        this.dir = mkdtempSync(join(tmpdir(), "organization-soak-"));
        this.stack = new AdminStack(
            () => this.running(),
            () => this.dir,
        );
    }

    async stop(): Promise<void> {
        await this.emulator?.close();
        if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    }

    get control() {
        return this.running().control;
    }

    get stateFile(): string {
        return this.stackOf().stateFile;
    }

    get tokenCacheDir(): string {
        return this.stackOf().tokenCacheDir;
    }

    /** One operation of the stack with this program (killed ones in processes of their own, the rest in this process). */
    async run(
        command: "preview" | "up" | "refresh",
        program: OrganizationProgram,
        options: { signal?: AbortSignal; onLine?: (line: string) => void; clusterTimeoutSeconds?: number } = {},
    ): Promise<AdminRun> {
        const { config, secrets } = platformConfig(this.running());
        const spec = {
            cluster: {
                name: program.cluster.name,
                channel: "Stable",
                region: "Belgium, Europe (europe-west1)",
                planType: "Basic",
                stageLabel: program.cluster.stageLabel,
                ...(program.cluster.description !== undefined ? { description: program.cluster.description } : {}),
                ...(program.cluster.existingClusterId !== undefined ? { existingClusterId: program.cluster.existingClusterId } : {}),
                ...(options.clusterTimeoutSeconds !== undefined ? { timeoutSeconds: options.clusterTimeoutSeconds } : {}),
            },
            clients: program.clients,
            secrets: program.secrets.map(({ name, secretName, value, adoptExisting }) => ({ name, secretName, valueKey: value, adoptExisting })),
            allowlists: [{ name: "allowlist", entries: program.allowlist }],
            members: program.members,
        };
        const run = await this.stackOf().run(command, {
            program: "hosted",
            config: { ...config, spec: JSON.stringify(spec) },
            secrets: { ...secrets, ...SECRET_CONFIG },
            signal: options.signal,
            onLine: options.onLine,
        });
        this.runs.push(run);
        return run;
    }

    /** A change made in the web console: to a member, a client, a secret's value or the allowlist of the stack's cluster. */
    async changeOutside(change: OutsideChange, program: OrganizationProgram): Promise<string> {
        const control = this.control;
        const cluster = control.hostedClusters().find((each) => !each.deleting);
        switch (change) {
            case "memberRemoved":
            case "roleChanged": {
                const declared = program.members[0];
                if (declared === undefined) return "nothing to change: no member declared";
                const members = control.members();
                const others = members.filter((member) => member.email !== declared.email);
                const changed = members.find((member) => member.email === declared.email);
                if (change === "memberRemoved" || changed === undefined) control.updateSettings({ members: others });
                else control.updateSettings({ members: [...others, { ...changed, roles: ["visitor"] }] });
                return `${declared.email} ${change === "memberRemoved" ? "removed" : "made visitor"}`;
            }
            case "clientDeleted": {
                const client = cluster?.clients.find((each) => program.clients.some((declared) => declared.clientName === each.name));
                if (cluster === undefined || client === undefined) return "nothing to change: no client";
                control.removeHostedClusterClient(cluster.id, client.clientId);
                return `client ${client.name} deleted`;
            }
            case "secretChanged": {
                const secret = program.secrets[0];
                if (cluster === undefined || secret === undefined) return "nothing to change: no secret";
                control.setConnectorSecret(cluster.id, secret.secretName, "changed-in-the-console");
                return `secret ${secret.secretName} given another value`;
            }
            case "allowlistEdited": {
                if (cluster === undefined) return "nothing to change: no cluster";
                await this.adminApi().setIpAllowlist(cluster.id, [{ ip: "203.0.113.9", description: "added in the console" }]);
                return "allowlist replaced";
            }
        }
    }

    private adminApi(): AdminApiClient {
        const emulator = this.running();
        return new AdminApiClient({
            baseUrl: emulator.baseUrl,
            token: {
                clientId: CLIENT.clientId,
                clientSecret: CLIENT.clientSecret,
                authUrl: emulator.authUrl,
                cacheDir: join(this.dir, "console-tokens"),
                env: {},
            },
        });
    }

    private running(): RunningEmulator {
        if (this.emulator === undefined) throw new Error("the soak's world is not started");
        return this.emulator;
    }

    private stackOf(): AdminStack {
        if (this.stack === undefined) throw new Error("the soak's world is not started");
        return this.stack;
    }
}
