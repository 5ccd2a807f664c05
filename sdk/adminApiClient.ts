// Client of the organization administration API: bearer-token requests under {baseUrl}.
//
// What may be sent twice: reads, PUTs, DELETEs and the member upsert are sent again after a transient failure; a POST
// that creates something only after a 429 (see Replay). Emails and names are encoded in paths. With `shareListsAs`,
// whole-list reads are shared by every client of the process with the same base URL and identity (see sharedList.ts),
// and this client's own writes are applied to them.

import type { z } from "zod";
import { ApiAuth, CallOptions, callRequest, requestJsonWithAuth, sendWithAuth } from "./auth/apiAuth";
import { DEFAULT_TIMEOUT_MS, HttpMethod, HttpRequest, Replay, RetryNotice, decodeJsonBody, errorFromResponse, joinUrl } from "./http/request";
import { decoder } from "./schemas";
import {
    Cluster,
    ClusterApiClient,
    ClusterApiClientDetails,
    ClusterParameters,
    CreatedClusterApiClient,
    GenerationUpgrade,
    IpAllowlistEntry,
    Member,
    clusterClientDetailsSchema,
    clusterClientListSchema,
    clusterListSchema,
    clusterSchema,
    connectorSecretsSchema,
    createdClusterClientSchema,
    createdClusterSchema,
    generationUpgradeSchema,
    memberListSchema,
    parametersSchema,
} from "./adminSchemas";
import { forgetSharedList, patchSharedList, sharedList } from "./sharedList";
import { TokenClient, TokenClientOptions, TokenProvider } from "./auth/tokenClient";
import type { ConnectionSettings } from "./http/transport";

export interface AdminApiClientOptions {
    /** Base URL of the administration API ({base_url}). */
    baseUrl: string;
    /** Where tokens come from; default: a TokenClient built from `token` (audience defaults to the base URL's host). */
    tokenProvider?: TokenProvider;
    /** Options of the default TokenClient (credentials else from the PLATFORM_* environment variables). */
    token?: TokenClientOptions;
    /** Time limit of one request attempt (default 30 s). */
    timeoutMs?: number;
    /** Proxies and TLS, for the administration API and the default TokenClient (default: from the environment only). */
    connection?: ConnectionSettings;
    /**
     * Who this client is (its client id and audience, say): list reads are then shared by every client of the process
     * with the same base URL and identity for a short while, and patched by their writes. Default: every read is sent.
     */
    shareListsAs?: string;
    /** Told before every retry of every call (a call's own onRetry comes first). */
    onRetry?: (notice: RetryNotice) => void;
}

/** What a DELETE found: the thing removed, or already gone (404). */
export type Removal = "removed" | "absent";

/** A list read's options: `reread` reads the list now instead of taking the one shared (see shareListsAs). */
export type ListOptions = CallOptions & { reread?: boolean };

/** The body of `POST /clusters`: ids from `GET /clusters/parameters`. */
export interface CreateClusterRequest {
    name: string;
    channelId: string;
    generationId: string;
    planTypeId: string;
    regionId: string;
    autoUpdate?: boolean;
    description?: string;
    stageLabel?: string;
}

/** The fields `PATCH /clusters/{id}` changes. */
export interface ClusterPatch {
    name?: string;
    description?: string;
    stageLabel?: string;
}

export class AdminApiClient {
    readonly baseUrl: string;
    private readonly auth: ApiAuth;
    private readonly timeoutMs: number;
    private readonly connection: ConnectionSettings | undefined;
    private readonly shareListsAs: string | undefined;
    private readonly onRetry: ((notice: RetryNotice) => void) | undefined;

    constructor(options: AdminApiClientOptions) {
        this.baseUrl = options.baseUrl;
        const tokenProvider = options.tokenProvider ?? new TokenClient({ adminBaseUrl: options.baseUrl, connection: options.connection, ...options.token });
        this.auth = { tokenProvider };
        this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
        this.connection = options.connection;
        this.shareListsAs = options.shareListsAs;
        this.onRetry = options.onRetry;
    }

