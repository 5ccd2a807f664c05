// Replicas: the replication factor a ClusterScale intends, partitions running below it (after a force removal),
// and plans that would drop replicas the program did not ask to drop. The server never decides the replication
// factor for the resource: a request always carries the intended one (the input, else the one recorded in state,
// else the most replicas any partition has when the resource is created).

import type { ChangePlan } from "../../sdk/schemas";
import type { DesiredLayout } from "./inputs";

interface BrokerLike {
    id: number;
    state: string;
    partitions: readonly { id: number }[];
}

/** Replicas per partition, counting brokers that are still members (not LEFT). */
export function replicaCounts(brokers: readonly BrokerLike[]): Map<number, number> {
    const counts = new Map<number, number>();
    for (const broker of brokers) {
        if (broker.state === "LEFT") continue;
        for (const partition of broker.partitions) counts.set(partition.id, (counts.get(partition.id) ?? 0) + 1);
    }
    return counts;
}

/** The most replicas any partition has (0 without partitions): what a degraded cluster is restored to. */
export function mostReplicas(brokers: readonly BrokerLike[]): number {
    return Math.max(0, ...replicaCounts(brokers).values());
}

/** What the old outputs say the resource intends; a state written before it was recorded: the most replicas then. */
export function recordedIntent(olds: { intendedReplicationFactor?: unknown; topology?: unknown; replicationFactor?: unknown } | undefined): number | undefined {
    if (olds === undefined) return undefined;
    if (typeof olds.intendedReplicationFactor === "number") return olds.intendedReplicationFactor;
    const most = Array.isArray(olds.topology) ? mostReplicas(olds.topology as BrokerLike[]) : 0;
    if (most > 0) return most;
    return typeof olds.replicationFactor === "number" && olds.replicationFactor > 0 ? olds.replicationFactor : undefined;
}

export interface ReplicaShortfall {
    /** Partitions with fewer replicas than intended, ascending. */
    partitions: number[];
    /** The fewest replicas any of them has. */
    fewest: number;
}

/** Partitions running below the intended replication factor; undefined when there are none. */
export function underReplicated(brokers: readonly BrokerLike[], intended: number | undefined): ReplicaShortfall | undefined {
    if (intended === undefined) return undefined;
    const below = [...replicaCounts(brokers)].filter(([, count]) => count < intended).sort(([a], [b]) => a - b);
    if (below.length === 0) return undefined;
    return { partitions: below.map(([id]) => id), fewest: Math.min(...below.map(([, count]) => count)) };
}

export interface ReplicaLoss {
    partitionId: number;
    before: number;
    after: number;
}

/**
 * Partitions the plan leaves with fewer replicas than they have, although the program did not ask for it: asking
 * is a replicationFactor input the partition still meets afterwards, or a force removal of the brokers that held
 * the lost replicas.
 */
export function unaskedReplicaLosses(desired: DesiredLayout, plan: ChangePlan): ReplicaLoss[] {
    const before = replicaCounts(plan.currentTopology);
    const after = replicaCounts(plan.expectedTopology);
    const removed = new Set(
        plan.currentTopology.filter((broker) => broker.state !== "LEFT" && !desired.brokers.includes(broker.id)).map((broker) => broker.id),
    );
    const losses: ReplicaLoss[] = [];
    for (const [partitionId, count] of before) {
        const remaining = after.get(partitionId) ?? 0;
        if (remaining >= count) continue;
        if (desired.replicationFactor !== undefined && remaining >= desired.replicationFactor) continue;
        if (desired.force) {
            const onRemoved = plan.currentTopology.filter((broker) => removed.has(broker.id) && broker.partitions.some((p) => p.id === partitionId)).length;
            if (remaining >= count - onRemoved) continue;
        }
        losses.push({ partitionId, before: count, after: remaining });
    }
    return losses.sort((a, b) => a.partitionId - b.partitionId);
}

/** `partition 3 (2 → 1 replicas), partition 4 (2 → 1 replicas)` */
export function describeLosses(losses: readonly ReplicaLoss[]): string {
    return losses.map((loss) => `partition ${loss.partitionId} (${loss.before} → ${loss.after} replicas)`).join(", ");
}
