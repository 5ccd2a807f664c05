// The `kubernetes` input of ClusterScale: reach the management API (and the gateway) through the Kubernetes API
// server's service proxy with a kubeconfig, instead of a URL. The kubeconfig is a secret wherever it is stored.

import { objectInput } from "./objectInput";

export const DEFAULT_MANAGEMENT_PORT = 9600;

export interface KubernetesRouteInput {
    namespace: string;
    service: string;
    /** The Service port of the management API (default 9600). */
    managementPort?: number;
    /** The Service port of the gateway's REST API; when set, completion is also confirmed there and liveness read. */
    gatewayPort?: number;
    /** kubeconfig YAML content or a file path; else stack config kubernetes:kubeconfig, else KUBECONFIG, else ~/.kube/config. */
    kubeconfig?: string;
    /** The kubeconfig context (default: its current-context). */
    context?: string;
}

const FIELDS = ["namespace", "service", "managementPort", "gatewayPort", "kubeconfig", "context"];
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** Validates the input without echoing the kubeconfig. */
export function checkKubernetesRoute(value: unknown, fail: (property: string, reason: string) => void): KubernetesRouteInput | undefined {
    const input = objectInput(value, "kubernetes", FIELDS, "namespace and service (and optionally managementPort, gatewayPort, kubeconfig, context)", fail);
    if (input.kind === "unknown") return value as KubernetesRouteInput;
    if (input.kind !== "object") return undefined;
    const raw = input.fields;
    let ok = true;
    const problem = (field: string, reason: string) => {
        fail(`kubernetes.${field}`, `kubernetes.${field} ${reason}`);
        ok = false;
    };
    for (const field of ["namespace", "service"]) {
        if (typeof raw[field] !== "string" || !DNS_LABEL.test(raw[field] as string))
            problem(field, "must be a Kubernetes name: lower-case letters, digits and '-', at most 63 characters");
    }
    for (const field of ["managementPort", "gatewayPort"]) {
        const port = raw[field];
        if (port !== undefined && port !== null && (typeof port !== "number" || !Number.isInteger(port) || port < 1 || port > 65_535))
            problem(field, "must be a port number from 1 to 65535");
    }
    for (const field of ["kubeconfig", "context"]) {
        const text = raw[field];
        if (text !== undefined && text !== null && (typeof text !== "string" || text.trim() === "")) problem(field, "must be a non-empty string");
    }
    if (!ok) return undefined;
    const route: KubernetesRouteInput = { namespace: raw.namespace as string, service: raw.service as string };
    if (typeof raw.managementPort === "number") route.managementPort = raw.managementPort;
    if (typeof raw.gatewayPort === "number") route.gatewayPort = raw.gatewayPort;
    if (typeof raw.kubeconfig === "string") route.kubeconfig = raw.kubeconfig;
    if (typeof raw.context === "string") route.context = raw.context;
    return route;
}

/** How the route is named in the resource id and in messages: `kubernetes://camunda/platform-gateway:9600`. */
export function describeRoute(route: KubernetesRouteInput): string {
    return `kubernetes://${route.namespace}/${route.service}:${route.managementPort ?? DEFAULT_MANAGEMENT_PORT}`;
}
