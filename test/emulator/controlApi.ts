// The control API (JSON over loopback) that tests and tools use to steer the emulator. It maps
// HTTP requests onto the EmulatorControl handle that startEmulator also returns in-process.

import { FaultSpec } from "./faults";
import type { PartitionHealth } from "./gatewayApi";
import { Call, Reply, jsonReply } from "./httpServer";
import { RequestLogEntry } from "./requestLog";
import { ClientCredentials, ControlError, Member, Release } from "./settings";
import type { HostedClusterView } from "./admin/organization";

/** A cluster the control API adds: names or ids of the creation parameters (default: Stable, Basic, Belgium, the channel's default generation). */
export interface NewHostedCluster {
    name: string;
    channelId?: string;
    generationId?: string;
    planTypeId?: string;
    regionId?: string;
    description?: string;
    stageLabel?: string;
    ready?: boolean;
}

export type OutageInterface = "auth" | "admin" | "management" | "gateway";

/** Body of POST /reset: the initial layout, optionally which brokers run, and any settings. */
export interface ResetBody {
    /** The platform release the emulator answers as (default 8.9). */
    release?: Release;
    brokers?: number;
    partitions?: number;
    replicationFactor?: number;
    running?: number[];
    partitionScaling?: boolean;
    opMs?: number;
    tokenLifetimeSeconds?: number;
    rateLimitBlockSeconds?: number;
    clients?: ClientCredentials[];
    members?: Member[];
    patchSupported?: boolean;
    seats?: number | null;
    clusterCreateMs?: number;
    clusterCreateOutcome?: string;
    clusterUpdateMs?: number;
    clusterDeleteMs?: number;
    secretDeleteLagMs?: number;
    clientLimit?: number;
    secretLimit?: number;
    ipAllowlistFeature?: boolean;
    clusterLabels?: boolean;
    invitationName?: "empty" | "email";
}

export type SettingsBody = Omit<ResetBody, "brokers" | "partitions" | "replicationFactor" | "running">;

/** Every input is validated at run time too; invalid input throws ControlError. */
export interface EmulatorControl {
    reset(body?: ResetBody): void;
    requests(): RequestLogEntry[];
    clearRequests(): void;
    /** The organization's members and pending invitations, as the administration API lists them. */
    members(): Member[];
    /** The organization's hosted clusters with their clients (secrets included), connector secrets and allowlists. */
    hostedClusters(): HostedClusterView[];
    /** A cluster made outside any stack (in the web console), ready from the start unless `ready` is false; returns its id. */
    addHostedCluster(cluster: NewHostedCluster): string;
    /** Forces the status a cluster reports (null: its own again). */
    setHostedClusterStatus(clusterId: string, status: string | null): void;
    /** Deletes an API client outside any stack. */
    removeHostedClusterClient(clusterId: string, clientId: string): void;
    /** Sets (or with null deletes at once) a connector secret outside any stack. */
    setConnectorSecret(clusterId: string, name: string, value: string | null): void;
    stopBroker(id: number): void;
    startBroker(id: number): void;
    /** The broker's replicas in the configuration, each installed (ACTIVE) or not; undefined when it is no member. */
    replicasOf(id: number): { partitionId: number; installed: boolean }[] | undefined;
    /** Calls `listener` whenever an operation completed or a change was cancelled; returns its removal. */
    onChange(listener: () => void): () => void;
    /** How the gateway reports one replica's health (null: as the cluster's state says). */
    setPartitionHealth(brokerId: number, partitionId: number, health: PartitionHealth | null): void;
    addFault(fault: FaultSpec): void;
    clearFaults(): void;
    /** Applies the given settings and returns all settings (client secrets omitted). */
    updateSettings(settings: SettingsBody): object;
    settings(): object;
    outage(iface: OutageInterface, ms: number): Promise<void>;
    state(): object;
}

