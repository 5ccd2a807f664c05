// Wires the emulated platform together: one cluster, four platform interfaces (token issuer,
// administration API, management API, gateway) each on its own loopback port, and the control API.
// Requests to the platform interfaces pass through fault injection and the request log.

import { setTimeout as sleep } from "node:timers/promises";
import { createAdminApi } from "./admin/adminApi";
import { HostedClusterView, Organization } from "./admin/organization";
import { HostedCluster } from "./admin/hostedCluster";
import { PARAMETERS, channelById, generationById, refById } from "./admin/parameters";
import { Cluster } from "./cluster";
import { InitialLayout } from "./clusterState";
import { EmulatorControl, NewHostedCluster, OutageInterface, ResetBody, SettingsBody, createControlApi } from "./controlApi";
import { FaultSpec, FaultTable, FaultableInterface, injectedReply, parseFault } from "./faults";
import { PARTITION_HEALTH, PartitionHealth, createGatewayApi } from "./gatewayApi";
import { Answer, Call, Dispatcher, InterfaceListener, RESET, Reply, jsonReply } from "./httpServer";
import { JwtSigner } from "./jwt";
import { brokersJson, topologyJson } from "./managementJson";
import { DEFAULT_BASE_PATH, createManagementApi } from "./managementApi";
import { TokenRateLimiter } from "./rateLimiter";
import { RequestLog, RequestLogEntry, queryObject } from "./requestLog";
import {
    ControlError,
    DEFAULT_LAYOUT,
    DEFAULT_SETTINGS,
    Member,
    Settings,
    parseResetRequest,
    parseSettingsPatch,
    publicSettings,
    validateLayout,
} from "./settings";
import { TOKEN_PATH, createTokenIssuer } from "./tokenIssuer";

export interface EmulatorOptions extends ResetBody {
    /** 0 (default): free ports; N: auth N, admin N+1, management N+2, gateway N+3, control N+4. */
    port?: number;
    /** Base path of the management API (default /actuator/cluster). */
    managementBasePath?: string;
}

export interface EmulatorUrls {
    /** The full token endpoint. */
    authUrl: string;
    /** The administration API base (members at `${baseUrl}/members`). */
    baseUrl: string;
    /** Origin of the management port. */
    managementUrl: string;
    /** Origin of the gateway REST port. */
    gatewayUrl: string;
    controlUrl: string;
}

const PLATFORM_INTERFACES = ["auth", "admin", "management", "gateway"] as const;

function brokerRange(count: number): number[] {
    return Array.from({ length: count }, (_, i) => i);
}

function assertBrokerId(id: number): void {
    if (!Number.isSafeInteger(id) || id < 0) throw new ControlError("broker id must be a non-negative integer");
}

export class PlatformEmulator implements EmulatorControl {
    private settingsNow: Settings;
    private readonly startupSettings: Settings;
    private readonly startupLayout: InitialLayout;
    readonly cluster: Cluster;
    private readonly log = new RequestLog();
    private readonly faults = new FaultTable();
    private readonly signer = new JwtSigner();
    private readonly limiter = new TokenRateLimiter(() => this.settingsNow.rateLimitBlockSeconds);
    private readonly listeners: Record<FaultableInterface | "control", InterfaceListener>;
    /** The organization behind the administration API: its members and hosted clusters. */
    readonly organization: Organization;

