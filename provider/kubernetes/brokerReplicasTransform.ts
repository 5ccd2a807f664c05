// A resource transform for the program that deploys the brokers' StatefulSet (a Helm chart through
// `k8s.helm.v4.Chart`, or the StatefulSet itself): its `spec.replicas` is left to ClusterScale (kubernetes.statefulSet),
// which raises it before a layout change names new brokers and lowers it only once a scale-down completed. Without it,
// every update of the chart would write the chart's broker count back, stopping brokers that hold partitions.
//
// It only edits resource options: it needs no Kubernetes package to load.
import * as pulumi from "@pulumi/pulumi";

const STATEFUL_SET_TYPE = "kubernetes:apps/v1:StatefulSet";

/** `transforms: [leaveBrokerReplicasToClusterScale("camunda-zeebe")]`: ignoreChanges on that StatefulSet's spec.replicas. */
export function leaveBrokerReplicasToClusterScale(statefulSet: string): pulumi.ResourceTransform {
    return (args: pulumi.ResourceTransformArgs): pulumi.ResourceTransformResult | undefined => {
        const metadata = args.props.metadata as { name?: unknown } | undefined;
        if (args.type !== STATEFUL_SET_TYPE || metadata?.name !== statefulSet) return undefined;
        return { props: args.props, opts: pulumi.mergeOptions(args.opts, { ignoreChanges: ["spec.replicas"] }) };
    };
}
