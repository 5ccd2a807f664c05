// Client of the cluster management API ({managementUrl}{basePath}, default /actuator/cluster).
// Mutating requests are sent exactly once: a failure after sending may or may not have started a change,
// which only a GET can tell.

import { ApiAuth, CallOptions, callRequest, requestJsonWithAuth, sendWithAuth } from "../auth/apiAuth";
import { ConflictError, InvalidRequestError, PlatformError } from "../errors";
import { DEFAULT_TIMEOUT_MS, DecodeResult, HttpMethod, HttpRequest, QueryValue, decodeJsonBody, errorFromResponse, joinUrl } from "../http/request";
import { ClusterState, ChangePlan, clusterStateSchema, decoder, changePlanSchema } from "../schemas";
import type { ConnectionSettings } from "../http/transport";
import { type ChangeRead, changeReadDecoder } from "./changeRead";
import { type ClusterPatch, type Layout, type LayoutRequest, type LiveLayout, layoutRequest } from "./layoutRequest";

export const DEFAULT_BASE_PATH = "/actuator/cluster";

export interface ClusterClientOptions {
    /** Origin of the management port, e.g. http://gateway:9600. */
    managementUrl: string;
    /** Path of the cluster endpoint (default /actuator/cluster; e.g. /orchestration/actuator/cluster). */
    basePath?: string;
    /** Auth for the management API, if the deployment requires any (by default it does not). */
    auth?: ApiAuth;
    /** Time limit of one request attempt (default 30 s). */
    timeoutMs?: number;
    /** Proxies and TLS (default: from the environment only). */
    connection?: ConnectionSettings;
}

export interface ScaleBrokersOptions extends CallOptions {
    /** Plan only: the server validates and returns the plan without starting it. */
    dryRun?: boolean;
    /** Force-remove every broker not listed (no redistribution; for unreachable brokers only). */
    force?: boolean;
    /** New replication factor of every partition. */
    replicationFactor?: number;
}

export interface PatchClusterOptions extends CallOptions {
    dryRun?: boolean;
    /** Force-remove `brokers.remove` (nothing else may be set). */
    force?: boolean;
}

export type { ClusterPatch } from "./layoutRequest";

/** A layout request's plan: the request the plan is for, and whether the server has PATCH (false after a 405). */
export interface LayoutPlan {
    request: LayoutRequest;
    plan: ChangePlan;
    patchSupported: boolean;
}

export class ClusterClient {
    readonly managementUrl: string;
    readonly basePath: string;
    private readonly auth: ApiAuth | undefined;
    private readonly timeoutMs: number;
    private readonly connection: ConnectionSettings | undefined;

    constructor(options: ClusterClientOptions) {
        this.managementUrl = options.managementUrl;
        this.basePath = normalizeBasePath(options.basePath ?? DEFAULT_BASE_PATH);
        this.auth = options.auth;
        this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
        this.connection = options.connection;
    }

    /** GET {basePath}: brokers, the last change and the pending one. */
    getCluster(options: CallOptions = {}): Promise<ClusterState> {
        return requestJsonWithAuth(this.request("GET", "", options), this.auth, decoder("cluster state", clusterStateSchema));
    }

    /** GET {basePath} for a wait on change `changeId`: its progress while it runs, else the whole cluster state (see changeRead.ts). */
    readChange(changeId: number, options: CallOptions = {}): Promise<ChangeRead> {
        return requestJsonWithAuth(this.request("GET", "", options), this.auth, changeReadDecoder(changeId));
    }

    /**
     * POST {basePath}/brokers: the brokers that must form the cluster; those absent are removed.
     * Returns the plan (changeId, plannedChanges, expectedTopology); an empty plan starts nothing.
     */
    async scaleBrokers(brokerIds: readonly number[], options: ScaleBrokersOptions = {}): Promise<ChangePlan> {
        brokerIds.forEach((id) => requireInteger(id, "broker id", 0));
        if (options.replicationFactor !== undefined) requireInteger(options.replicationFactor, "replication factor", 1);
        const query = { dryRun: flag(options.dryRun), force: flag(options.force), replicationFactor: options.replicationFactor };
        return this.mutate(this.request("POST", "/brokers", options, query, [...brokerIds]), decoder("planned change", changePlanSchema));
    }

    /** PATCH {basePath}: add/remove brokers or set their count; raise the partition count or the replication factor. */
    async patchCluster(patch: ClusterPatch, options: PatchClusterOptions = {}): Promise<ChangePlan> {
        validatePatch(patch);
        const query = { dryRun: flag(options.dryRun), force: flag(options.force) };
        return this.mutate(this.request("PATCH", "", options, query, patch), decoder("planned change", changePlanSchema));
    }

