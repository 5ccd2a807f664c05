// The Kubernetes side of a test whose brokers run as pods: the API server stand-in serving the brokers' StatefulSet
// (pods as the emulator's brokers) and optionally the service proxy to the emulator, its users, and a kubeconfig file
// for each.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { BrokerWorkloads, WorkloadOptions } from "../emulator/brokerWorkloads";
import type { EmulatorControl } from "../emulator";
import { KubeApiServer, KubeUser, ProxyVerb } from "../emulator/kubeApiServer";
import type { ResourceRules } from "../emulator/workloadApi";
import { kubeconfigYaml } from "./kubeconfig";
import { sharedTlsMaterial, type TlsMaterial } from "./tlsMaterial";

export const BROKER_NAMESPACE = "camunda";
export const BROKER_STATEFUL_SET = "platform-zeebe";

/** What ClusterScale needs: read and scale the StatefulSet, list and watch its pods, delete claims of removed brokers. */
export const OPERATOR_RULES: ResourceRules = {
    statefulsets: ["get", "list", "watch"],
    "statefulsets/scale": ["get", "update", "patch"],
    pods: ["get", "list", "watch"],
    persistentvolumeclaims: ["get", "list", "watch", "delete"],
};

export interface BrokerPods {
    server: KubeApiServer;
    workloads: BrokerWorkloads;
    tls: TlsMaterial;
    /** A user with these rules: its bearer token and a kubeconfig file (0600) for it. */
    user(rules: ResourceRules, name?: string): { token: string; kubeconfig: string };
    /**
     * The ClusterScale `kubernetes` input that names the StatefulSet (the management API then at managementUrl: a real
     * API server refuses the management API's dry runs on its service proxy).
     */
    route(kubeconfig: string): { namespace: string; statefulSet: string; kubeconfig: string };
    /** The input of the route through the service proxy (reads only, on a real API server). */
    proxyRoute(kubeconfig: string): { namespace: string; service: string; managementPort: number; gatewayPort: number; kubeconfig: string };
    stop(): Promise<void>;
}

/** The proxied service and its ports: the management API and the gateway. */
const SERVICE = { name: "platform-gateway", managementPort: 9600, gatewayPort: 8080 };

/** The verbs on services/proxy that reach the management API and the gateway (get, and create/patch for changes). */
const PROXY_VERBS: ProxyVerb[] = ["get", "create", "patch"];

/**
 * The stand-in with the brokers' StatefulSet of `replicas` pods over the emulator's brokers 0..replicas-1; with
 * `proxy`, also the service proxy to the management API (port 9600) and the gateway (8080) of service platform-gateway.
 */
export async function startBrokerPods(
    control: EmulatorControl,
    options: Partial<WorkloadOptions> & { replicas: number; proxy?: { managementUrl: string; gatewayUrl: string } },
): Promise<BrokerPods> {
    const { proxy, ...workloadOptions } = options;
    const tls = sharedTlsMaterial();
    const workloads = new BrokerWorkloads(control, {
        namespace: BROKER_NAMESPACE,
        statefulSet: BROKER_STATEFUL_SET,
        claimTemplate: "data",
        startMs: 20,
        terminationMs: 20,
        whenScaled: "Retain",
        ...workloadOptions,
    });
    const tokens: Record<string, KubeUser> = {};
    const server = new KubeApiServer({
        namespace: BROKER_NAMESPACE,
        service: SERVICE.name,
        ports: proxy === undefined ? {} : { [SERVICE.managementPort]: proxy.managementUrl, [SERVICE.gatewayPort]: proxy.gatewayUrl },
        certificate: tls.serverCertificate,
        key: tls.serverKey,
        ca: tls.caCertificate,
        tokens,
        certificateUsers: {},
        workloads,
    });
    await server.start();
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), "broker-pods-"));
    let users = 0;
    return {
        server,
        workloads,
        tls,
        user(rules, name = `user-${users + 1}`) {
            const token = `token-${++users}-${name}`;
            tokens[token] = { name, verbs: PROXY_VERBS, rules };
            const kubeconfig = path.join(directory, `${users}-${name}.kubeconfig`);
            fs.writeFileSync(kubeconfig, kubeconfigYaml(server.url, tls.caCertificate, { token }), { mode: 0o600 });
            return { token, kubeconfig };
        },
        route(kubeconfig) {
            return { namespace: BROKER_NAMESPACE, statefulSet: BROKER_STATEFUL_SET, kubeconfig };
        },
        proxyRoute(kubeconfig) {
            const { name: service, managementPort, gatewayPort } = SERVICE;
            return { namespace: BROKER_NAMESPACE, service, managementPort, gatewayPort, kubeconfig };
        },
        async stop() {
            workloads.close();
            await server.stop();
            fs.rmSync(directory, { recursive: true, force: true });
        },
    };
}
