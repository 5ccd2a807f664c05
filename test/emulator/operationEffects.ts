// What each operation does to the configuration, split like the reference's appliers into an
// init step (checked and applied when the operation starts) and a completion step. The planner
// runs both steps back to back on a copy to validate a plan and compute expectedTopology; the
// executor runs them on the live configuration, the completion one operation-time later.
//
// Every update of a member bumps its version by one and stamps lastUpdatedAt, which yields the
// reference's arithmetic: join/bootstrap/leave +2, priority change +1, a new broker ends at 2.

import { ClusterConfiguration, MemberState, Operation } from "./clusterState";
import { javaListString } from "./javaOrder";

/** An error message in the shape the reference gives for exceptions raised by its appliers. */
type EffectError = string;

function illegalState(message: string): EffectError {
    return `java.lang.IllegalStateException: ${message}`;
}

function touch(member: MemberState, now: number): void {
    member.version += 1;
    member.lastUpdatedAt = now;
}

function partitionHasActiveReplica(config: ClusterConfiguration, partitionId: number): boolean {
    for (const member of config.members.values()) {
        if (member.status !== "LEFT" && member.partitions.get(partitionId)?.status === "ACTIVE") return true;
    }
    return false;
}

function replicaCount(config: ClusterConfiguration, partitionId: number): number {
    let count = 0;
    for (const member of config.members.values()) {
        if (member.status !== "LEFT" && member.partitions.has(partitionId)) count += 1;
    }
    return count;
}

function activeMember(config: ClusterConfiguration, id: number): MemberState | undefined {
    const member = config.members.get(id);
    return member?.status === "ACTIVE" ? member : undefined;
}

/** Applies the start of an operation; returns an error message when the operation cannot start. */
export function initOperation(config: ClusterConfiguration, op: Operation, now: number): EffectError | undefined {
    switch (op.kind) {
        case "MEMBER_JOIN": {
            const existing = config.members.get(op.brokerId);
            if (existing && existing.status !== "LEFT" && existing.status !== "JOINING") {
                return illegalState(`Expected to join member ${op.brokerId}, but the member is already part of the cluster`);
            }
            if (existing?.status === "JOINING") return undefined;
            const member: MemberState = existing ?? { status: "JOINING", version: 0, lastUpdatedAt: now, partitions: new Map() };
            member.status = "JOINING";
            touch(member, now);
            config.members.set(op.brokerId, member);
            return undefined;
        }
        case "MEMBER_LEAVE": {
            const member = config.members.get(op.brokerId);
            if (!member || member.status === "LEFT") {
                return illegalState(`Expected to remove member ${op.brokerId}, but the member is not part of the cluster`);
            }
            if (member.partitions.size > 0) {
                return illegalState(
                    `Expected to remove member ${op.brokerId}, but the member still has partitions assigned. Partitions: ${javaListString([...member.partitions.keys()])}`,
                );
            }
            member.status = "LEAVING";
            touch(member, now);
            return undefined;
        }
        case "MEMBER_REMOVE": {
            const member = config.members.get(op.removedId);
            if (!member || member.status === "LEFT") {
                return illegalState(`Expected to remove member ${op.removedId}, but the member is not part of the cluster`);
            }
            member.status = "LEAVING";
            touch(member, now);
            return undefined;
        }
        case "PARTITION_JOIN": {
            const member = activeMember(config, op.brokerId);
            if (!member) return illegalState("Expected to join partition, but the local member is not active");
            const existing = member.partitions.get(op.partitionId);
            if (existing && existing.status !== "JOINING") {
                return illegalState(`Expected to join partition ${op.partitionId}, but the local member already has the partition at state ${existing.status}`);
            }
            if (!partitionHasActiveReplica(config, op.partitionId)) {
                return illegalState(`Expected to join partition ${op.partitionId}, but partition has no active members`);
            }
            member.partitions.set(op.partitionId, { status: "JOINING", priority: op.priority });
            touch(member, now);
            return undefined;
        }
        case "PARTITION_LEAVE": {
            const member = config.members.get(op.brokerId);
            if (!member || !member.partitions.has(op.partitionId)) {
                return illegalState(`Expected to leave partition, but the local member does not have the partition ${op.partitionId}`);
            }
            if (replicaCount(config, op.partitionId) <= (op.minimumReplicas ?? 1)) {
                return illegalState(`Expected to leave partition, but the partition ${op.partitionId} has only one replica`);
            }
            member.partitions.set(op.partitionId, { ...member.partitions.get(op.partitionId)!, status: "LEAVING" });
            touch(member, now);
            return undefined;
        }
        case "PARTITION_RECONFIGURE_PRIORITY": {
            const partition = config.members.get(op.brokerId)?.partitions.get(op.partitionId);
            if (!partition) {
                return illegalState(`Expected to change priority of partition ${op.partitionId}, but the local member does not have the partition`);
            }
            if (partition.status !== "ACTIVE") {
                return illegalState(
                    `Expected to change priority of partition ${op.partitionId}, but the local member has partition in state ${partition.status}`,
                );
            }
            return undefined;
        }
        case "PARTITION_FORCE_RECONFIGURE": {
            if (!config.members.get(op.brokerId)?.partitions.has(op.partitionId)) {
                return illegalState(`Expected to force reconfigure partition ${op.partitionId}, but the local member does not have the partition`);
            }
            return undefined;
        }
        case "PARTITION_BOOTSTRAP": {
            const member = activeMember(config, op.brokerId);
            if (!member) return illegalState("Expected to bootstrap partition, but the local member is not active");
            if (member.partitions.has(op.partitionId)) {
                return illegalState(`Expected to bootstrap partition ${op.partitionId}, but the local member already has the partition`);
            }
            member.partitions.set(op.partitionId, { status: "BOOTSTRAPPING", priority: op.priority });
            touch(member, now);
            return undefined;
        }
        case "START_PARTITION_SCALE_UP": {
            if (config.routing.requestHandling.strategy !== "AllPartitions") {
                return illegalState("Expected to start partition scale up, but a partition scale up is already in progress");
            }
            return undefined;
        }
        case "AWAIT_REDISTRIBUTION":
        case "AWAIT_RELOCATION":
        case "PRE_SCALING":
        case "POST_SCALING":
        case "DELETE_HISTORY":
        case "UPDATE_INCARNATION_NUMBER":
        case "UPDATE_ROUTING_STATE":
            return undefined;
    }
}

