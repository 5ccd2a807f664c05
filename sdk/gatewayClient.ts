// Client of the gateway's topology query (GET {gatewayUrl}/v2/topology).

import { ApiAuth, CallOptions, requestJsonWithAuth } from "./apiAuth";
import { DEFAULT_TIMEOUT_MS, joinUrl } from "./http";
import { GatewayTopology, decoder, gatewayTopologySchema } from "./schemas";

export interface GatewayClientOptions {
  /** Origin of the gateway's REST API, e.g. http://gateway:8080. */
  gatewayUrl: string;
  /** Auth for the gateway API, if the deployment requires any. */
  auth?: ApiAuth;
  /** Time limit of one request attempt (default 30 s). */
  timeoutMs?: number;
}

export class GatewayClient {
  readonly gatewayUrl: string;
  private readonly auth: ApiAuth | undefined;
  private readonly timeoutMs: number;

  constructor(options: GatewayClientOptions) {
    this.gatewayUrl = options.gatewayUrl;
    this.auth = options.auth;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** GET /v2/topology: running brokers with their partitions' roles and health, and lastCompletedChangeId. */
  getTopology(options: CallOptions = {}): Promise<GatewayTopology> {
    return requestJsonWithAuth(
      {
        method: "GET",
        url: joinUrl(this.gatewayUrl, "/v2/topology"),
        timeoutMs: options.timeoutMs ?? this.timeoutMs,
        signal: options.signal,
        retry: options.retry,
      },
      this.auth,
      decoder("gateway topology", gatewayTopologySchema),
    );
  }
}
