// The workflow engine on Kubernetes. The Camunda chart runs the brokers in a StatefulSet; ClusterScale changes the
// cluster layout and keeps that StatefulSet in step itself (kubernetes.statefulSet): new brokers' pods run before the
// layout change names them, removed brokers' pods stop only once it has completed. See README.md next to this file.
import * as pulumi from "@pulumi/pulumi";
import * as k8s from "@pulumi/kubernetes";
import { ClusterScale } from "pulumi-platform";
import { leaveBrokerReplicasToClusterScale } from "pulumi-platform/kubernetes";

const config = new pulumi.Config();

const release = "camunda";
// The chart's orchestration (broker) StatefulSet: `<release>-zeebe` in charts 13.x and 14.x.
const brokerStatefulSet = `${release}-zeebe`;
const namespaceName = config.get("namespace") ?? "camunda";
// Read by the brokers once, when the cluster is first created. Never change them afterwards: scale with the
// layout below. (A later change here changes no layout, only restarts every broker with a configuration that
// disagrees with the cluster.)
const bootstrap = { clusterSize: 3, partitionCount: 3, replicationFactor: 3 };
// A copy of the chart on disk (where no chart registry can be reached), else the chart from helm.camunda.io.
const chartPath = config.get("chartPath");

const namespace = new k8s.core.v1.Namespace("camunda", { metadata: { name: namespaceName } });

const chart = new k8s.helm.v4.Chart(
    "camunda",
    {
        name: release,
        namespace: namespace.metadata.name,
        ...(chartPath
            ? { chart: chartPath }
            : { chart: "camunda-platform", repositoryOpts: { repo: "https://helm.camunda.io" }, version: config.get("chartVersion") ?? "14.8.4" }),
        values: {
            // Charts 13.x (8.8) and 14.x (8.9). Chart 12.x and older call this section `zeebe`.
            orchestration: {
                clusterSize: bootstrap.clusterSize,
                partitionCount: bootstrap.partitionCount,
                replicationFactor: bootstrap.replicationFactor,
                env: [{ name: "PLATFORM_BROKER_EXPERIMENTAL_FEATURES_ENABLEPARTITIONSCALING", value: "true" }],
            },
        },
    },
    // The broker count belongs to ClusterScale: updating the chart never starts or stops a broker. A change Kubernetes
    // cannot make in place (the PVC size, say) is refused before anything changes, naming the field: the transform
    // reads the live StatefulSet with the Kubernetes provider's default kubeconfig (give it `{ kubeconfig }` with a
    // provider of your own).
    { transforms: [leaveBrokerReplicasToClusterScale(brokerStatefulSet)] },
);

const cluster = new ClusterScale(
    "cluster",
    {
        // The management API (9600) and the gateway (8080) directly, from stack config platform:managementUrl and
        // platform:gatewayUrl: the Service's address from inside the cluster, or a port-forward (README.md). The
        // Kubernetes API server's service proxy cannot carry the management API's dry runs.
        // The StatefulSet is kept in step through the API server, with the kubeconfig the Kubernetes provider uses
        // (stack config kubernetes:kubeconfig, else KUBECONFIG, else ~/.kube/config). The Role it needs is in README.md.
        kubernetes: {
            namespace: namespaceName,
            statefulSet: brokerStatefulSet,
            volumesOfRemovedBrokers: config.getBoolean("deleteVolumesOfRemovedBrokers") ? "delete" : "retain",
        },
        brokerCount: config.getNumber("brokerCount") ?? bootstrap.clusterSize,
        partitionCount: config.getNumber("partitionCount") ?? bootstrap.partitionCount,
        replicationFactor: config.getNumber("replicationFactor") ?? bootstrap.replicationFactor,
        timeoutSeconds: config.getNumber("timeoutSeconds") ?? 1800,
    },
    { dependsOn: chart },
);

export const changeId = cluster.changeId;
export const partitionCount = cluster.partitionCount;
export const replicationFactor = cluster.replicationFactor;
