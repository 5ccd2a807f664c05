// The layout of a cluster, declared in a Pulumi program. Run it against the local emulator with
// `npm run demo`, or against a real cluster by setting `platform:managementUrl` (and optionally
// `platform:gatewayUrl`) in your stack config.
import * as pulumi from "@pulumi/pulumi";
import { ClusterScale, type KubernetesRouteArgs } from "pulumi-platform";

const config = new pulumi.Config();

const layout = new ClusterScale("cluster", {
    // Through the Kubernetes API server instead of platform:managementUrl, when the stack config says how:
    // { namespace, service, managementPort?, gatewayPort?, kubeconfig?, context?, statefulSet? } (see examples/kubernetes).
    kubernetes: config.getObject<KubernetesRouteArgs>("kubernetes"),
    brokerCount: config.getNumber("brokerCount") ?? 5,
    partitionCount: config.getNumber("partitionCount") ?? 8,
    replicationFactor: config.getNumber("replicationFactor") ?? 3,
    timeoutSeconds: config.getNumber("timeoutSeconds") ?? 600,
});

export const changeId = layout.changeId;
export const topologyVersion = layout.topologyVersion;
export const partitionCount = layout.partitionCount;
export const replicationFactor = layout.replicationFactor;
export const brokers = layout.topology.apply((topology) =>
    topology.map((broker) => `${broker.id}: ${broker.partitions.map((p) => `${p.id}(${p.priority})`).join(" ")}`),
);
