// Replica counts of a broker StatefulSet around a layout change. A StatefulSet runs pods 0 … replicas-1 and
// can only stop its highest ordinals; each broker's id is its pod's ordinal. So the StatefulSet needs every
// ordinal up to the highest broker id of the layout, and a gap in the broker ids is a pod that keeps running
// outside the cluster.

import { brokerIdsOf, checkLayout } from "../shared/layoutSchema";

export interface BrokerReplicaPlan {
    /** Replicas the StatefulSet has now. */
    current: number;
    /** Replicas the layout needs: the highest broker id + 1. */
    target: number;
    /** Before the layout change: never fewer than now, so no broker stops before the change has moved its data. */
    grow: number;
    /** After the layout change completed: exactly what the layout needs. */
    shrink: number;
    /** Ordinals below `target` that are not brokers of the layout (gaps in a sparse `brokers` list). */
    podsOutsideLayout: number[];
}

/** The brokers a layout names: a list of ids or a count (brokers 0 … count-1), exactly one of the two. */
export interface LayoutBrokers {
    brokers?: number[];
    brokerCount?: number;
}

/** Replicas the layout needs; throws with a reason when the brokers cannot be run by one StatefulSet. */
export function targetReplicas(layout: LayoutBrokers): number {
    return brokerOrdinals(layout).target;
}

export function planBrokerReplicas(current: number | undefined, layout: LayoutBrokers): BrokerReplicaPlan {
    if (current === undefined || !Number.isSafeInteger(current) || current < 0) {
        throw new Error(`the StatefulSet's .spec.replicas is ${String(current)}, not a replica count`);
    }
    const { target, podsOutsideLayout } = brokerOrdinals(layout);
    return { current, target, grow: Math.max(current, target), shrink: target, podsOutsideLayout };
}

function brokerOrdinals({ brokers, brokerCount }: LayoutBrokers): { target: number; podsOutsideLayout: number[] } {
    // The same rules, in the same words, as ClusterScale's check of its brokers.
    const [failure] = checkLayout({ brokers, brokerCount }).failures;
    if (failure !== undefined) throw new Error(failure.reason);
    const ids = new Set(brokerIdsOf(brokers, brokerCount));
    const target = Math.max(...ids) + 1;
    const podsOutsideLayout: number[] = [];
    for (let ordinal = 0; ordinal < target; ordinal++) {
        if (!ids.has(ordinal)) podsOutsideLayout.push(ordinal);
    }
    return { target, podsOutsideLayout };
}