    private constructor(options: EmulatorOptions) {
        const { port: _port, managementBasePath, ...resetBody } = options;
        const startup = parseResetRequest(resetBody);
        this.startupLayout = { ...DEFAULT_LAYOUT, ...startup.layout };
        validateLayout(this.startupLayout);
        this.startupSettings = { ...DEFAULT_SETTINGS, ...startup.settings };
        this.settingsNow = this.startupSettings;
        this.cluster = new Cluster(this.startupLayout, startup.running ?? brokerRange(this.startupLayout.brokers), () => this.settingsNow.opMs);

        const settings = (): Settings => this.settingsNow;
        const issuer = (): string => this.urls().authUrl;
        this.organization = new Organization(
            () => this.settingsNow,
            () => {
                const { clusterCreateMs, clusterCreateOutcome, clusterUpdateMs, clusterDeleteMs, secretDeleteLagMs } = this.settingsNow;
                return {
                    createMs: clusterCreateMs,
                    createOutcome: clusterCreateOutcome,
                    updateMs: clusterUpdateMs,
                    deleteMs: clusterDeleteMs,
                    secretDeleteLagMs,
                };
            },
        );
        this.organization.setMembers(this.settingsNow.members);
        const admin = createAdminApi({
            organization: this.organization,
            signer: this.signer,
            issuer,
            ipAllowlistFeature: () => this.settingsNow.ipAllowlistFeature,
            clusterLabels: () => this.settingsNow.clusterLabels,
            invitationName: () => this.settingsNow.invitationName,
        });
        const basePath = managementBasePath ?? DEFAULT_BASE_PATH;
        if (!/^(\/[^/?#]+)+$/.test(basePath)) throw new ControlError("managementBasePath must look like /a/b");
        this.listeners = {
            auth: new InterfaceListener("auth", this.platform("auth", createTokenIssuer({ settings, signer: this.signer, limiter: this.limiter, issuer }))),
            admin: new InterfaceListener("admin", this.platform("admin", admin)),
            management: new InterfaceListener("management", this.platform("management", createManagementApi({ cluster: this.cluster, settings, basePath }))),
            gateway: new InterfaceListener("gateway", this.platform("gateway", createGatewayApi(this.cluster, settings))),
            control: new InterfaceListener("control", createControlApi(this)),
        };
    }

    static async start(options: EmulatorOptions = {}): Promise<PlatformEmulator> {
        const emulator = new PlatformEmulator(options);
        const base = options.port ?? 0;
        if (!Number.isInteger(base) || base < 0 || base > 65530) throw new ControlError("port must be 0 or a port number");
        const order = [...PLATFORM_INTERFACES, "control"] as const;
        try {
            for (const [offset, name] of order.entries()) {
                await emulator.listeners[name].listen(base === 0 ? 0 : base + offset);
            }
        } catch (error) {
            await emulator.close();
            throw error;
        }
        return emulator;
    }

    urls(): EmulatorUrls {
        return {
            authUrl: `${this.listeners.auth.url}${TOKEN_PATH}`,
            baseUrl: this.listeners.admin.url,
            managementUrl: this.listeners.management.url,
            gatewayUrl: this.listeners.gateway.url,
            controlUrl: this.listeners.control.url,
        };
    }

    async close(): Promise<void> {
        this.cluster.close();
        await Promise.all(Object.values(this.listeners).map((listener) => listener.close()));
    }

    // ---- EmulatorControl ----

    reset(body?: ResetBody): void {
        const request = parseResetRequest(body);
        const layout = { ...this.startupLayout, ...request.layout };
        validateLayout(layout);
        this.settingsNow = { ...this.startupSettings, ...request.settings };
        this.cluster.reset(layout, request.running ?? brokerRange(layout.brokers));
        this.organization.clear();
        this.organization.setMembers(this.settingsNow.members);
        this.log.clear();
        this.faults.clear();
        this.limiter.clear();
    }

    requests(): RequestLogEntry[] {
        return this.log.list();
    }

    members(): Member[] {
        return this.organization.listMembers();
    }

    hostedClusters(): HostedClusterView[] {
        return this.organization.view(Date.now());
    }

    addHostedCluster(cluster: NewHostedCluster): string {
        if (typeof cluster?.name !== "string" || cluster.name === "") throw new ControlError("a hosted cluster needs a name");
        const channel = channelById(cluster.channelId ?? "channel-stable");
        const planType = refById(PARAMETERS.clusterPlanTypes, cluster.planTypeId ?? "plan-basic");
        const region = refById(PARAMETERS.regions, cluster.regionId ?? "region-bel");
        if (channel === undefined || planType === undefined || region === undefined) throw new ControlError("unknown channelId, planTypeId or regionId");
        const generation = generationById(channel, cluster.generationId ?? channel.defaultGeneration.uuid);
        if (generation === undefined) throw new ControlError("generationId is not allowed on that channel");
        const spec = {
            name: cluster.name,
            channel: { uuid: channel.uuid, name: channel.name },
            generation,
            planType,
            region,
            autoUpdate: true,
            description: cluster.description,
            stageLabel: cluster.stageLabel,
        };
        return this.organization.createCluster(spec, Date.now(), cluster.ready !== false).uuid;
    }

    setHostedClusterStatus(clusterId: string, status: string | null): void {
        this.hostedCluster(clusterId).forcedStatus = status ?? undefined;
    }

    removeHostedClusterClient(clusterId: string, clientId: string): void {
        if (!this.hostedCluster(clusterId).clients.delete(clientId)) throw new ControlError(`no client ${clientId}`);
    }

    setConnectorSecret(clusterId: string, name: string, value: string | null): void {
        const cluster = this.hostedCluster(clusterId);
        if (value === null) cluster.secrets.delete(name);
        else cluster.secrets.set(name, value);
    }

    private hostedCluster(clusterId: string): HostedCluster {
        const cluster = this.organization.clusters.get(clusterId);
        if (cluster === undefined) throw new ControlError(`no hosted cluster ${clusterId}`);
        return cluster;
    }

    clearRequests(): void {
        this.log.clear();
    }

    setPartitionHealth(brokerId: number, partitionId: number, health: PartitionHealth | null): void {
        assertBrokerId(brokerId);
        if (!Number.isSafeInteger(partitionId) || partitionId < 1) throw new ControlError("partition id must be a positive integer");
        if (health !== null && !PARTITION_HEALTH.includes(health)) throw new ControlError(`health must be one of ${PARTITION_HEALTH.join(", ")}, or null`);
        this.cluster.setPartitionHealth(brokerId, partitionId, health ?? undefined);
    }

    stopBroker(id: number): void {
        assertBrokerId(id);
        this.cluster.stopBroker(id);
    }

    startBroker(id: number): void {
        assertBrokerId(id);
        this.cluster.startBroker(id);
    }

    replicasOf(id: number): { partitionId: number; installed: boolean }[] | undefined {
        const member = this.cluster.config.members.get(id);
        if (member === undefined || member.status === "LEFT") return undefined;
        return [...member.partitions].map(([partitionId, partition]) => ({ partitionId, installed: partition.status === "ACTIVE" }));
    }

    onChange(listener: () => void): () => void {
        return this.cluster.onChange(listener);
    }

    addFault(fault: FaultSpec): void {
        this.faults.add(parseFault(fault));
    }

    clearFaults(): void {
        this.faults.clear();
    }

    updateSettings(settings: SettingsBody): object {
        const patch = parseSettingsPatch(settings);
        this.settingsNow = { ...this.settingsNow, ...patch };
        if (patch.members !== undefined) this.organization.setMembers(patch.members);
        return this.settings();
    }

    settings(): object {
        return publicSettings(this.settingsNow);
    }

    async outage(iface: OutageInterface, ms: number): Promise<void> {
        if (!PLATFORM_INTERFACES.includes(iface)) throw new ControlError(`interface must be one of ${PLATFORM_INTERFACES.join(", ")}`);
        if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0) throw new ControlError("ms must be a non-negative number");
        const listener = this.listeners[iface];
        if (listener.isDown()) throw new ControlError(`the ${iface} interface is already down`);
        await listener.outage(ms);
    }

    state(): object {
        const config = this.cluster.config;
        const { version, lastChange, pendingChange, routing } = topologyJson(config, this.settingsNow.release) as Record<string, unknown>;
        return {
            version,
            members: brokersJson(config).sort((a, b) => a.id - b.id),
            ...(lastChange !== undefined && { lastChange }),
            ...(pendingChange !== undefined && { pendingChange }),
            ...(this.cluster.stuckReason !== undefined && { stuckReason: this.cluster.stuckReason }),
            routing,
            running: this.cluster.runningBrokers(),
            acceptedChanges: this.cluster.acceptedChanges,
            settings: this.settings(),
            faults: this.faults.pending(),
            rateLimitedAddresses: this.limiter.blocked(Date.now()),
            interfacesDown: PLATFORM_INTERFACES.filter((name) => this.listeners[name].isDown()),
        };
    }

    // ---- request pipeline ----

    private platform(iface: FaultableInterface, handler: (call: Call) => Reply | Promise<Reply>): Dispatcher {
        return async (call) => {
            const fault = this.faults.take(iface, call.method, call.path, call.query);
            if (fault?.delayMs) await sleep(fault.delayMs, undefined, { ref: false });
            const injected = (real?: Reply): Answer | undefined => (fault?.reset ? RESET : fault && injectedReply(iface, fault, real));
            let answer: Answer;
            if (fault && !fault.afterProcessing && injected() !== undefined) {
                answer = injected()!;
            } else {
                const real = await this.handleSafely(handler, call);
                answer = fault?.afterProcessing ? (injected(real) ?? real) : real;
            }
            this.log.add(this.logEntry(iface, call, answer === RESET ? 0 : answer.status));
            return answer;
        };
    }

    /** An emulator bug answers 500 (and is logged) instead of taking the process down. */
    private async handleSafely(handler: (call: Call) => Reply | Promise<Reply>, call: Call): Promise<Reply> {
        try {
            return await handler(call);
        } catch (error) {
            return jsonReply(500, { message: `Emulator error: ${error instanceof Error ? error.message : String(error)}` });
        }
    }

    private logEntry(iface: FaultableInterface, call: Call, status: number): RequestLogEntry {
        const entry: RequestLogEntry = {
            at: new Date(call.receivedAt).toISOString(),
            remoteAddress: call.remoteAddress,
            interface: iface,
            method: call.method,
            path: call.path,
            query: queryObject(call.query),
            status,
        };
        // Management and administration bodies are recorded, never a token request's (it carries the client secret);
        // a connector secret's value is masked.
        if ((iface === "management" || iface === "admin") && call.method !== "GET" && call.method !== "HEAD" && call.body.length > 0) {
            const text = call.body.toString("utf8");
            try {
                entry.body = maskSecretValues(JSON.parse(text) as unknown);
            } catch {
                entry.body = iface === "admin" ? "(not JSON)" : text;
            }
        }
        return entry;
    }
}

/** The body with the value of every field named like a secret (secretValue, clientSecret) masked. */
function maskSecretValues(body: unknown): unknown {
    if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
    return Object.fromEntries(Object.entries(body).map(([key, value]) => [key, /secret(Value)?$|password/i.test(key) ? "***" : value]));
}
