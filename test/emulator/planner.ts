// Turns management requests into ordered operation lists (the reference's request transformers)
// and validates a plan by simulating it, which also yields expectedTopology.
//
// Ordering follows the newest release described by the reference: partitions ascending; inside a
// partition, joins by ascending broker id (the reference leaves that order random), leaves and
// priority changes in Java hash-map order of the broker ids (1, 2, ..., 9, 0); BROKER_ADD ascending;
// BROKER_REMOVE in hash-map order; the joins of a new partition in round-robin replica order.

import {
    ClusterConfiguration,
    Operation,
    RoutingState,
    activeMemberIds,
    cloneConfiguration,
    lowestMemberId,
    minReplicationFactor,
    partitionIds,
} from "./clusterState";
import { javaHashOrder, javaListString } from "./javaOrder";
import { completeOperation, dropLeftMembers, initOperation } from "./operationEffects";
import { roundRobinDistribution } from "./roundRobin";
import type { Release } from "./settings";

/** Highest partition id the protocol allows. */
export const MAXIMUM_PARTITIONS = 8192;

export interface PlanError {
    status: 400 | 500;
    message: string;
}

export type PlanOutcome = { operations: Operation[] } | { error: PlanError };

function invalid(message: string): { error: PlanError } {
    return { error: { status: 400, message } };
}

/** partition id -> (broker id -> priority) of replicas that are ACTIVE or LEAVING. */
function currentDistribution(config: ClusterConfiguration): Map<number, Map<number, number>> {
    const distribution = new Map<number, Map<number, number>>();
    for (const [brokerId, member] of config.members) {
        if (member.status === "LEFT") continue;
        for (const [partitionId, partition] of member.partitions) {
            if (partition.status !== "ACTIVE" && partition.status !== "LEAVING") continue;
            if (!distribution.has(partitionId)) distribution.set(partitionId, new Map());
            distribution.get(partitionId)!.set(brokerId, partition.priority);
        }
    }
    return distribution;
}

function movePartition(partitionId: number, before: Map<number, number>, after: Map<number, number>): Operation[] {
    const operations: Operation[] = [];
    for (const brokerId of [...after.keys()].sort((a, b) => a - b)) {
        if (!before.has(brokerId)) {
            operations.push({ kind: "PARTITION_JOIN", brokerId, partitionId, priority: after.get(brokerId)! });
        }
    }
    const previous = javaHashOrder(before.keys());
    for (const brokerId of previous) {
        if (!after.has(brokerId)) operations.push({ kind: "PARTITION_LEAVE", brokerId, partitionId });
    }
    for (const brokerId of previous) {
        const priority = after.get(brokerId);
        if (priority !== undefined && priority !== before.get(brokerId)) {
            operations.push({ kind: "PARTITION_RECONFIGURE_PRIORITY", brokerId, partitionId, priority });
        }
    }
    return operations;
}

function bootstrapPartition(partitionId: number, replicas: Map<number, number>): Operation[] {
    const [primary, ...others] = [...replicas.entries()];
    return [
        { kind: "PARTITION_BOOTSTRAP", brokerId: primary[0], partitionId, priority: primary[1] },
        ...others.map(([brokerId, priority]): Operation => ({ kind: "PARTITION_JOIN", brokerId, partitionId, priority })),
    ];
}

export interface ScaleOptions {
    replicationFactor?: number;
    partitionCount?: number;
    /** 8.9 plans a change of the member set between PRE_SCALING and POST_SCALING (8.8 does not). */
    release?: Release;
}

/**
 * Scale to exactly `target` members: BROKER_ADD for new members, the round-robin reassignment of
 * every partition over the target (with new partitions bootstrapped when the count grows), then
 * BROKER_REMOVE for members outside the target. In 8.9, when the member set changes, the coordinator (the lowest
 * current member) runs PRE_SCALING first and POST_SCALING last, each naming the final members.
 */
