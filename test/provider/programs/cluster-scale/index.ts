// Fixture program: one ClusterScale named by the `name` config (default "cluster"), its arguments from the
// `scale` config (JSON), and credentials, when given, from the `auth` secret config (JSON). The management
// URL comes from the stack config platform:managementUrl unless `scale` names one. TLS settings and the Kubernetes
// route, when given, come from the `tls` and `kubernetes` secret config (JSON): the engine records the stack config
// in the state with the default provider, so a kubeconfig goes in as a secret, as a user sets it. With the `second` config
// (JSON arguments), a second ClusterScale named "cluster-b" is declared after the first.
import * as pulumi from "@pulumi/pulumi";
import { ClusterScale } from "pulumi-platform";
import type { ClusterScaleArgs, KubernetesRouteArgs, ManagementAuthArgs, TlsArgs } from "pulumi-platform";

const config = new pulumi.Config();
const args = config.requireObject<ClusterScaleArgs>("scale");
const auth = config.getSecretObject<ManagementAuthArgs>("auth");
const tls = config.getSecretObject<TlsArgs>("tls");
const kubernetes = config.getSecretObject<KubernetesRouteArgs>("kubernetes");

const cluster = new ClusterScale(config.get("name") ?? "cluster", {
    ...args,
    ...(auth ? { auth } : {}),
    ...(tls ? { tls } : {}),
    ...(kubernetes ? { kubernetes } : {}),
});
const second = config.getObject<ClusterScaleArgs>("second");
if (second !== undefined) new ClusterScale("cluster-b", second);

export const changeId = cluster.changeId;
export const topologyVersion = cluster.topologyVersion;
export const topology = cluster.topology;
export const partitionCount = cluster.partitionCount;
export const replicationFactor = cluster.replicationFactor;
export const intendedReplicationFactor = cluster.intendedReplicationFactor;
export const plannedChanges = cluster.plannedChanges;
export const lastChange = cluster.lastChange;
