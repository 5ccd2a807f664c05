// A resource transform for the program that deploys the brokers' StatefulSet (a Helm chart through
// `k8s.helm.v4.Chart`, or the StatefulSet itself): its `spec.replicas` is left to ClusterScale (kubernetes.statefulSet),
// which raises it before a layout change names new brokers and lowers it only once a scale-down completed. Without it,
// the chart's next update of the StatefulSet after ClusterScale changed the count fails with an apply conflict (with
// server-side apply, the default), or writes the chart's count back and stops brokers that hold partitions (without).
//
// Measured with Pulumi's Kubernetes provider 4.25.0 on Kubernetes 1.36.3 (test/kubernetes/pulumiKubernetes.spec.ts): the
// provider then leaves spec.replicas out of what it applies, with server-side apply (the default, forced or not) and
// without it, so ClusterScale's count stays and nothing conflicts (test/kubernetes/pulumiKubernetesWithout.spec.ts: the
// same without the transform). It also marks the StatefulSet with an annotation
// (REPLICAS_ANNOTATION), by which ClusterScale's preview knows the program leaves it the count and warns otherwise.
//
// It only edits the resource's options and its own annotations: it needs no Kubernetes package to load.
import * as pulumi from "@pulumi/pulumi";
import { REPLICAS_ANNOTATION, REPLICAS_LEFT_TO } from "../shared/replicasAnnotation";

const STATEFUL_SET_TYPE = "kubernetes:apps/v1:StatefulSet";

/** `transforms: [leaveBrokerReplicasToClusterScale("camunda-zeebe")]`: ignoreChanges on that StatefulSet's spec.replicas. */
export function leaveBrokerReplicasToClusterScale(statefulSet: string): pulumi.ResourceTransform {
    return (args: pulumi.ResourceTransformArgs): pulumi.ResourceTransformResult | undefined => {
        const metadata = args.props.metadata as { name?: unknown; annotations?: Record<string, unknown> } | undefined;
        if (args.type !== STATEFUL_SET_TYPE || metadata?.name !== statefulSet) return undefined;
        const annotations = { ...metadata.annotations, [REPLICAS_ANNOTATION]: REPLICAS_LEFT_TO };
        return {
            props: { ...args.props, metadata: { ...metadata, annotations } },
            opts: pulumi.mergeOptions(args.opts, { ignoreChanges: ["spec.replicas"] }),
        };
    };
}
