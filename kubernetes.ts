// `pulumi-platform/kubernetes`: the Kubernetes helper. Kept apart from the package root so that only programs that
// import it load @pulumi/kubernetes (an optional peer dependency), and with it the Kubernetes plugin.
export { BrokerStatefulSetScaling } from "./provider/kubernetes/resource";
export type { BrokerStatefulSetArgs, BrokerStatefulSetScalingArgs, RouteInTheNamespace } from "./provider/kubernetes/resource";