export function planScale(config: ClusterConfiguration, target: Iterable<number>, options: ScaleOptions = {}): PlanOutcome {
    const targetIds = [...new Set(target)].sort((a, b) => a - b);
    const currentIds = activeMemberIds(config);
    const operations: Operation[] = [];
    for (const brokerId of targetIds) {
        if (!currentIds.includes(brokerId)) operations.push({ kind: "MEMBER_JOIN", brokerId });
    }

    if (targetIds.length === 0) {
        return invalid("java.lang.IllegalArgumentException: Cannot reassign partitions if no brokers are provided");
    }
    const currentCount = partitionIds(config).length;
    const partitionCount = options.partitionCount ?? currentCount;
    if (partitionCount < currentCount) {
        return invalid(`New partition count [${partitionCount}] must be greater than or equal to the current partition count [${currentCount}]`);
    }
    if (partitionCount > MAXIMUM_PARTITIONS) {
        return invalid(`java.lang.IllegalArgumentException: Partition ${partitionCount} must be less than ${MAXIMUM_PARTITIONS}`);
    }
    const replicationFactor = options.replicationFactor ?? minReplicationFactor(config);
    if (replicationFactor <= 0) {
        return invalid(`Replication factor [${replicationFactor}] must be greater than 0`);
    }
    if (targetIds.length < replicationFactor) {
        return invalid(`Number of brokers [${targetIds.length}] is less than the replication factor [${replicationFactor}]`);
    }

    const coordinator = lowestMemberId(currentIds) ?? targetIds[0];
    const before = currentDistribution(config);
    const after = roundRobinDistribution(targetIds, partitionCount, replicationFactor);
    let scalingUp = false;
    for (let partitionId = 1; partitionId <= partitionCount; partitionId++) {
        const replicas = after.get(partitionId)!;
        const existing = before.get(partitionId);
        if (existing) {
            operations.push(...movePartition(partitionId, existing, replicas));
            continue;
        }
        if (!scalingUp) {
            operations.push({ kind: "START_PARTITION_SCALE_UP", brokerId: coordinator, desiredPartitionCount: partitionCount });
            scalingUp = true;
        }
        operations.push(...bootstrapPartition(partitionId, replicas));
    }
    if (scalingUp) {
        operations.push({ kind: "AWAIT_REDISTRIBUTION", brokerId: coordinator });
        operations.push({ kind: "AWAIT_RELOCATION", brokerId: coordinator });
    }

    for (const brokerId of javaHashOrder(currentIds.filter((id) => !targetIds.includes(id)))) {
        operations.push({ kind: "MEMBER_LEAVE", brokerId });
    }
    const membersChange = targetIds.length !== currentIds.length || targetIds.some((id) => !currentIds.includes(id));
    if (options.release === "8.9" && membersChange) {
        operations.unshift({ kind: "PRE_SCALING", brokerId: coordinator, members: targetIds });
        operations.push({ kind: "POST_SCALING", brokerId: coordinator, members: targetIds });
    }
    return { operations };
}

/**
 * POST /purge (the reference's PurgeRequestTransformer): every replica leaves its partition, the last one included;
 * the first member deletes the history and raises the incarnation number; then each partition is bootstrapped on its
 * highest-priority replica and the other replicas join it again. The layout ends as it began, on empty data.
 */
export function planPurge(config: ClusterConfiguration): PlanOutcome {
    const members = javaHashOrder(activeMemberIds(config));
    if (members.length === 0) return { operations: [] };
    const partitionsOf = (brokerId: number) => [...config.members.get(brokerId)!.partitions.entries()].sort(([a], [b]) => a - b);
    const primaries = new Map<number, Operation & { kind: "PARTITION_BOOTSTRAP" }>();
    for (const brokerId of members) {
        for (const [partitionId, { priority }] of partitionsOf(brokerId)) {
            const primary = primaries.get(partitionId);
            if (!primary || priority > primary.priority) primaries.set(partitionId, { kind: "PARTITION_BOOTSTRAP", brokerId, partitionId, priority });
        }
    }
    const leaves: Operation[] = [];
    const joins = new Map<number, Operation[]>();
    for (const brokerId of members) {
        for (const [partitionId, { priority }] of partitionsOf(brokerId)) {
            leaves.push({ kind: "PARTITION_LEAVE", brokerId, partitionId, minimumReplicas: 0 });
            if (primaries.get(partitionId)!.brokerId === brokerId) continue;
            if (!joins.has(partitionId)) joins.set(partitionId, []);
            joins.get(partitionId)!.push({ kind: "PARTITION_JOIN", brokerId, partitionId, priority });
        }
    }
    const ascending = <T>(map: Map<number, T>) => [...map.entries()].sort(([a], [b]) => a - b).map(([, value]) => value);
    return {
        operations: [
            ...leaves,
            { kind: "DELETE_HISTORY", brokerId: members[0] },
            { kind: "UPDATE_INCARNATION_NUMBER", brokerId: members[0] },
            ...ascending(primaries),
            ...ascending(joins).flat(),
        ],
    };
}