/** Applies the completion of an operation that was started with initOperation. */
export function completeOperation(config: ClusterConfiguration, op: Operation, now: number): EffectError | undefined {
    switch (op.kind) {
        case "MEMBER_JOIN": {
            const member = config.members.get(op.brokerId);
            if (!member) return illegalState(`Expected to complete join of member ${op.brokerId}, but the member is unknown`);
            member.status = "ACTIVE";
            touch(member, now);
            return undefined;
        }
        case "MEMBER_LEAVE":
        case "MEMBER_REMOVE": {
            const id = op.kind === "MEMBER_LEAVE" ? op.brokerId : op.removedId;
            const member = config.members.get(id);
            if (!member) return illegalState(`Expected to complete removal of member ${id}, but the member is unknown`);
            member.status = "LEFT";
            touch(member, now);
            return undefined;
        }
        case "PARTITION_JOIN":
        case "PARTITION_BOOTSTRAP": {
            const member = config.members.get(op.brokerId);
            const partition = member?.partitions.get(op.partitionId);
            if (!member || !partition) {
                return illegalState(`Expected to complete joining partition ${op.partitionId}, but the local member does not have it`);
            }
            partition.status = "ACTIVE";
            touch(member, now);
            return undefined;
        }
        case "PARTITION_LEAVE": {
            const member = config.members.get(op.brokerId);
            if (!member || !member.partitions.delete(op.partitionId)) {
                return illegalState(`Expected to complete leaving partition ${op.partitionId}, but the local member does not have it`);
            }
            touch(member, now);
            return undefined;
        }
        case "PARTITION_RECONFIGURE_PRIORITY": {
            const member = config.members.get(op.brokerId);
            const partition = member?.partitions.get(op.partitionId);
            if (!member || !partition) {
                return illegalState(`Expected to change priority of partition ${op.partitionId}, but the local member does not have the partition`);
            }
            partition.priority = op.priority;
            touch(member, now);
            return undefined;
        }
        case "PARTITION_FORCE_RECONFIGURE": {
            for (const [id, member] of config.members) {
                if (op.members.includes(id) || !member.partitions.has(op.partitionId)) continue;
                member.partitions.delete(op.partitionId);
                touch(member, now);
            }
            return undefined;
        }
        case "START_PARTITION_SCALE_UP": {
            const handling = config.routing.requestHandling;
            const base = handling.strategy === "AllPartitions" ? handling.partitionCount : handling.basePartitionCount;
            const inactive: number[] = [];
            for (let id = base + 1; id <= op.desiredPartitionCount; id++) inactive.push(id);
            config.routing = {
                ...config.routing,
                version: config.routing.version + 1,
                requestHandling: {
                    strategy: "ActivePartitions",
                    basePartitionCount: base,
                    additionalActivePartitions: [],
                    inactivePartitions: inactive,
                },
            };
            return undefined;
        }
        case "AWAIT_REDISTRIBUTION": {
            const handling = config.routing.requestHandling;
            if (handling.strategy === "ActivePartitions") {
                const active = new Set([...handling.additionalActivePartitions, ...handling.inactivePartitions]);
                config.routing = {
                    ...config.routing,
                    version: config.routing.version + 1,
                    requestHandling: { strategy: "AllPartitions", partitionCount: handling.basePartitionCount + active.size },
                };
            }
            return undefined;
        }
        case "UPDATE_ROUTING_STATE": {
            if (op.routing) config.routing = structuredClone(op.routing);
            return undefined;
        }
        // PRE_SCALING and POST_SCALING prepare and release node-id leases; a purge's data and incarnation number are
        // outside the configuration too.
        case "AWAIT_RELOCATION":
        case "PRE_SCALING":
        case "POST_SCALING":
        case "DELETE_HISTORY":
        case "UPDATE_INCARNATION_NUMBER":
            return undefined;
    }
}

/** Drops members that have LEFT, as the reference does when a change completes. */
export function dropLeftMembers(config: ClusterConfiguration): void {
    for (const [id, member] of [...config.members]) {
        if (member.status === "LEFT") config.members.delete(id);
    }
}
