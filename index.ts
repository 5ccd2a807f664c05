// Package root: the Pulumi resources and the SDK under them. The Kubernetes helper is `pulumi-platform/kubernetes`.
export { ClusterScale } from "./provider/clusterScale/resource";
export type { ClusterScaleArgs, KubernetesRouteArgs, ManagementAuthArgs, TlsArgs } from "./provider/clusterScale/resource";
export type {
    BrokerLayout,
    BrokerStateName,
    ChangeRecord as ClusterChangeRecord,
    ChangeStatus,
    OperationName,
    PartitionReplica,
    PartitionStateName,
    PlannedChange as ClusterPlannedChange,
} from "./provider/clusterScale/types";
export { AdminClient } from "./provider/adminClient/resource";
export type { AdminClientArgs } from "./provider/adminClient/resource";
export type { OrganizationMemberInfo } from "./provider/adminClient/types";
export { OrganizationMember } from "./provider/organizationMember/resource";
export type { OrganizationMemberArgs } from "./provider/organizationMember/resource";
export type { AdminCredentialsArgs } from "./provider/shared/adminCredentialsArgs";
export { Cluster } from "./provider/cluster/resource";
export type { ClusterArgs } from "./provider/cluster/resource";
export { getClusterParameters, getClusterParametersOutput } from "./provider/cluster/getClusterParameters";
export type { ClusterParametersResult, GetClusterParametersArgs, NamedOption } from "./provider/cluster/getClusterParameters";
export { ClusterClient } from "./provider/clusterClient/resource";
export type { ClusterClientArgs } from "./provider/clusterClient/resource";
export { ConnectorSecret } from "./provider/connectorSecret/resource";
export type { ConnectorSecretArgs } from "./provider/connectorSecret/resource";
export { IpAllowlist } from "./provider/ipAllowlist/resource";
export type { IpAllowlistArgs, IpAllowlistEntryArgs } from "./provider/ipAllowlist/resource";
export { getMembers, getMembersOutput } from "./provider/adminClient/getMembers";
export type { GetMembersArgs, GetMembersOutputArgs } from "./provider/adminClient/getMembers";
// The typed clients the resources are built on, for scripts: `import { sdk } from "pulumi-platform"`.
export * as sdk from "./sdk";
