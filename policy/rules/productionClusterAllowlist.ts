// A stack policy: every production Cluster of the stack has an IpAllowlist on it (its clusterId taken from the
// cluster, or equal to the cluster's id). Without one, every address may reach the cluster.

import type { EnforcementLevel, PolicyResource, StackValidationPolicy } from "@pulumi/policy";
import { PRODUCTION_STACKS_SCHEMA, type RuleOptions, settingsOnly } from "../resourceRule";
import { platformResourceOf } from "../resourceTypes";
import { stackNameOf, stackView } from "../stacks";

export interface ProductionClusterAllowlistConfig {
    productionStacks?: string[];
}

export function productionClusterAllowlist(options: RuleOptions<ProductionClusterAllowlistConfig> = {}): StackValidationPolicy {
    const level: EnforcementLevel = options.enforcementLevel ?? "advisory";
    return {
        name: "platform-production-cluster-allowlist",
        description: 'Every Cluster on a production stack, or labelled stageLabel "prod", has an IpAllowlist on it in the same stack.',
        enforcementLevel: level,
        configSchema: { properties: { productionStacks: PRODUCTION_STACKS_SCHEMA } },
        validateStack: (args, reportViolation) => {
            const config = { ...options.config, ...settingsOnly(args.getConfig<ProductionClusterAllowlistConfig>()) };
            const stack = stackView(stackNameOf(args.resources[0]?.urn, options.stackName), config.productionStacks);
            const allowlists = args.resources.filter((resource) => platformResourceOf(resource.type) === "IpAllowlist");
            for (const cluster of args.resources.filter((resource) => platformResourceOf(resource.type) === "Cluster")) {
                const labelled = cluster.props.stageLabel === "prod";
                if (!stack.production && !labelled) continue;
                if (allowlists.some((allowlist) => isOn(allowlist, cluster))) continue;
                const why = labelled ? 'its stageLabel is "prod"' : `it is on ${stack.text}`;
                reportViolation(
                    `Cluster "${cluster.name}" has no IpAllowlist in this stack and ${why}: declare one whose clusterId is this cluster's clusterId`,
                    cluster.urn,
                );
            }
        },
    };
}

function isOn(allowlist: PolicyResource, cluster: PolicyResource): boolean {
    const dependsOn = allowlist.propertyDependencies?.clusterId ?? [];
    if (dependsOn.some((resource) => resource.urn === cluster.urn)) return true;
    const id = cluster.props.clusterId ?? cluster.props.existingClusterId;
    return typeof id === "string" && id !== "" && allowlist.props.clusterId === id;
}
