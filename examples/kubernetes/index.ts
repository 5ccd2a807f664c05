// The workflow engine on Kubernetes. The Camunda chart runs the brokers in a StatefulSet; BrokerStatefulSetScaling
// changes the cluster layout and keeps that StatefulSet in step: new brokers start before the layout change
// names them, removed brokers stop only after it has completed. See README.md next to this file.
import * as pulumi from "@pulumi/pulumi";
import * as k8s from "@pulumi/kubernetes";
import { BrokerStatefulSetScaling } from "pulumi-platform/kubernetes";

const config = new pulumi.Config();

const release = "camunda";
// The chart's orchestration (broker) StatefulSet: `<release>-zeebe` in charts 12.x and 13.x.
const brokerStatefulSet = `${release}-zeebe`;
// The chart's gateway Service, which exposes the management API (9600) and the REST API (8080).
const gatewayService = config.get("gatewayService") ?? `${release}-zeebe-gateway`;
// Read by the brokers once, when the cluster is first created. Never change them afterwards: scale with the
// layout below. (A later change here changes no layout, only restarts every broker with a configuration that
// disagrees with the cluster.)
const bootstrap = { clusterSize: 3, partitionCount: 3, replicationFactor: 3 };

const namespace = new k8s.core.v1.Namespace("camunda", { metadata: { name: config.get("namespace") ?? "camunda" } });

const chart = new k8s.helm.v4.Chart(
    "camunda",
    {
        name: release,
        namespace: namespace.metadata.name,
        chart: "camunda-platform",
        repositoryOpts: { repo: "https://helm.camunda.io" },
        version: config.get("chartVersion") ?? "13.0.0",
        values: {
            // Chart 13.x (8.8). Chart 12.x and older call this section `zeebe`.
            orchestration: {
                clusterSize: bootstrap.clusterSize,
                partitionCount: bootstrap.partitionCount,
                replicationFactor: bootstrap.replicationFactor,
                env: [{ name: "PLATFORM_BROKER_EXPERIMENTAL_FEATURES_ENABLEPARTITIONSCALING", value: "true" }],
            },
        },
    },
    { transforms: [leaveBrokerCountToScaling] },
);

// The broker count belongs to the scaling below. The chart's StatefulSet ignores .spec.replicas, so updating the
// chart never starts or stops a broker (pulumi-kubernetes then leaves the field out of its server-side apply).
function leaveBrokerCountToScaling(args: pulumi.ResourceTransformArgs): pulumi.ResourceTransformResult | undefined {
    if (args.type !== "kubernetes:apps/v1:StatefulSet" || args.props.metadata?.name !== brokerStatefulSet) return undefined;
    const props = { ...args.props };
    if (config.getBoolean("deleteVolumesOfRemovedBrokers")) {
        // The StatefulSet shrinks only after the layout change has moved every partition off the removed brokers.
        props.spec = { ...props.spec, persistentVolumeClaimRetentionPolicy: { whenScaled: "Delete", whenDeleted: "Retain" } };
    }
    return { props, opts: pulumi.mergeOptions(args.opts, { ignoreChanges: ["spec.replicas"] }) };
}

// Known only once the namespace exists: a preview of a new stack skips the live read of the StatefulSet (not
// created yet) instead of failing, and `up` reads it after the chart has created it (dependsOn).
const brokerNamespace = pulumi.all([namespace.id, namespace.metadata.name]).apply(([, name]) => name);

const scaling = new BrokerStatefulSetScaling(
    "cluster",
    {
        statefulSet: { namespace: brokerNamespace, name: brokerStatefulSet },
        clusterScale: {
            // Through the Kubernetes API server's service proxy, with the kubeconfig the Kubernetes provider uses
            // (stack config kubernetes:kubeconfig, else KUBECONFIG, else ~/.kube/config): no port-forward, and it
            // works from a laptop or a hosted CI runner. The identity needs get, create and patch on services/proxy.
            // The namespace is the StatefulSet's.
            kubernetes: { service: gatewayService, managementPort: 9600, gatewayPort: 8080 },
            brokerCount: config.getNumber("brokerCount") ?? bootstrap.clusterSize,
            partitionCount: config.getNumber("partitionCount") ?? bootstrap.partitionCount,
            replicationFactor: config.getNumber("replicationFactor") ?? bootstrap.replicationFactor,
            timeoutSeconds: config.getNumber("timeoutSeconds") ?? 1800,
        },
    },
    { dependsOn: chart },
);

export const brokerReplicasBefore = scaling.currentReplicas;
export const brokerReplicas = scaling.targetReplicas;
export const changeId = scaling.clusterScale.changeId;
export const partitionCount = scaling.clusterScale.partitionCount;
export const replicationFactor = scaling.clusterScale.replicationFactor;
