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
// A replacement of the StatefulSet (a change of what Kubernetes cannot update in place: volumeClaimTemplates, the PVC
// size among them, serviceName, podManagementPolicy, selector) must never delete it first: deleting it stops every
// broker at once while they hold partition replicas, and the engine's ignoreChanges would re-create it at the
// program's old count, not the layout's (measured: test/kubernetes/statefulSetReplaced.spec.ts). So the transform makes
// it create-before-delete (deleteBeforeReplace: false, which also overrides a provider's own request): the new
// StatefulSet of the same name is refused by Kubernetes while the old one exists (at preview, and at up without one),
// before anything is deleted. A program's own deleteBeforeReplace: true is refused when the resource is registered,
// naming it (a warning logged from a transform is not shown by the CLI: measured).
//
// Kubernetes' refusal of the replacement does not say which field, nor what it means for the brokers. So, where it can
// read the live StatefulSet (the kubeconfig given, else the Kubernetes provider's own defaults), the transform compares
// the fields Kubernetes cannot update in place with what the program declares and, on a difference, refuses at
// registration in the product's words: the field, what a replacement does to the brokers, and the way that keeps them
// (fixedFields.ts, replacementRefusal.ts). Where it cannot read it, Kubernetes' own refusal stands.
//
// It edits the resource's options and its own annotations, and reads the StatefulSet over HTTP: it needs no Kubernetes
// package to load.
import * as pulumi from "@pulumi/pulumi";
import { REPLICAS_ANNOTATION, REPLICAS_LEFT_TO } from "../shared/replicasAnnotation";
import { fixedFieldChanges } from "./fixedFields";
import { readLiveStatefulSet, type StatefulSetReach } from "./liveStatefulSet";
import { replacementRefused } from "./replacementRefusal";

const STATEFUL_SET_TYPE = "kubernetes:apps/v1:StatefulSet";

export interface BrokerStatefulSetOptions extends StatefulSetReach {
    /** The StatefulSet's namespace when its metadata names none (default: "default", as for the Kubernetes provider). */
    namespace?: string;
}

/**
 * `transforms: [leaveBrokerReplicasToClusterScale("camunda-zeebe")]`: ignoreChanges on that StatefulSet's spec.replicas,
 * and never deleted before its replacement. `options` say how to read the live StatefulSet, to name a change
 * Kubernetes cannot make in place before anything changes: give the kubeconfig of the program's Kubernetes provider
 * when it is not the default one.
 */
export function leaveBrokerReplicasToClusterScale(statefulSet: string, options: BrokerStatefulSetOptions = {}): pulumi.ResourceTransform {
    return async (args: pulumi.ResourceTransformArgs): Promise<pulumi.ResourceTransformResult | undefined> => {
        const metadata = args.props.metadata as { name?: unknown; namespace?: unknown; annotations?: Record<string, unknown> } | undefined;
        if (args.type !== STATEFUL_SET_TYPE || metadata?.name !== statefulSet) return undefined;
        if ((args.opts as pulumi.CustomResourceOptions).deleteBeforeReplace === true) throw new Error(deleteFirstRefused(statefulSet));
        const namespace = typeof metadata.namespace === "string" ? metadata.namespace : (options.namespace ?? "default");
        const live = await readLiveStatefulSet(reachOf(options), namespace, statefulSet);
        if (live !== undefined) {
            const changes = fixedFieldChanges(args.props, live.view);
            if (changes.length > 0) throw new Error(replacementRefused(changes, { statefulSet, namespace, live: live.view, server: live.server }));
        }
        const annotations = { ...metadata.annotations, [REPLICAS_ANNOTATION]: REPLICAS_LEFT_TO };
        return {
            props: { ...args.props, metadata: { ...metadata, annotations } },
            opts: pulumi.mergeOptions(args.opts, { ignoreChanges: ["spec.replicas"], deleteBeforeReplace: false }),
        };
    };
}

/** The options' kubeconfig, else the one the Kubernetes provider's default instance uses (stack config first). */
function reachOf(options: BrokerStatefulSetOptions): StatefulSetReach {
    const config = new pulumi.Config("kubernetes");
    const kubeconfig = options.kubeconfig ?? config.get("kubeconfig");
    const context = options.context ?? config.get("context");
    return { ...(kubeconfig !== undefined ? { kubeconfig } : {}), ...(context !== undefined ? { context } : {}) };
}

function deleteFirstRefused(statefulSet: string): string {
    return (
        `StatefulSet ${statefulSet}: deleteBeforeReplace: true is refused (leaveBrokerReplicasToClusterScale): deleting it first would stop every ` +
        "broker at once while they hold partition replicas, and re-create it at the chart's count instead of the layout's; remove the option. " +
        "A change Kubernetes cannot make in place (volumeClaimTemplates, serviceName, podManagementPolicy, selector) then fails before anything " +
        "is deleted; to give brokers more disk, expand their claims (see the README's Kubernetes recipe)"
    );
}
