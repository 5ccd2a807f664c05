// The package's policies as one list, and the pack made of them. Each entry takes its factory's options, so a pack of
// one's own can set levels and config in code; the ready pack (policy-pack/) takes them from --policy-pack-config.

import type { EnforcementLevel, Policies, PolicyPack } from "@pulumi/policy";
import type { RuleOptions } from "./resourceRule";
import { type AdminRoleConfig, adminRole } from "./rules/adminRole";
import { type ClosedIpAllowlistConfig, closedIpAllowlist } from "./rules/closedIpAllowlist";
import { type ClusterClientPermissionsConfig, clusterClientPermissions } from "./rules/clusterClientPermissions";
import { type ForceRemovalConfig, forceRemoval } from "./rules/forceRemoval";
import { type MinimumReplicationFactorConfig, minimumReplicationFactor } from "./rules/minimumReplicationFactor";
import { type PartitionCountConfig, partitionCount } from "./rules/partitionCount";
import { type ProductionClusterAllowlistConfig, productionClusterAllowlist } from "./rules/productionClusterAllowlist";
import { type ProtectProductionClusterConfig, protectProductionCluster } from "./rules/protectProductionCluster";
import { type RemovalLimitConfig, removalLimit } from "./rules/removalLimit";
import { type RetainRemovedBrokerVolumesConfig, retainRemovedBrokerVolumes } from "./rules/retainRemovedBrokerVolumes";

export interface PlatformPolicyOptions {
    forceRemoval?: RuleOptions<ForceRemovalConfig>;
    minimumReplicationFactor?: RuleOptions<MinimumReplicationFactorConfig>;
    partitionCount?: RuleOptions<PartitionCountConfig>;
    retainRemovedBrokerVolumes?: RuleOptions<RetainRemovedBrokerVolumesConfig>;
    removalLimit?: RuleOptions<RemovalLimitConfig>;
    protectProductionCluster?: RuleOptions<ProtectProductionClusterConfig>;
    closedIpAllowlist?: RuleOptions<ClosedIpAllowlistConfig>;
    adminRole?: RuleOptions<AdminRoleConfig>;
    clusterClientPermissions?: RuleOptions<ClusterClientPermissionsConfig>;
    productionClusterAllowlist?: RuleOptions<ProductionClusterAllowlistConfig>;
}

export function platformPolicies(options: PlatformPolicyOptions = {}): Policies {
    return [
        forceRemoval(options.forceRemoval),
        minimumReplicationFactor(options.minimumReplicationFactor),
        partitionCount(options.partitionCount),
        retainRemovedBrokerVolumes(options.retainRemovedBrokerVolumes),
        removalLimit(options.removalLimit),
        protectProductionCluster(options.protectProductionCluster),
        closedIpAllowlist(options.closedIpAllowlist),
        adminRole(options.adminRole),
        clusterClientPermissions(options.clusterClientPermissions),
        productionClusterAllowlist(options.productionClusterAllowlist),
    ];
}

/**
 * Serves the policies as a pack (the policy process's whole program: one pack per process). Needs @pulumi/policy,
 * an optional peer of this package.
 */
export function platformPolicyPack(name = "pulumi-platform", options: PlatformPolicyOptions & { enforcementLevel?: EnforcementLevel } = {}): PolicyPack {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- an optional peer, loaded only to serve a pack
    const { PolicyPack: Pack } = require("@pulumi/policy") as typeof import("@pulumi/policy");
    const { enforcementLevel, ...policies } = options;
    return new Pack(name, {
        policies: platformPolicies(policies),
        enforcementLevel,
        description:
            "pulumi-platform's guardrails: force removal, replication factor, partition scaling, removed brokers' volumes, protected clusters, allowlists, roles, API clients.",
    });
}
