// Package root: the Pulumi resources and the SDK under them. The Kubernetes helper is `pulumi-platform/kubernetes`.
export { ClusterScale } from "./provider/clusterScale";
export type { ClusterScaleArgs, KubernetesRouteArgs, ManagementAuthArgs, TlsArgs } from "./provider/clusterScale";
export type {
    BrokerLayout,
    BrokerStateName,
    ChangeRecord as ClusterChangeRecord,
    ChangeStatus,
    OperationName,
    PartitionReplica,
    PartitionStateName,
    PlannedChange as ClusterPlannedChange,
} from "./provider/clusterScaleTypes";
export { AdminClient } from "./provider/adminClient";
export type { AdminClientArgs } from "./provider/adminClient";
export type { OrganizationMember } from "./provider/adminClientTypes";
export { getMembers, getMembersOutput } from "./provider/getMembers";
export type { GetMembersArgs, GetMembersOutputArgs } from "./provider/getMembers";
// The typed clients the resources are built on, for scripts: `import { sdk } from "pulumi-platform"`.
export * as sdk from "./sdk";
