// What the platform's chart puts in a namespace of the real control plane, as the README's Kubernetes recipe has it:
// the brokers' StatefulSet `camunda-zeebe` (a volume claim per broker, its ports named management and gateway), the
// gateway Service `camunda-zeebe-gateway` in front of them, and a pipeline's ServiceAccount bound to the README's
// Role; ClusterScale's `kubernetes` input names the StatefulSet and carries a kubeconfig with that ServiceAccount's
// token (the management API is reached at managementUrl: a real API server refuses its dry runs on the service proxy).
// With `helm`, the StatefulSet comes from `helm install` of the test chart (chart/), as a Helm user's does.
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { toolDir } from "../tools/toolsDir";
import type { ControlPlane } from "./controlPlane";

export const NAMESPACE = "camunda";
export const STATEFUL_SET = "camunda-zeebe";
export const SERVICE = "camunda-zeebe-gateway";
export const PORTS = { management: 9600, gateway: 8080 };

export interface PolicyRule {
    apiGroups: string[];
    resources: string[];
    resourceNames?: string[];
    verbs: string[];
}

/** The README's Role ("The Role it needs"), rule by rule. */
export const README_RULES: PolicyRule[] = [
    { apiGroups: ["apps"], resources: ["statefulsets"], resourceNames: [STATEFUL_SET], verbs: ["get"] },
    { apiGroups: ["apps"], resources: ["statefulsets/scale"], resourceNames: [STATEFUL_SET], verbs: ["get", "update"] },
    { apiGroups: [""], resources: ["pods"], verbs: ["list", "watch"] },
    { apiGroups: [""], resources: ["persistentvolumeclaims"], verbs: ["list", "delete"] },
];

export interface WorkloadSpec {
    replicas: number;
    podManagementPolicy?: "Parallel" | "OrderedReady";
    /** spec.ordinals.start */
    firstOrdinal?: number;
    /** spec.persistentVolumeClaimRetentionPolicy */
    retention?: { whenScaled: "Retain" | "Delete"; whenDeleted: "Retain" | "Delete" };
    rules?: PolicyRule[];
    /** Made by `helm install` of the test chart (chart/, clusterSize = replicas) with this helm, instead of a POST. */
    helm?: string;
    /** Made by the test's Pulumi program (everything else of the namespace is made here). */
    byProgram?: boolean;
    /** The namespace made for it (NAMESPACE unless given). */
    namespace?: string;
}

/** Creates the namespace's objects; answers the ClusterScale `kubernetes` input for the pipeline's identity. */
export async function deployBrokers(plane: ControlPlane, spec: WorkloadSpec): Promise<{ route: Record<string, unknown>; kubeconfig: string }> {
    const api = plane.admin;
    const namespace = spec.namespace ?? NAMESPACE;
    await api.must("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: namespace } });
    const ns = `/api/v1/namespaces/${namespace}`;
    await api.must("POST", `${ns}/serviceaccounts`, { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: "pipeline" } });
    await setRules(plane, spec.rules ?? README_RULES, namespace);
    await api.must("POST", `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/rolebindings`, {
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "RoleBinding",
        metadata: { name: "cluster-layout" },
        roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "cluster-layout" },
        subjects: [{ kind: "ServiceAccount", name: "pipeline", namespace }],
    });
    await api.must("POST", `${ns}/services`, {
        apiVersion: "v1",
        kind: "Service",
        metadata: { name: SERVICE },
        spec: {
            selector: { app: "zeebe" },
            ports: [
                { name: "management", port: PORTS.management, targetPort: "management" },
                { name: "gateway", port: PORTS.gateway, targetPort: "gateway" },
            ],
        },
    });
    if (spec.helm !== undefined) {
        helm(plane, namespace, spec.helm, ["install", RELEASE, CHART, "--set", `clusterSize=${spec.replicas}`]);
    } else if (!spec.byProgram)
        await api.must("POST", `/apis/apps/v1/namespaces/${namespace}/statefulsets?fieldManager=chart-install`, {
            apiVersion: "apps/v1",
            kind: "StatefulSet",
            metadata: { name: STATEFUL_SET },
            spec: {
                replicas: spec.replicas,
                serviceName: STATEFUL_SET,
                podManagementPolicy: spec.podManagementPolicy ?? "Parallel",
                selector: { matchLabels: { app: "zeebe" } },
                ...(spec.firstOrdinal !== undefined ? { ordinals: { start: spec.firstOrdinal } } : {}),
                ...(spec.retention ? { persistentVolumeClaimRetentionPolicy: spec.retention } : {}),
                template: {
                    metadata: { labels: { app: "zeebe" } },
                    spec: {
                        containers: [
                            {
                                name: "broker",
                                image: "camunda/camunda:8.9.16",
                                ports: [
                                    { name: "management", containerPort: PORTS.management },
                                    { name: "gateway", containerPort: PORTS.gateway },
                                ],
                                volumeMounts: [{ name: "data", mountPath: "/usr/local/zeebe/data" }],
                            },
                        ],
                    },
                },
                volumeClaimTemplates: [{ metadata: { name: "data" }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } } }],
            },
        });
    const kubeconfig = plane.kubeconfigFor(await plane.serviceAccountToken(namespace, "pipeline"));
    return {
        kubeconfig,
        route: { namespace, statefulSet: STATEFUL_SET, kubeconfig },
    };
}

/** The test chart (a broker StatefulSet as the platform's chart makes it) and the release name it is installed as. */
export const CHART = path.join(__dirname, "chart");
export const RELEASE = "zeebe";

/** The helm of this version built by `npm run tools:kubernetes`. */
export function helmBin(version: string): string {
    const bin = path.join(toolDir("helm", `v${version}`), "bin", "helm");
    if (!fs.existsSync(bin)) throw new Error(`no helm at ${bin}: run \`npm run tools:kubernetes\` (needs Go)`);
    return bin;
}

/** Runs helm with the admin's kubeconfig in the namespace (`paths` first on its PATH); returns what it printed. */
export function helm(plane: ControlPlane, namespace: string, bin: string, args: string[], paths: string[] = []): string {
    return execFileSync(bin, [...args, "--namespace", namespace, "--kubeconfig", plane.adminKubeconfigFile], {
        encoding: "utf8",
        env: {
            // What a post-renderer runs (kubectl) sees the same cluster.
            PATH: [...paths, process.env.PATH].join(path.delimiter),
            KUBECONFIG: plane.adminKubeconfigFile,
            HOME: process.env.HOME,
            HELM_CACHE_HOME: path.join(plane.workDir, "helm-cache"),
            HELM_CONFIG_HOME: path.join(plane.workDir, "helm-config"),
            HELM_DATA_HOME: path.join(plane.workDir, "helm-data"),
        },
        stdio: ["ignore", "pipe", "pipe"],
    });
}

/** Replaces the pipeline's Role in the namespace with these rules. */
export async function setRules(plane: ControlPlane, rules: PolicyRule[], namespace: string): Promise<void> {
    const path = `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/roles`;
    const role = { apiVersion: "rbac.authorization.k8s.io/v1", kind: "Role", metadata: { name: "cluster-layout" }, rules };
    const existing = await plane.admin.get(`${path}/cluster-layout`);
    if (existing.status === 404) await plane.admin.must("POST", path, role);
    else await plane.admin.must("PUT", `${path}/cluster-layout`, role);
}
