// The SDK clients of one provider call, built from the resource's settings. Built inside each method, never
// kept on the provider: a client captured by the closure serializer would carry credentials into state.

import type { ApiAuth } from "../sdk/apiAuth";
import { ClusterClient } from "../sdk/clusterClient";
import { GatewayClient } from "../sdk/gatewayClient";
import { TokenClient } from "../sdk/tokenClient";
import type { ConnectionSettings } from "../sdk/transport";
import type { ManagementAuth, ManagementTls } from "./clusterScaleInputs";
import { subject } from "./clusterScalePlan";
import { debugLogFor } from "./debugLog";

export interface ClientSettings {
    /** Names the resource in debug lines. */
    resourceName: string;
    managementUrl: string;
    basePath: string;
    gatewayUrl?: string;
    auth?: ManagementAuth;
    tls?: ManagementTls;
}

export interface Clients {
    cluster: ClusterClient;
    gateway?: GatewayClient;
}

export function clientsFor(settings: ClientSettings, timeoutMs?: number): Clients {
    const connection: ConnectionSettings = { tls: settings.tls, log: debugLogFor(subject(settings.resourceName)) };
    const auth = apiAuthOf(settings.auth, settings.managementUrl, connection);
    const cluster = new ClusterClient({ managementUrl: settings.managementUrl, basePath: settings.basePath, auth, timeoutMs, connection });
    const gateway = settings.gatewayUrl === undefined ? undefined : new GatewayClient({ gatewayUrl: settings.gatewayUrl, auth, timeoutMs, connection });
    return { cluster, gateway };
}

/** Fixed headers, or a bearer token from the shared token cache (audience defaults to the management host). */
function apiAuthOf(auth: ManagementAuth | undefined, managementUrl: string, connection: ConnectionSettings): ApiAuth | undefined {
    if (auth === undefined) return undefined;
    if (auth.headers !== undefined) return { headers: auth.headers };
    const tokenProvider = new TokenClient({
        clientId: auth.clientId,
        clientSecret: auth.clientSecret,
        authUrl: auth.oauthUrl,
        audience: auth.audience ?? new URL(managementUrl).hostname,
        connection,
    });
    return { tokenProvider };
}
