// The `kubernetes` input of ClusterScale: reach the management API (and the gateway) through the Kubernetes API
// server's service proxy with a kubeconfig, instead of a URL; or, without `service`, keep only the brokers'
// StatefulSet in step through the API server while the management API is reached at managementUrl (from inside the
// cluster, or through a port-forward the pipeline opens: a real API server refuses the management API's dry runs on
// its service proxy). The kubeconfig is a secret wherever it is stored.

import { z } from "zod";
import { checkObjectInput } from "./objectSchema";

export const DEFAULT_MANAGEMENT_PORT = 9600;

export interface KubernetesRouteInput {
    namespace: string;
    /** The Service in front of the management API; without it, managementUrl reaches the management API. */
    service?: string;
    /** The Service port of the management API (default 9600). */
    managementPort?: number;
    /** The Service port of the gateway's REST API; when set, completion is also confirmed there and liveness read. */
    gatewayPort?: number;
    /** kubeconfig YAML content or a file path; else stack config kubernetes:kubeconfig, else KUBECONFIG, else ~/.kube/config. */
    kubeconfig?: string;
    /** The kubeconfig context (default: its current-context). */
    context?: string;
    /**
     * The brokers' StatefulSet in the same namespace (pod ordinal = broker id): up then starts new brokers' pods before
     * the layout change names them, and stops removed brokers' pods only once the change completed.
     */
    statefulSet?: string;
    /** What happens to the volume claims of removed brokers (with statefulSet): kept (default) or deleted. */
    volumesOfRemovedBrokers?: "retain" | "delete";
    /**
     * The GitOps controllers deploying the StatefulSet whose recipe (leaving spec.replicas alone) the program says is in
     * place, where ClusterScale cannot read their objects: "argo-cd", "kustomize-controller", "helm-controller".
     */
    gitOpsRecipes?: GitOpsControllerId[];
}

export const GITOPS_CONTROLLERS = ["argo-cd", "kustomize-controller", "helm-controller"] as const;
export type GitOpsControllerId = (typeof GITOPS_CONTROLLERS)[number];

const name = z.string().regex(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/);
const port = z.number().int().min(1).max(65_535).nullish();
/** Text with something besides white space. */
const text = z.string().regex(/\S/).nullish();

const routeSchema = z.object({
    namespace: name,
    service: name.nullish(),
    managementPort: port,
    gatewayPort: port,
    kubeconfig: text,
    context: text,
    statefulSet: name.nullish(),
    volumesOfRemovedBrokers: z.enum(["retain", "delete"]).nullish(),
    gitOpsRecipes: z.array(z.enum(GITOPS_CONTROLLERS)).nullish(),
});

const NAME_RULE = "must be a Kubernetes name: lower-case letters, digits and '-', at most 63 characters";
const REASONS = {
    namespace: `kubernetes.namespace ${NAME_RULE}`,
    service: `kubernetes.service ${NAME_RULE}`,
    managementPort: "kubernetes.managementPort must be a port number from 1 to 65535",
    gatewayPort: "kubernetes.gatewayPort must be a port number from 1 to 65535",
    kubeconfig: "kubernetes.kubeconfig must be a non-empty string",
    context: "kubernetes.context must be a non-empty string",
    statefulSet: `kubernetes.statefulSet ${NAME_RULE}`,
    volumesOfRemovedBrokers: 'kubernetes.volumesOfRemovedBrokers must be "retain" or "delete"',
    gitOpsRecipes: `kubernetes.gitOpsRecipes must be a list of ${GITOPS_CONTROLLERS.map((id) => `"${id}"`).join(", ")}`,
};

/** Validates the input without echoing the kubeconfig. */
export function checkKubernetesRoute(value: unknown, fail: (property: string, reason: string) => void): KubernetesRouteInput | undefined {
    const shape =
        "namespace and service (and optionally managementPort, gatewayPort, kubeconfig, context, statefulSet, volumesOfRemovedBrokers, gitOpsRecipes)";
    const checked = checkObjectInput(value, "kubernetes", routeSchema, { shape, reasons: REASONS }, fail);
    if (checked.kind === "unknown") return value as KubernetesRouteInput;
    if (checked.kind !== "valid") return undefined;
    const { namespace, service, managementPort, gatewayPort, kubeconfig, context, statefulSet, volumesOfRemovedBrokers, gitOpsRecipes } = checked.value;
    if (gitOpsRecipes != null && statefulSet == null) {
        fail("kubernetes", "kubernetes.gitOpsRecipes needs kubernetes.statefulSet: the recipes are those of the controllers deploying it");
        return undefined;
    }
    if (volumesOfRemovedBrokers != null && statefulSet == null) {
        fail("kubernetes", "kubernetes.volumesOfRemovedBrokers needs kubernetes.statefulSet: the claims are the StatefulSet's");
        return undefined;
    }
    if (service == null && statefulSet == null) {
        fail(
            "kubernetes",
            "kubernetes needs service (the route to the management API) or statefulSet (the brokers kept in step, the management API at managementUrl)",
        );
        return undefined;
    }
    if (service == null && (managementPort != null || gatewayPort != null)) {
        fail(
            "kubernetes",
            "kubernetes.managementPort and kubernetes.gatewayPort are ports of kubernetes.service: without it, give managementUrl and gatewayUrl",
        );
        return undefined;
    }
    const route: KubernetesRouteInput = { namespace };
    if (service != null) route.service = service;
    if (managementPort != null) route.managementPort = managementPort;
    if (gatewayPort != null) route.gatewayPort = gatewayPort;
    if (kubeconfig != null) route.kubeconfig = kubeconfig;
    if (context != null) route.context = context;
    if (statefulSet != null) route.statefulSet = statefulSet;
    if (volumesOfRemovedBrokers != null) route.volumesOfRemovedBrokers = volumesOfRemovedBrokers;
    if (gitOpsRecipes != null) route.gitOpsRecipes = [...new Set(gitOpsRecipes)];
    return route;
}

/** How the route is named in the resource id and in messages: `kubernetes://camunda/platform-gateway:9600`. */
export function describeRoute(route: KubernetesRouteInput & { service: string }): string {
    return `kubernetes://${route.namespace}/${route.service}:${route.managementPort ?? DEFAULT_MANAGEMENT_PORT}`;
}

/** The route through the API server's service proxy, when the input names a Service. */
export function serviceRoute(route: KubernetesRouteInput | undefined): (KubernetesRouteInput & { service: string }) | undefined {
    return route?.service === undefined ? undefined : (route as KubernetesRouteInput & { service: string });
}
