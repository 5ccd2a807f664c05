// Client of the gateway's topology query (GET {gatewayUrl}/v2/topology).

import { ApiAuth, CallOptions, callRequest, requestJsonWithAuth } from "../auth/apiAuth";
import { DEFAULT_TIMEOUT_MS, joinUrl } from "../http/request";
import { GatewayTopology, decoder, gatewayTopologySchema } from "../schemas";
import type { ConnectionSettings } from "../http/transport";

export interface GatewayClientOptions {
    /** Origin of the gateway's REST API, e.g. http://gateway:8080. */
    gatewayUrl: string;
    /** Auth for the gateway API, if the deployment requires any. */
    auth?: ApiAuth;
    /** Time limit of one request attempt (default 30 s). */
    timeoutMs?: number;
    /** Proxies and TLS (default: from the environment only). */
    connection?: ConnectionSettings;
}

export class GatewayClient {
    readonly gatewayUrl: string;
    private readonly auth: ApiAuth | undefined;
    private readonly timeoutMs: number;
    private readonly connection: ConnectionSettings | undefined;

    constructor(options: GatewayClientOptions) {
        this.gatewayUrl = options.gatewayUrl;
        this.auth = options.auth;
        this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
        this.connection = options.connection;
    }

    /** GET /v2/topology: running brokers with their partitions' roles and health, and lastCompletedChangeId. */
    getTopology(options: CallOptions = {}): Promise<GatewayTopology> {
        const request = callRequest("GET", joinUrl(this.gatewayUrl, "/v2/topology"), options, this.timeoutMs, this.connection);
        return requestJsonWithAuth(request, this.auth, decoder("gateway topology", gatewayTopologySchema));
    }
}