    /** GET {baseUrl}/members: the organization's members and pending invitations (shared, see shareListsAs). */
    listMembers(options: ListOptions = {}): Promise<Member[]> {
        return this.shared("members", options, () => this.getJson("members", options, "member list", memberListSchema));
    }

    /**
     * POST {baseUrl}/members/{email}: invites the email, or replaces the roles of the member it already is (an
     * upsert, so it is sent again after a transient failure). A 403 may mean the organization has no open seats.
     */
    async upsertMember(email: string, roles: readonly string[], options: CallOptions = {}): Promise<void> {
        await this.send("POST", `members/${encodeURIComponent(email)}`, "safe", options, { orgRoles: [...roles] });
        this.patch<Member[]>("members", (members) => {
            const found = members.find((member) => sameEmail(member.email, email));
            if (found !== undefined) return members.map((member) => (member === found ? { ...member, roles: [...roles] } : member));
            return [...members, { email, name: "", roles: [...roles], invitePending: true }];
        });
    }

    /** DELETE {baseUrl}/members/{email}: removes a member or revokes an invitation; a 404 (not in the organization) is "absent". */
    async removeMember(email: string, options: CallOptions = {}): Promise<Removal> {
        const removal = await this.delete(`members/${encodeURIComponent(email)}`, options);
        this.patch<Member[]>("members", (members) => members.filter((member) => !sameEmail(member.email, email)));
        return removal;
    }

    // ---- clusters ----

    /** GET {baseUrl}/clusters/parameters: the channels (with their generations), plan types and regions to create with (shared). */
    getClusterParameters(options: ListOptions = {}): Promise<ClusterParameters> {
        return this.shared("parameters", options, () => this.getJson("clusters/parameters", options, "cluster parameters", parametersSchema));
    }

    /** GET {baseUrl}/clusters (shared). */
    listClusters(options: ListOptions = {}): Promise<Cluster[]> {
        return this.shared("clusters", options, () => this.getJson("clusters", options, "cluster list", clusterListSchema));
    }

    /** GET {baseUrl}/clusters/{id} (shared per cluster); undefined when there is no such cluster (404). */
    findCluster(clusterId: string, options: ListOptions = {}): Promise<Cluster | undefined> {
        return this.shared(`cluster ${clusterId}`, options, () => this.getJsonOrAbsent(clusterPath(clusterId), options, "cluster", clusterSchema));
    }

    /**
     * POST {baseUrl}/clusters: starts creating a cluster and answers its id. Sent again only after a 429: after an unclear
     * answer (a reset, a timeout, a 5xx) the cluster may exist, so look for it (listClusters with reread) before sending again.
     */
    async createCluster(request: CreateClusterRequest, options: CallOptions = {}): Promise<string> {
        const created = await this.writeJson("POST", "clusters", "refused-only", options, request, "created cluster", createdClusterSchema);
        forgetSharedList(this.listKey("clusters"));
        return created.clusterId;
    }

    /** PATCH {baseUrl}/clusters/{id}: name, description or stage label. */
    async updateCluster(clusterId: string, patch: ClusterPatch, options: CallOptions = {}): Promise<void> {
        await this.send("PATCH", clusterPath(clusterId), "safe", options, patch);
        this.forgetCluster(clusterId);
    }

    /** PUT {baseUrl}/clusters/{id}/upgrade: to the newest generation the channel allows (412 while the cluster is not ready). */
    async upgradeCluster(clusterId: string, options: CallOptions = {}): Promise<GenerationUpgrade> {
        const upgrade = await this.writeJson(
            "PUT",
            `${clusterPath(clusterId)}/upgrade`,
            "refused-only",
            options,
            undefined,
            "generation upgrade",
            generationUpgradeSchema,
        );
        this.forgetCluster(clusterId);
        return upgrade;
    }

    /** DELETE {baseUrl}/clusters/{id}: deletion starts; the cluster answers GET until it is gone. */
    async deleteCluster(clusterId: string, options: CallOptions = {}): Promise<Removal> {
        const removal = await this.delete(clusterPath(clusterId), options);
        this.forgetCluster(clusterId);
        return removal;
    }

    // ---- API clients of a cluster ----