/** PATCH /routing-state: one UPDATE_ROUTING_STATE run by the coordinator. */
export function planRoutingState(coordinator: number, routing: RoutingState | undefined): PlanOutcome {
    return { operations: [{ kind: "UPDATE_ROUTING_STATE", brokerId: coordinator, ...(routing ? { routing } : {}) }] };
}

/** POST /brokers/{id}: only BROKER_ADD for ids that are not members yet. */
export function planAddMembers(config: ClusterConfiguration, ids: Iterable<number>): PlanOutcome {
    const current = activeMemberIds(config);
    const operations: Operation[] = [...new Set(ids)]
        .sort((a, b) => a - b)
        .filter((id) => !current.includes(id))
        .map((brokerId) => ({ kind: "MEMBER_JOIN", brokerId }));
    return { operations };
}

/** DELETE /brokers/{id}: only BROKER_REMOVE; ids that are not members are silently dropped. */
export function planRemoveMembers(config: ClusterConfiguration, ids: Iterable<number>): PlanOutcome {
    const current = activeMemberIds(config);
    const operations: Operation[] = javaHashOrder([...ids].filter((id) => current.includes(id))).map((brokerId) => ({
        kind: "MEMBER_LEAVE",
        brokerId,
    }));
    return { operations };
}

/**
 * Force removal of every member outside `retain`: one PARTITION_FORCE_RECONFIGURE per partition
 * (even unaffected ones) keeping its retained replicas, then a BROKER_REMOVE per removed member,
 * executed by `coordinator`. Partitions are not redistributed.
 */
export function planForceRetain(config: ClusterConfiguration, retain: Iterable<number>, coordinator: number): PlanOutcome {
    const members = activeMemberIds(config);
    const retained = javaHashOrder(retain);
    for (const id of retained) {
        if (!members.includes(id)) {
            return invalid(
                `Expected to force configure while retaining broker '${id}', but broker '${id}' is not in the current cluster. Current members are '${javaListString(javaHashOrder(members))}'`,
            );
        }
    }
    const partitions = partitionIds(config);
    const keptReplicas = new Map<number, number[]>();
    for (const partitionId of partitions) {
        keptReplicas.set(
            partitionId,
            retained.filter((id) => config.members.get(id)!.partitions.has(partitionId)),
        );
    }
    const orphaned = partitions.filter((id) => keptReplicas.get(id)!.length === 0);
    if (orphaned.length > 0) {
        return invalid(
            `Expected to force configure and retain members '${javaListString(retained)}', but this will result in partitions '${javaListString(orphaned)}' having no replicas`,
        );
    }
    const operations: Operation[] = partitions.map((partitionId) => {
        const kept = keptReplicas.get(partitionId)!;
        return { kind: "PARTITION_FORCE_RECONFIGURE", brokerId: kept[0], partitionId, members: kept };
    });
    for (const removedId of javaHashOrder(members.filter((id) => !retained.includes(id)))) {
        operations.push({ kind: "MEMBER_REMOVE", brokerId: coordinator, removedId });
    }
    return { operations };
}

export type SimulationOutcome = { expected: ClusterConfiguration } | { error: PlanError };

/**
 * Runs every operation (init, then completion) on a copy of the configuration. A failing step makes
 * the whole request invalid (400); otherwise the copy, with LEFT members dropped, is the expected
 * topology.
 */
export function simulatePlan(config: ClusterConfiguration, operations: readonly Operation[], now: number): SimulationOutcome {
    const copy = cloneConfiguration(config);
    for (const operation of operations) {
        const failure = initOperation(copy, operation, now) ?? completeOperation(copy, operation, now);
        if (failure !== undefined) return invalid(failure);
    }
    dropLeftMembers(copy);
    return { expected: copy };
}
