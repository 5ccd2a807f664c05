// `pulumi-platform/policy`: the platform's rules as policies for a Pulumi policy pack (CrossGuard). The ready pack is
// the package's policy-pack/ folder; @pulumi/policy is an optional peer, needed only to serve a pack.
export { type PlatformPolicyOptions, platformPolicies, platformPolicyPack } from "./platformPolicies";
export { PLATFORM_RESOURCES, type PlatformResource, platformResourceOf, typeTokens } from "./resourceTypes";
export { type RuleOptions } from "./resourceRule";
export { stackNameFromEnvironment, stackNameFromUrn } from "./stacks";
export { type AdminRoleConfig, adminRole } from "./rules/adminRole";
export { type ClosedIpAllowlistConfig, closedIpAllowlist } from "./rules/closedIpAllowlist";
export { type ClusterClientPermissionsConfig, clusterClientPermissions } from "./rules/clusterClientPermissions";
export { type ForceRemovalConfig, forceRemoval } from "./rules/forceRemoval";
export { type MinimumReplicationFactorConfig, minimumReplicationFactor } from "./rules/minimumReplicationFactor";
export { type PartitionCountConfig, partitionCount } from "./rules/partitionCount";
export { type ProductionClusterAllowlistConfig, productionClusterAllowlist } from "./rules/productionClusterAllowlist";
export { type ProtectProductionClusterConfig, protectProductionCluster } from "./rules/protectProductionCluster";
export { type RemovalLimitConfig, removalLimit } from "./rules/removalLimit";
export { type RetainRemovedBrokerVolumesConfig, retainRemovedBrokerVolumes } from "./rules/retainRemovedBrokerVolumes";