    /** GET {baseUrl}/clusters/{id}/clients (shared): each client's id, name and permissions (the only place permissions show). */
    listClusterClients(clusterId: string, options: ListOptions = {}): Promise<ClusterApiClient[]> {
        return this.shared(`clients ${clusterId}`, options, () =>
            this.getJson(`${clusterPath(clusterId)}/clients`, options, "client list", clusterClientListSchema),
        );
    }

    /**
     * POST {baseUrl}/clusters/{id}/clients: the answer is the only one that holds the client's secret. Sent again only
     * after a 429; after an unclear answer the client may exist without its secret ever arriving.
     */
    async createClusterClient(clusterId: string, name: string, permissions: readonly string[], options: CallOptions = {}): Promise<CreatedClusterApiClient> {
        const created = await this.writeJson(
            "POST",
            `${clusterPath(clusterId)}/clients`,
            "refused-only",
            options,
            { clientName: name, permissions: [...permissions] },
            "created client",
            createdClusterClientSchema,
        );
        this.patch<ClusterApiClient[]>(`clients ${clusterId}`, (clients) => [
            ...clients,
            { clientId: created.clientId, name: created.name, permissions: created.permissions },
        ]);
        return created;
    }

    /** GET {baseUrl}/clusters/{id}/clients/{clientId}: how a worker connects; 412 while the cluster is not ready. */
    getClusterClientDetails(clusterId: string, clientId: string, options: CallOptions = {}): Promise<ClusterApiClientDetails> {
        return this.getJson(`${clusterPath(clusterId)}/clients/${encodeURIComponent(clientId)}`, options, "client details", clusterClientDetailsSchema);
    }

    async deleteClusterClient(clusterId: string, clientId: string, options: CallOptions = {}): Promise<Removal> {
        const removal = await this.delete(`${clusterPath(clusterId)}/clients/${encodeURIComponent(clientId)}`, options);
        this.patch<ClusterApiClient[]>(`clients ${clusterId}`, (clients) => clients.filter((client) => client.clientId !== clientId));
        return removal;
    }

    // ---- connector secrets ----

    /** GET {baseUrl}/clusters/{id}/secrets (shared): every secret's name and value. A deleted secret may still be listed for a while. */
    listConnectorSecrets(clusterId: string, options: ListOptions = {}): Promise<Record<string, string>> {
        return this.shared(`secrets ${clusterId}`, options, () =>
            this.getJson(`${clusterPath(clusterId)}/secrets`, options, "secret list", connectorSecretsSchema),
        );
    }

    /** POST {baseUrl}/clusters/{id}/secrets: 409 when the name exists. Sent again only after a 429. */
    async createConnectorSecret(clusterId: string, name: string, value: string, options: CallOptions = {}): Promise<void> {
        await this.send("POST", `${clusterPath(clusterId)}/secrets`, "refused-only", withRedacted(options, value), { secretName: name, secretValue: value });
        this.patch<Record<string, string>>(`secrets ${clusterId}`, (secrets) => ({ ...secrets, [name]: value }));
    }

    /** PUT {baseUrl}/clusters/{id}/secrets/{name}: the value, changed in place. */
    async updateConnectorSecret(clusterId: string, name: string, value: string, options: CallOptions = {}): Promise<void> {
        await this.send("PUT", `${clusterPath(clusterId)}/secrets/${encodeURIComponent(name)}`, "safe", withRedacted(options, value), { secretValue: value });
        this.patch<Record<string, string>>(`secrets ${clusterId}`, (secrets) => ({ ...secrets, [name]: value }));
    }

    async deleteConnectorSecret(clusterId: string, name: string, options: CallOptions = {}): Promise<Removal> {
        const removal = await this.delete(`${clusterPath(clusterId)}/secrets/${encodeURIComponent(name)}`, options);
        this.patch<Record<string, string>>(`secrets ${clusterId}`, (secrets) => Object.fromEntries(Object.entries(secrets).filter(([key]) => key !== name)));
        return removal;
    }

    // ---- IP allowlist ----

