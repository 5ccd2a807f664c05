// Replica counts of a broker StatefulSet around a layout change. A StatefulSet runs pods 0 … replicas-1 and
// can only stop its highest ordinals; each broker's id is its pod's ordinal. So the StatefulSet needs every
// ordinal up to the highest broker id of the layout, and a gap in the broker ids is a pod that keeps running
// outside the cluster.

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
    if (brokers !== undefined && brokerCount !== undefined) {
        throw new Error("give either brokers or brokerCount, not both");
    }
    if (brokerCount !== undefined) {
        if (!Number.isSafeInteger(brokerCount) || brokerCount < 1) {
            throw new Error(`brokerCount is ${JSON.stringify(brokerCount)}: it must be an integer ≥ 1`);
        }
        return { target: brokerCount, podsOutsideLayout: [] };
    }
    if (brokers === undefined) {
        throw new Error("give either brokers (the ids of every broker) or brokerCount (brokers 0 … n-1)");
    }
    if (brokers.length === 0) throw new Error("brokers must name at least one broker");
    const ids = new Set<number>();
    for (const id of brokers) {
        if (!Number.isSafeInteger(id) || id < 0) {
            throw new Error(`broker id ${JSON.stringify(id)} is not a StatefulSet ordinal: every broker id must be an integer ≥ 0`);
        }
        if (ids.has(id)) throw new Error(`broker ${id} is listed twice: broker ids must be unique`);
        ids.add(id);
    }
    const target = Math.max(...ids) + 1;
    const podsOutsideLayout: number[] = [];
    for (let ordinal = 0; ordinal < target; ordinal++) {
        if (!ids.has(ordinal)) podsOutsideLayout.push(ordinal);
    }
    return { target, podsOutsideLayout };
}
