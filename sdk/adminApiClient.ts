// Client of the organization administration API: bearer-token requests under {baseUrl}.

import { ApiAuth, CallOptions, callRequest, requestJsonWithAuth } from "./auth/apiAuth";
import { DEFAULT_TIMEOUT_MS, joinUrl } from "./http/request";
import { Member, decoder, memberListSchema } from "./schemas";
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
}

export class AdminApiClient {
    readonly baseUrl: string;
    private readonly auth: ApiAuth;
    private readonly timeoutMs: number;
    private readonly connection: ConnectionSettings | undefined;

    constructor(options: AdminApiClientOptions) {
        this.baseUrl = options.baseUrl;
        const tokenProvider = options.tokenProvider ?? new TokenClient({ adminBaseUrl: options.baseUrl, connection: options.connection, ...options.token });
        this.auth = { tokenProvider };
        this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
        this.connection = options.connection;
    }

    /** GET {baseUrl}/members: the organization's members. */
    listMembers(options: CallOptions = {}): Promise<Member[]> {
        const request = callRequest("GET", joinUrl(this.baseUrl, "members"), options, this.timeoutMs, this.connection);
        return requestJsonWithAuth(request, this.auth, decoder("member list", memberListSchema));
    }
}
