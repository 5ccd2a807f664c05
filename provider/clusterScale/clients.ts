// The SDK clients of one provider call, built from the resource's settings: to URLs, or through the Kubernetes API
// server's service proxy; the brokers' StatefulSet through the API server either way. Built for each call from that
// call's settings, so credentials live no longer than the call.

import type { ApiAuth } from "../../sdk/auth/apiAuth";
import { ClusterClient } from "../../sdk/cluster/clusterClient";
import { GatewayClient } from "../../sdk/cluster/gatewayClient";
import { BrokerStatefulSet } from "../../sdk/kubernetes/brokerStatefulSet";
import { resolveApiServer, resolveServiceRoute } from "../../sdk/http/kubernetesRoute";
import { TokenClient } from "../../sdk/auth/tokenClient";
import type { ConnectionSettings } from "../../sdk/http/transport";
import type { ManagementAuth, ManagementTls } from "./inputs";
import { subject } from "./messages";
import { connectionFor } from "../shared/connection";
import { DEFAULT_MANAGEMENT_PORT, type KubernetesRouteInput, serviceRoute } from "../shared/kubernetesRouteInput";

export interface ClientSettings {
    /** Names the resource in debug lines. */
    resourceName: string;
    managementUrl: string;
    basePath: string;
    gatewayUrl?: string;
    auth?: ManagementAuth;
    tls?: ManagementTls;
    kubernetes?: KubernetesRouteInput;
}

export interface Clients {
    cluster: ClusterClient;
    gateway?: GatewayClient;
    /** The brokers' StatefulSet (kubernetes.statefulSet), through the same kubeconfig. */
    statefulSet?: BrokerStatefulSet;
}

/**
 * The clients for these settings. `kubeconfig`: the fallback when the kubernetes route names none (stack config
 * kubernetes:kubeconfig); without either, KUBECONFIG or ~/.kube/config. Throws when the kubeconfig cannot be used.
 */
export async function clientsFor(settings: ClientSettings, timeoutMs?: number, kubeconfig?: string): Promise<Clients> {
    const connection = connectionFor(subject(settings.resourceName), settings.tls);
    const route = serviceRoute(settings.kubernetes);
    if (route !== undefined) {
        const resolved = await resolveServiceRoute(
            { ...route, port: route.managementPort ?? DEFAULT_MANAGEMENT_PORT, kubeconfig: route.kubeconfig ?? kubeconfig },
            connection,
        );
        const cluster = new ClusterClient({ managementUrl: resolved.baseUrl, basePath: settings.basePath, timeoutMs, connection: resolved.connection });
        const gatewayUrl = route.gatewayPort === undefined ? undefined : resolved.toPort(route.gatewayPort);
        const gateway = gatewayUrl === undefined ? undefined : new GatewayClient({ gatewayUrl, timeoutMs, connection: resolved.connection });
        if (route.statefulSet === undefined) return { cluster, gateway };
        // The same API server and credentials: the kubeconfig (and any exec plugin it runs) is resolved once.
        const statefulSet = BrokerStatefulSet.at({ namespace: route.namespace, statefulSet: route.statefulSet }, resolved);
        return { cluster, gateway, statefulSet };
    }
    const auth = apiAuthOf(settings.auth, settings.managementUrl, connection);
    const cluster = new ClusterClient({ managementUrl: settings.managementUrl, basePath: settings.basePath, auth, timeoutMs, connection });
    const gateway = settings.gatewayUrl === undefined ? undefined : new GatewayClient({ gatewayUrl: settings.gatewayUrl, auth, timeoutMs, connection });
    const workload = settings.kubernetes;
    if (workload?.statefulSet === undefined) return { cluster, gateway };
    // The API server's own trust and credentials, from the kubeconfig; the debug lines and the cancellation as for the rest.
    const access = await resolveApiServer(
        { kubeconfig: workload.kubeconfig ?? kubeconfig, context: workload.context },
        { log: connection.log, signal: connection.signal },
    );
    return { cluster, gateway, statefulSet: BrokerStatefulSet.at({ namespace: workload.namespace, statefulSet: workload.statefulSet }, access) };
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
