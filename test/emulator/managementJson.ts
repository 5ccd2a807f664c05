// JSON shapes of the management API as the reference's 8.8 line renders them (and 8.9, which adds the cluster id to
// GET and the PRE_SCALING / POST_SCALING operations): 8.8 timestamps, brokers in hash-map order, partitions with
// their exporter config, `brokers: []` on every operation, `routing` in GET.

import { ClusterConfiguration, MemberState, Operation, RoutingState } from "./clusterState";
import { Release } from "./settings";
import { javaHashOrder } from "./javaOrder";

/** Timestamp of a member never updated since the static bootstrap. */
export const NEVER_UPDATED = "0001-01-01T00:00:00.000+0000";

/** 8.8 style: 2025-07-04T08:10:22.984+0000. */
export function formatTimestamp(epochMs: number | undefined): string {
    return epochMs === undefined ? NEVER_UPDATED : new Date(epochMs).toISOString().replace("Z", "+0000");
}

export interface PartitionJson {
    id: number;
    state: string;
    priority: number;
    config: { exporting: { exporters: { id: string; state: string }[] } };
}

export interface BrokerJson {
    id: number;
    state: string;
    version: number;
    lastUpdatedAt: string;
    partitions: PartitionJson[];
}

export interface OperationJson {
    operation: string;
    brokerId?: number;
    partitionId?: number;
    priority?: number;
    brokers: number[];
    completedAt?: string;
}

function brokerJson(id: number, member: MemberState): BrokerJson {
    return {
        id,
        state: member.status,
        version: member.version,
        lastUpdatedAt: formatTimestamp(member.lastUpdatedAt),
        partitions: [...member.partitions.entries()]
            .sort(([a], [b]) => a - b)
            .map(([partitionId, partition]) => ({
                id: partitionId,
                state: partition.status === "BOOTSTRAPPING" ? "UNKNOWN" : partition.status,
                priority: partition.priority,
                config: { exporting: { exporters: [{ id: "CamundaExporter", state: "ENABLED" }] } },
            })),
    };
}

export function brokersJson(config: ClusterConfiguration): BrokerJson[] {
    return javaHashOrder(config.members.keys()).map((id) => brokerJson(id, config.members.get(id)!));
}

export function operationJson(op: Operation, completedAt?: number): OperationJson {
    const base = (operation: string, extra: Partial<OperationJson> = {}): OperationJson => ({
        operation,
        brokerId: op.brokerId,
        ...extra,
        brokers: extra.brokers ?? [],
        ...(completedAt === undefined ? {} : { completedAt: formatTimestamp(completedAt) }),
    });
    switch (op.kind) {
        case "MEMBER_JOIN":
            return base("BROKER_ADD");
        case "MEMBER_LEAVE":
            return base("BROKER_REMOVE");
        case "MEMBER_REMOVE":
            return base("BROKER_REMOVE", { brokers: [op.removedId] });
        case "PARTITION_JOIN":
        case "PARTITION_RECONFIGURE_PRIORITY":
        case "PARTITION_BOOTSTRAP":
            return base(op.kind, { partitionId: op.partitionId, priority: op.priority });
        case "PARTITION_LEAVE":
            return base(op.kind, { partitionId: op.partitionId });
        case "PARTITION_FORCE_RECONFIGURE":
            return base(op.kind, { partitionId: op.partitionId, brokers: [...op.members] });
        case "START_PARTITION_SCALE_UP":
        case "AWAIT_REDISTRIBUTION":
        case "AWAIT_RELOCATION":
            return base(op.kind);
        case "PRE_SCALING":
        case "POST_SCALING":
            return base(op.kind, { brokers: [...op.members] });
        case "UPDATE_ROUTING_STATE":
            return base(op.kind);
        // The reference's mapping names no broker for these (UPDATE_INCARNATION_NUMBER's once it completed).
        case "DELETE_HISTORY":
            return base(op.kind, { brokerId: undefined });
        case "UPDATE_INCARNATION_NUMBER":
            return base(op.kind, completedAt === undefined ? { brokerId: undefined } : {});
    }
}

function routingJson(routing: RoutingState): object {
    const handling = routing.requestHandling;
    return {
        version: routing.version,
        requestHandling:
            handling.strategy === "AllPartitions"
                ? { strategy: "AllPartitions", partitionCount: handling.partitionCount }
                : {
                      strategy: "ActivePartitions",
                      basePartitionCount: handling.basePartitionCount,
                      additionalActivePartitions: [...handling.additionalActivePartitions],
                      inactivePartitions: [...handling.inactivePartitions],
                  },
        messageCorrelation: { strategy: "HashMod", partitionCount: routing.messageCorrelationPartitionCount },
    };
}

/** Body of GET /actuator/cluster and of a successful cancellation. */
export function topologyJson(config: ClusterConfiguration, release: Release): object {
    const last = config.lastChange;
    const plan = config.pendingChange;
    return {
        version: config.version,
        brokers: brokersJson(config),
        ...(last && {
            lastChange: {
                id: last.id,
                status: last.status,
                startedAt: formatTimestamp(last.startedAt),
                completedAt: formatTimestamp(last.completedAt),
            },
        }),
        ...(plan && {
            pendingChange: {
                id: plan.id,
                status: "IN_PROGRESS",
                completed: plan.completed.map((c) => operationJson(c.operation, c.completedAt)),
                pending: plan.pending.map((op) => operationJson(op)),
            },
        }),
        routing: routingJson(config.routing),
        ...(release === "8.9" && { clusterId: config.clusterId }),
    };
}

/** Body of every accepted (202) mutating request. */
export function plannedOperationsJson(
    changeId: number,
    current: ClusterConfiguration,
    operations: readonly Operation[],
    expected: ClusterConfiguration,
): object {
    return {
        changeId,
        currentTopology: brokersJson(current),
        plannedChanges: operations.map((op) => operationJson(op)),
        expectedTopology: brokersJson(expected),
    };
}