function readJson(call: Call, required: boolean): unknown {
    const text = call.body.toString("utf8");
    if (text.trim() === "") {
        if (required) throw new ControlError("a JSON body is required");
        return undefined;
    }
    try {
        return JSON.parse(text) as unknown;
    } catch {
        throw new ControlError("the body is not valid JSON");
    }
}

function brokerId(text: string): number {
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw new ControlError("broker id must be a non-negative integer");
    return Number(text);
}

export function createControlApi(control: EmulatorControl): (call: Call) => Promise<Reply> {
    return async (call) => {
        try {
            return await route(control, call);
        } catch (error) {
            if (error instanceof ControlError) return jsonReply(400, { message: error.message });
            throw error;
        }
    };
}

async function route(control: EmulatorControl, call: Call): Promise<Reply> {
    const { method, path } = call;
    const broker = /^\/brokers\/([^/]+)\/(start|stop)$/.exec(path);
    if (broker) {
        if (method !== "POST") return jsonReply(405, { message: "Method Not Allowed" }, { allow: "POST" });
        const id = brokerId(broker[1]);
        if (broker[2] === "start") control.startBroker(id);
        else control.stopBroker(id);
        return jsonReply(200, control.state());
    }
    const hosted = /^\/hosted-clusters\/([^/]+)\/(status|clients|secrets)(?:\/([^/]+))?$/.exec(path);
    if (hosted) {
        const [, clusterId, what, item] = hosted.map((part) => (part === undefined ? part : decodeURIComponent(part)));
        if (what === "status" && method === "PUT")
            control.setHostedClusterStatus(clusterId, ((readJson(call, true) as { status?: string }).status ?? null) as string | null);
        else if (what === "clients" && method === "DELETE" && item !== undefined) control.removeHostedClusterClient(clusterId, item);
        else if (what === "secrets" && method === "PUT" && item !== undefined)
            control.setConnectorSecret(clusterId, item, ((readJson(call, true) as { value?: string }).value ?? null) as string | null);
        else return jsonReply(405, { message: "Method Not Allowed" });
        return jsonReply(200, control.hostedClusters());
    }
    const replica = /^\/brokers\/([^/]+)\/partitions\/([^/]+)\/health$/.exec(path);
    if (replica) {
        if (method !== "PUT") return jsonReply(405, { message: "Method Not Allowed" }, { allow: "PUT" });
        const body = readJson(call, true) as { health?: unknown };
        control.setPartitionHealth(brokerId(replica[1]), brokerId(replica[2]), (body?.health ?? null) as PartitionHealth | null);
        return jsonReply(200, { health: body?.health ?? null });
    }
    switch (`${method} ${path}`) {
        case "POST /reset":
            control.reset(readJson(call, false) as ResetBody | undefined);
            return jsonReply(200, control.state());
        case "GET /requests":
            return jsonReply(200, control.requests());
        case "GET /members":
            return jsonReply(200, control.members());
        case "GET /hosted-clusters":
            return jsonReply(200, control.hostedClusters());
        case "POST /hosted-clusters":
            return jsonReply(200, { id: control.addHostedCluster(readJson(call, true) as NewHostedCluster) });
        case "DELETE /requests":
            control.clearRequests();
            return jsonReply(200, { cleared: true });
        case "POST /faults":
            control.addFault(readJson(call, true) as FaultSpec);
            return jsonReply(200, { added: true });
        case "DELETE /faults":
            control.clearFaults();
            return jsonReply(200, { cleared: true });
        case "PUT /settings":
            return jsonReply(200, control.updateSettings(readJson(call, true) as SettingsBody));
        case "GET /settings":
            return jsonReply(200, control.settings());
        case "POST /outage": {
            const body = readJson(call, true) as { interface?: unknown; ms?: unknown };
            if (typeof body !== "object" || body === null) throw new ControlError("outage body must be a JSON object");
            await control.outage(body.interface as OutageInterface, body.ms as number);
            return jsonReply(200, { down: body.interface, ms: body.ms });
        }
        case "GET /state":
            return jsonReply(200, control.state());
        default:
            return jsonReply(404, { message: `No control endpoint ${method} ${path}` });
    }
}
