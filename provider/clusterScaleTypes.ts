// Plain shapes of ClusterScale's outputs, shared by the resource class and its provider.

export interface PartitionReplica {
    id: number;
    priority: number;
    state: string;
}

export interface BrokerLayout {
    id: number;
    state: string;
    partitions: PartitionReplica[];
}

export interface PlannedChange {
    operation: string;
    brokerId?: number;
    partitionId?: number;
    priority?: number;
    brokers?: number[];
}

export interface ChangeRecord {
    id: number;
    status: string;
    startedAt?: string;
    completedAt?: string;
}
