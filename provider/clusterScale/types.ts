// Plain shapes of ClusterScale's outputs, shared by the resource class and its provider. The names the platform
// sends are unions of the values known today, open to values a newer release may send: editors suggest the known
// ones, and a program compiled today keeps working tomorrow.

/** `string & {}` keeps a union open without collapsing it into `string` for editors. */
type Open = string & {};

export type ChangeStatus = "IN_PROGRESS" | "COMPLETED" | "FAILED" | "CANCELLED" | Open;
export type BrokerStateName = "ACTIVE" | "JOINING" | "LEAVING" | "LEFT" | "UNKNOWN" | Open;
export type PartitionStateName = "ACTIVE" | "JOINING" | "LEAVING" | "BOOTSTRAPPING" | "UNKNOWN" | Open;
export type OperationName =
    | "BROKER_ADD"
    | "BROKER_REMOVE"
    | "PARTITION_JOIN"
    | "PARTITION_LEAVE"
    | "PARTITION_RECONFIGURE_PRIORITY"
    | "PARTITION_FORCE_RECONFIGURE"
    | "PARTITION_BOOTSTRAP"
    | "START_PARTITION_SCALE_UP"
    | "AWAIT_REDISTRIBUTION"
    | "AWAIT_RELOCATION"
    | "PRE_SCALING"
    | "POST_SCALING"
    | Open;

export interface PartitionReplica {
    id: number;
    priority: number;
    state: PartitionStateName;
}

export interface BrokerLayout {
    id: number;
    state: BrokerStateName;
    partitions: PartitionReplica[];
}

export interface PlannedChange {
    operation: OperationName;
    brokerId?: number;
    partitionId?: number;
    priority?: number;
    brokers?: number[];
}

export interface ChangeRecord {
    id: number;
    status: ChangeStatus;
    startedAt?: string;
    completedAt?: string;
}
