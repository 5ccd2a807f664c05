// Client of the organization administration API: bearer-token requests under {baseUrl}.
//
// What may be sent twice: reads, PUTs, DELETEs and the member upsert are sent again after a transient failure; a POST
// that creates something only after a 429 (see Replay). Emails and names are encoded in paths. With `shareListsAs`,
// whole-list reads are shared by every client of the process with the same base URL and identity (see sharedList.ts),
// and this client's own writes are applied to them.

import type { z } from "zod";
import { ApiAuth, CallOptions, callRequest, requestJsonWithAuth, sendWithAuth } from "./auth/apiAuth";
import { DEFAULT_TIMEOUT_MS, HttpMethod, HttpRequest, Replay, RetryNotice, errorFromResponse, joinUrl } from "./http/request";
import { decoder } from "./schemas";
import { Member, memberListSchema } from "./adminSchemas";
import { patchSharedList, sharedList } from "./sharedList";
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
    listMembers(options: CallOptions = {}): Promise<Member[]> {
        return this.shared("members", () => this.getJson("members", options, "member list", memberListSchema));
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

    // ---- requests ----

    private getJson<S extends z.ZodType>(path: string, options: CallOptions, name: string, schema: S): Promise<z.output<S>> {
        return requestJsonWithAuth(this.request("GET", path, options), this.auth, decoder(name, schema));
    }

    /** A write whose answer has no body to read (204); any other status than 2xx is the typed error. */
    private async send(method: HttpMethod, path: string, replay: Replay, options: CallOptions, json?: unknown): Promise<void> {
        const { response, secrets } = await sendWithAuth({ ...this.request(method, path, options), replay, json }, this.auth);
        if (response.status < 200 || response.status > 299) throw errorFromResponse(response, secrets);
    }

    private async delete(path: string, options: CallOptions): Promise<Removal> {
        const { response, secrets } = await sendWithAuth({ ...this.request("DELETE", path, options), replay: "safe" }, this.auth);
        if (response.status === 404) return "absent";
        if (response.status < 200 || response.status > 299) throw errorFromResponse(response, secrets);
        return "removed";
    }

    private request(method: HttpMethod, path: string, options: CallOptions): HttpRequest {
        return callRequest(method, joinUrl(this.baseUrl, path), { onRetry: this.onRetry, ...options }, this.timeoutMs, this.connection);
    }

    private shared<T>(list: string, read: () => Promise<T>): Promise<T> {
        return this.shareListsAs === undefined ? read() : sharedList(this.listKey(list), read);
    }

    private patch<T>(list: string, change: (value: T) => T): void {
        if (this.shareListsAs !== undefined) patchSharedList(this.listKey(list), change);
    }

    private listKey(list: string): string {
        return JSON.stringify([this.baseUrl, this.shareListsAs, list]);
    }
}

/** Emails name one person whatever their letters' case. */
export function sameEmail(a: string, b: string): boolean {
    return a.toLowerCase() === b.toLowerCase();
}
