// The annotation leaveBrokerReplicasToClusterScale puts on the brokers' StatefulSet: the program leaves its
// spec.replicas to ClusterScale, whose preview then knows that Pulumi's Kubernetes provider will not write the count.
export const REPLICAS_ANNOTATION = "pulumi-platform/replicas";
export const REPLICAS_LEFT_TO = "ClusterScale";
