// `pulumi-platform/kubernetes`: what a program that deploys the brokers' StatefulSet needs beside ClusterScale. It
// loads no Kubernetes package.
export { leaveBrokerReplicasToClusterScale } from "./provider/kubernetes/brokerReplicasTransform";