    /**
     * Sends a layout request (see layoutRequest): POST /brokers or PATCH, as the request says. Once: a mutating request
     * is never retried, and a dry run only plans.
     */
    applyLayout(request: LayoutRequest, options: CallOptions & { dryRun?: boolean } = {}): Promise<ChangePlan> {
        if (request.method === "POST") {
            return this.scaleBrokers(request.brokers, { ...options, force: request.force, replicationFactor: request.replicationFactor });
        }
        return this.patchCluster(request.patch, options);
    }

    /**
     * The server's plan for bringing `live` to `layout`: one dry run of the layout's request. A server that answers
     * PATCH with 405 predates it: the layout is planned again as POST /brokers, and `patchSupported` says so.
     * `patch: false` skips PATCH from the start (a 405 seen before).
     */
    async planLayout(layout: Layout, live: LiveLayout | undefined, options: CallOptions & { patch?: boolean } = {}): Promise<LayoutPlan> {
        const { patch = true, ...call } = options;
        const request = layoutRequest(layout, live, { patch });
        try {
            return { request, plan: await this.applyLayout(request, { ...call, dryRun: true }), patchSupported: patch };
        } catch (error) {
            if (request.method !== "PATCH" || !(error instanceof PlatformError) || error.status !== 405) throw error;
            const fallback = layoutRequest(layout, live, { patch: false });
            return { request: fallback, plan: await this.applyLayout(fallback, { ...call, dryRun: true }), patchSupported: false };
        }
    }

    /** DELETE {basePath}/changes/{id}: cancels the pending change. Operations already applied are not rolled back. */
    async cancelChange(changeId: number, options: CallOptions = {}): Promise<ClusterState> {
        requireInteger(changeId, "change id", 0);
        return this.mutate(this.request("DELETE", `/changes/${changeId}`, options), decoder("cluster state", clusterStateSchema));
    }

    private async mutate<T>(req: HttpRequest, decode: (data: unknown) => DecodeResult<T>): Promise<T> {
        const { response, secrets } = await sendWithAuth(req, this.auth);
        if (response.status >= 200 && response.status <= 299) return decodeJsonBody(response, decode);
        const error = errorFromResponse(response, secrets);
        if (!(error instanceof ConflictError)) throw error;
        const pendingChangeId = await this.pendingChangeId(req.signal);
        throw new ConflictError(error.summary, {
            request: error.request,
            status: error.status,
            serverMessage: error.serverMessage,
            pendingChangeId,
        });
    }

    /** The id of the change in progress, read after a 409; undefined if it cannot be read quickly. */
    private async pendingChangeId(signal: AbortSignal | undefined): Promise<number | undefined> {
        try {
            const state = await this.getCluster({ signal, timeoutMs: Math.min(this.timeoutMs, 5_000), retry: false });
            return state.pendingChange?.id;
        } catch {
            return undefined;
        }
    }

    private request(method: HttpMethod, suffix: string, options: CallOptions, query?: Record<string, QueryValue>, json?: unknown): HttpRequest {
        return { ...callRequest(method, joinUrl(this.managementUrl, this.basePath + suffix), options, this.timeoutMs, this.connection), query, json };
    }
}

function normalizeBasePath(path: string): string {
    const trimmed = path.trim().replace(/\/+$/, "");
    return trimmed === "" ? "" : trimmed.startsWith("/") ? trimmed : `/${trimmed}`;
}

/** true, or undefined so that the parameter is left out (the server's default is false). */
function flag(value: boolean | undefined): true | undefined {
    return value === true ? true : undefined;
}

function requireInteger(value: number, what: string, minimum: number): void {
    if (!Number.isSafeInteger(value) || value < minimum) {
        throw new InvalidRequestError(`Invalid ${what} ${String(value)}: expected an integer >= ${minimum}; nothing was sent`);
    }
}

function validatePatch(patch: ClusterPatch): void {
    patch.brokers?.add?.forEach((id) => requireInteger(id, "broker id", 0));
    patch.brokers?.remove?.forEach((id) => requireInteger(id, "broker id", 0));
    if (patch.brokers?.count !== undefined) requireInteger(patch.brokers.count, "broker count", 1);
    if (patch.partitions?.count !== undefined) requireInteger(patch.partitions.count, "partition count", 1);
    if (patch.partitions?.replicationFactor !== undefined) requireInteger(patch.partitions.replicationFactor, "replication factor", 1);
}
