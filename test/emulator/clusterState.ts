// The dynamic cluster configuration as the reference keeps it: a versioned map of members, each
// with its own version and partitions, the routing state, the last finished change and the change
// in progress. Everything here is plain data plus small read-only queries; transitions live in
// operationEffects.ts, request planning in planner.ts.

import { randomUUID } from "crypto";
import { roundRobinDistribution } from "./roundRobin";

export type MemberStatus = "ACTIVE" | "JOINING" | "LEAVING" | "LEFT";
/** BOOTSTRAPPING is the internal state of a new partition; the API reports it as UNKNOWN. */
export type PartitionStatus = "ACTIVE" | "JOINING" | "LEAVING" | "BOOTSTRAPPING";

export interface PartitionState {
    status: PartitionStatus;
    priority: number;
}

export interface MemberState {
    status: MemberStatus;
    version: number;
    /** Epoch milliseconds of the last update; undefined for a member never updated (static bootstrap). */
    lastUpdatedAt: number | undefined;
    /** In no particular order; renderings sort by partition id. */
    partitions: Map<number, PartitionState>;
}

export type RequestHandling =
    | { strategy: "AllPartitions"; partitionCount: number }
    | {
          strategy: "ActivePartitions";
          basePartitionCount: number;
          additionalActivePartitions: number[];
          inactivePartitions: number[];
      };

export interface RoutingState {
    version: number;
    requestHandling: RequestHandling;
    messageCorrelationPartitionCount: number;
}

/** One planned operation. `brokerId` is always the broker that executes it. */
export type Operation =
    | { kind: "MEMBER_JOIN"; brokerId: number }
    | { kind: "MEMBER_LEAVE"; brokerId: number }
    | { kind: "MEMBER_REMOVE"; brokerId: number; removedId: number }
    | { kind: "PARTITION_JOIN"; brokerId: number; partitionId: number; priority: number }
    /** `minimumReplicas`: how many replicas must stay (1; a purge lets the last one leave too, 0). */
    | { kind: "PARTITION_LEAVE"; brokerId: number; partitionId: number; minimumReplicas?: number }
    | { kind: "PARTITION_RECONFIGURE_PRIORITY"; brokerId: number; partitionId: number; priority: number }
    | { kind: "PARTITION_FORCE_RECONFIGURE"; brokerId: number; partitionId: number; members: number[] }
    | { kind: "PARTITION_BOOTSTRAP"; brokerId: number; partitionId: number; priority: number }
    | { kind: "START_PARTITION_SCALE_UP"; brokerId: number; desiredPartitionCount: number }
    | { kind: "AWAIT_REDISTRIBUTION"; brokerId: number }
    | { kind: "AWAIT_RELOCATION"; brokerId: number }
    /** 8.9: before and after a change of the member set, run by the coordinator with the final members (node-id leases). */
    | { kind: "PRE_SCALING" | "POST_SCALING"; brokerId: number; members: number[] }
    /** A purge: the data is deleted and the cluster's incarnation number raised, by the first member. */
    | { kind: "DELETE_HISTORY" | "UPDATE_INCARNATION_NUMBER"; brokerId: number }
    /** PATCH /routing-state: the given routing state, or (without one) the engine's own, which the emulator keeps as is. */
    | { kind: "UPDATE_ROUTING_STATE"; brokerId: number; routing?: RoutingState };

export interface CompletedOperation {
    operation: Operation;
    completedAt: number;
}

export interface ChangePlan {
    id: number;
    startedAt: number;
    completed: CompletedOperation[];
    pending: Operation[];
}

export interface FinishedChange {
    id: number;
    status: "COMPLETED" | "CANCELLED";
    startedAt: number;
    completedAt: number;
}

export interface ClusterConfiguration {
    /** Given at bootstrap; 8.9 reports it (GET and the gateway's topology). */
    clusterId: string;
    version: number;
    members: Map<number, MemberState>;
    routing: RoutingState;
    lastChange?: FinishedChange;
    pendingChange?: ChangePlan;
}

export interface InitialLayout {
    brokers: number;
    partitions: number;
    replicationFactor: number;
}

/** A statically bootstrapped round-robin cluster: configuration version 1, every member at version 0. */
export function initialConfiguration(layout: InitialLayout): ClusterConfiguration {
    const ids = Array.from({ length: layout.brokers }, (_, i) => i);
    const members = new Map<number, MemberState>();
    for (const id of ids) {
        members.set(id, { status: "ACTIVE", version: 0, lastUpdatedAt: undefined, partitions: new Map() });
    }
    const distribution = roundRobinDistribution(ids, layout.partitions, layout.replicationFactor);
    for (const [partitionId, replicas] of distribution) {
        for (const [brokerId, priority] of replicas) {
            members.get(brokerId)?.partitions.set(partitionId, { status: "ACTIVE", priority });
        }
    }
    return {
        clusterId: randomUUID(),
        version: 1,
        members,
        routing: {
            version: 1,
            requestHandling: { strategy: "AllPartitions", partitionCount: layout.partitions },
            messageCorrelationPartitionCount: layout.partitions,
        },
    };
}

export function cloneMember(member: MemberState): MemberState {
    const partitions = new Map<number, PartitionState>();
    for (const [id, partition] of member.partitions) partitions.set(id, { ...partition });
    return { ...member, partitions };
}

export function cloneConfiguration(config: ClusterConfiguration): ClusterConfiguration {
    const members = new Map<number, MemberState>();
    for (const [id, member] of config.members) members.set(id, cloneMember(member));
    return {
        clusterId: config.clusterId,
        version: config.version,
        members,
        routing: structuredClone(config.routing),
        lastChange: config.lastChange && { ...config.lastChange },
        pendingChange: config.pendingChange && structuredClone(config.pendingChange),
    };
}

/** Members that count as part of the cluster (LEFT members linger only until a change completes). */
export function activeMemberIds(config: ClusterConfiguration): number[] {
    return [...config.members.entries()].filter(([, m]) => m.status !== "LEFT").map(([id]) => id);
}

/** Distinct partition ids held by any member, ascending. */
export function partitionIds(config: ClusterConfiguration): number[] {
    const ids = new Set<number>();
    for (const member of config.members.values()) {
        if (member.status === "LEFT") continue;
        for (const id of member.partitions.keys()) ids.add(id);
    }
    return [...ids].sort((a, b) => a - b);
}

/** Number of members holding each partition. */
export function replicaCounts(config: ClusterConfiguration): Map<number, number> {
    const counts = new Map<number, number>();
    for (const member of config.members.values()) {
        if (member.status === "LEFT") continue;
        for (const id of member.partitions.keys()) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return counts;
}

/** The effective replication factor: the smallest replica count of any partition (0 without partitions). */
export function minReplicationFactor(config: ClusterConfiguration): number {
    const counts = [...replicaCounts(config).values()];
    return counts.length === 0 ? 0 : Math.min(...counts);
}

/**
 * The member a gateway sends requests to: the lowest member id, compared as strings like the
 * reference's MemberId ("10" sorts before "2"). Undefined when the set is empty.
 */
export function lowestMemberId(ids: Iterable<number>): number | undefined {
    let lowest: number | undefined;
    for (const id of ids) {
        if (lowest === undefined || String(id) < String(lowest)) lowest = id;
    }
    return lowest;
}
