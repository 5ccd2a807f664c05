// `pulumi-platform/kubernetes`: what a program that deploys the brokers' StatefulSet needs beside ClusterScale. It
// loads no Kubernetes package.
import "./sdk/nodeSupport";
export { type BrokerStatefulSetOptions, leaveBrokerReplicasToClusterScale } from "./provider/kubernetes/brokerReplicasTransform";