    /** PUT {baseUrl}/clusters/{id}/ipallowlist: replaces the whole list; an empty one lifts every restriction. */
    async setIpAllowlist(clusterId: string, entries: readonly IpAllowlistEntry[], options: CallOptions = {}): Promise<void> {
        await this.send("PUT", `${clusterPath(clusterId)}/ipallowlist`, "safe", options, {
            ipallowlist: entries.map(({ ip, description }) => ({ ip, description })),
        });
        this.patch<Cluster | undefined>(`cluster ${clusterId}`, (cluster) => cluster && { ...cluster, ipallowlist: entries.map((entry) => ({ ...entry })) });
    }

    // ---- requests ----

    private getJson<S extends z.ZodType>(path: string, options: CallOptions, name: string, schema: S): Promise<z.output<S>> {
        return requestJsonWithAuth(this.request("GET", path, options), this.auth, decoder(name, schema));
    }

    /** A GET whose 404 means the thing does not exist. */
    private async getJsonOrAbsent<S extends z.ZodType>(path: string, options: CallOptions, name: string, schema: S): Promise<z.output<S> | undefined> {
        const { response, secrets } = await sendWithAuth(this.request("GET", path, options), this.auth);
        if (response.status === 404) return undefined;
        if (response.status < 200 || response.status > 299) throw errorFromResponse(response, secrets);
        return decodeJsonBody(response, decoder(name, schema));
    }

    /** A write whose 2xx answer is JSON. */
    private async writeJson<S extends z.ZodType>(
        method: HttpMethod,
        path: string,
        replay: Replay,
        options: CallOptions,
        json: unknown,
        name: string,
        schema: S,
    ): Promise<z.output<S>> {
        return requestJsonWithAuth({ ...this.request(method, path, options), replay, json }, this.auth, decoder(name, schema));
    }

    /** A write whose answer has no body to read (204); any other status than 2xx is the typed error. */
    private async send(method: HttpMethod, path: string, replay: Replay, options: CallOptions & { redact?: string[] }, json?: unknown): Promise<void> {
        const { response, secrets } = await sendWithAuth({ ...this.request(method, path, options), replay, json }, this.auth);
        if (response.status < 200 || response.status > 299) throw errorFromResponse(response, secrets);
    }

    private async delete(path: string, options: CallOptions): Promise<Removal> {
        const { response, secrets } = await sendWithAuth({ ...this.request("DELETE", path, options), replay: "safe" }, this.auth);
        if (response.status === 404) return "absent";
        if (response.status < 200 || response.status > 299) throw errorFromResponse(response, secrets);
        return "removed";
    }

    private request(method: HttpMethod, path: string, options: CallOptions & { redact?: string[] }): HttpRequest {
        const request = callRequest(method, joinUrl(this.baseUrl, path), { onRetry: this.onRetry, ...options }, this.timeoutMs, this.connection);
        return options.redact === undefined ? request : { ...request, redact: options.redact };
    }

    private shared<T>(list: string, options: ListOptions, read: () => Promise<T>): Promise<T> {
        return this.shareListsAs === undefined ? read() : sharedList(this.listKey(list), read, options.reread === true);
    }

    /** After a write to a cluster: its shared GET and the shared list of clusters are read again when next asked for. */
    private forgetCluster(clusterId: string): void {
        forgetSharedList(this.listKey(`cluster ${clusterId}`));
        forgetSharedList(this.listKey("clusters"));
    }

    private patch<T>(list: string, change: (value: T) => T): void {
        if (this.shareListsAs !== undefined) patchSharedList(this.listKey(list), change);
    }

    private listKey(list: string): string {
        return JSON.stringify([this.baseUrl, this.shareListsAs, list]);
    }
}

function clusterPath(clusterId: string): string {
    return `clusters/${encodeURIComponent(clusterId)}`;
}

/** A secret's value is never echoed by an error about the request that carried it. */
function withRedacted(options: CallOptions, value: string): CallOptions & { redact: string[] } {
    return { ...options, redact: [value] };
}

/** Emails name one person whatever their letters' case. */
export function sameEmail(a: string, b: string): boolean {
    return a.toLowerCase() === b.toLowerCase();
}
