// A cluster layout whose brokers run in a Kubernetes StatefulSet: new brokers are started before the layout
// change names them, and removed brokers are stopped only after the layout change has completed.
//
// One dependency edge between a StatefulSet and a ClusterScale gets one direction wrong, so the replica count
// is set twice, by two server-side-apply patches around the layout change:
//
//   <name>-current (live read) ──▶ <name>-grow: replicas = max(current, target)
//     ──▶ <name>-layout (ClusterScale) ──▶ <name>-shrink: replicas = target
//
// On a scale-up, grow starts the new brokers and shrink changes nothing; on a scale-down, grow changes nothing
// and shrink stops the removed brokers once their partitions have moved. When the layout change fails, shrink
// does not run and every broker keeps running.
//
// This file is not serialized (only dynamic providers are), so it may import @pulumi/kubernetes as a namespace.
import * as pulumi from "@pulumi/pulumi";
import * as k8s from "@pulumi/kubernetes";
import { ClusterScale } from "../clusterScale/resource";
import type { ClusterScaleArgs, KubernetesRouteArgs } from "../clusterScale/resource";
import { planBrokerReplicas, targetReplicas } from "./brokerReplicas";
import type { BrokerReplicaPlan, LayoutBrokers } from "./brokerReplicas";

/** The StatefulSet whose pods are the brokers (pod ordinal = broker id), e.g. `camunda-zeebe` of the Camunda chart. */
export interface BrokerStatefulSetArgs {
    namespace: pulumi.Input<string>;
    name: pulumi.Input<string>;
}

export interface BrokerStatefulSetScalingArgs {
    /**
     * The broker StatefulSet. It is read live on every preview and update. When the program creates it too,
     * give values that stay unknown until it exists (e.g. derived from its namespace's `id`), so a preview of a
     * new stack skips the read instead of failing, and `up` reads it after creation.
     */
    statefulSet: BrokerStatefulSetArgs;
    /**
     * The layout, exactly as for ClusterScale. Its broker ids are StatefulSet ordinals: the StatefulSet runs
     * pods 0 … highest id, and pods for ids missing from a sparse `brokers` list keep running outside the cluster.
     * A `kubernetes` route without a namespace uses the StatefulSet's.
     */
    clusterScale: Omit<ClusterScaleArgs, "kubernetes"> & { kubernetes?: pulumi.Input<RouteInTheNamespace> };
}

/** The route to the management API, in the StatefulSet's namespace unless it names another. */
export type RouteInTheNamespace = Omit<KubernetesRouteArgs, "namespace"> & { namespace?: pulumi.Input<string> };

/**
 * A ClusterScale that keeps the broker StatefulSet in step: replicas = max(current, target) before the layout
 * change, replicas = target only after it has completed. Both steps change nothing when the count is unchanged.
 *
 * A `provider` (or `providers`) option reaches the Kubernetes resources. The StatefulSet's own manager (a Helm
 * chart, a StatefulSet resource) must leave `.spec.replicas` alone: see the README. Removing this component
 * leaves the StatefulSet as it is (the patches are retained on delete).
 */
export class BrokerStatefulSetScaling extends pulumi.ComponentResource {
    /** The layout change; it runs after `grow` and before `shrink`. */
    readonly clusterScale: ClusterScale;
    /** Sets replicas to max(current, target) before the layout change. */
    readonly grow: k8s.apps.v1.StatefulSetPatch;
    /** Sets replicas to the target after the layout change has completed. */
    readonly shrink: k8s.apps.v1.StatefulSetPatch;
    /** The StatefulSet's replica count when this deployment read it. */
    readonly currentReplicas: pulumi.Output<number>;
    /** The replica count the layout needs: its highest broker id + 1. */
    readonly targetReplicas: pulumi.Output<number>;

    constructor(name: string, args: BrokerStatefulSetScalingArgs, opts?: pulumi.ComponentResourceOptions) {
        checkKnownLayout(name, args.clusterScale);
        super("platform:kubernetes:BrokerStatefulSetScaling", name, {}, opts);

        const { namespace, name: statefulSetName } = args.statefulSet;
        const live = k8s.apps.v1.StatefulSet.get(`${name}-current`, pulumi.interpolate`${namespace}/${statefulSetName}`, {
            parent: this,
            dependsOn: opts?.dependsOn,
        });
        const plan = pulumi
            .all([live.spec, args.clusterScale.brokers, args.clusterScale.brokerCount, namespace, statefulSetName])
            .apply(([spec, brokers, brokerCount, ns, stsName]) => {
                const result = explained(name, () => planBrokerReplicas(spec?.replicas, { brokers, brokerCount }));
                warnAboutPodsOutsideLayout(result, `${ns}/${stsName}`, this);
                return result;
            });
        this.currentReplicas = plan.current;
        this.targetReplicas = plan.target;

        const patch = (step: string, replicas: pulumi.Output<number>, after?: pulumi.Resource) =>
            new k8s.apps.v1.StatefulSetPatch(
                `${name}-${step}`,
                {
                    metadata: {
                        namespace,
                        name: statefulSetName,
                        // Takes .spec.replicas over from its other field managers (the chart, the other patch).
                        annotations: { "pulumi.com/patchForce": "true" },
                    },
                    spec: { replicas },
                },
                // Deleting a patch would release .spec.replicas, and a field nobody manages falls back to 1 replica.
                { parent: this, dependsOn: after, retainOnDelete: true },
            );

        this.grow = patch("grow", plan.grow);
        const route = args.clusterScale.kubernetes;
        const layout: ClusterScaleArgs = {
            ...args.clusterScale,
            kubernetes:
                route === undefined ? undefined : pulumi.all([route, namespace]).apply(([given, ns]) => ({ ...given, namespace: given.namespace ?? ns })),
        };
        this.clusterScale = new ClusterScale(`${name}-layout`, layout, { parent: this, dependsOn: this.grow });
        this.shrink = patch("shrink", plan.shrink, this.clusterScale);

        this.registerOutputs({ currentReplicas: this.currentReplicas, targetReplicas: this.targetReplicas });
    }
}

/** Fails at once, before anything is registered, when the broker list is given as plain values. */
function checkKnownLayout(name: string, layout: Pick<ClusterScaleArgs, "brokers" | "brokerCount">): void {
    const { brokers, brokerCount } = layout;
    const plainBrokers = brokers === undefined || (Array.isArray(brokers) && brokers.every((id) => typeof id === "number"));
    const plainCount = brokerCount === undefined || typeof brokerCount === "number";
    if (plainBrokers && plainCount) {
        explained(name, () => targetReplicas({ brokers, brokerCount } as LayoutBrokers));
    }
}

function explained<T>(name: string, compute: () => T): T {
    try {
        return compute();
    } catch (error) {
        throw new Error(`BrokerStatefulSetScaling "${name}": ${(error as Error).message}`);
    }
}

function warnAboutPodsOutsideLayout(plan: BrokerReplicaPlan, statefulSet: string, resource: pulumi.Resource): void {
    const pods = plan.podsOutsideLayout;
    if (pods.length === 0) return;
    const which = pods.length === 1 ? `pod ${pods[0]} runs` : `pods ${pods.join(", ")} run`;
    pulumi.log.warn(
        `StatefulSet ${statefulSet} keeps ${plan.target} replicas (broker ids up to ${plan.target - 1}); ${which} outside ` +
            "the cluster because the layout leaves those ids out and a StatefulSet can only stop its highest ordinals",
        resource,
    );
}
