// Partition scaling is experimental and "not for production clusters": on production a layout declares no partition
// count, or exactly the one the config pins (a policy cannot see the cluster's count today, so a pin is the only way
// to tell an unchanged count from a change).

import { PRODUCTION_STACKS_SCHEMA, type ResourceRule, type RuleOptions, resourcePolicy, subject } from "../resourceRule";

export interface PartitionCountConfig {
    /** The partition count a production layout may declare; left out, none may. */
    pinnedPartitionCount?: number;
    productionStacks?: string[];
}

const rule: ResourceRule<PartitionCountConfig> = {
    name: "platform-partition-count",
    description: "On production stacks, ClusterScale declares no partitionCount (partition scaling is experimental), or exactly pinnedPartitionCount.",
    enforcementLevel: "mandatory",
    resources: ["ClusterScale"],
    configSchema: {
        pinnedPartitionCount: { type: "integer", minimum: 1, description: "the partition count a production layout may declare" },
        productionStacks: PRODUCTION_STACKS_SCHEMA,
    },
    defaults: {},
    check(resource, config, stack) {
        const count = resource.props.partitionCount;
        if (!stack.production || typeof count !== "number" || count === config.pinnedPartitionCount) return [];
        const pin =
            config.pinnedPartitionCount === undefined
                ? "leave partitionCount out, or pin the cluster's count in this policy's pinnedPartitionCount"
                : `the pinned count is ${config.pinnedPartitionCount}`;
        return [`${subject(resource)}: partitionCount ${count} on ${stack.text}: partition scaling is experimental and not for production clusters; ${pin}`];
    },
};

export function partitionCount(options?: RuleOptions<PartitionCountConfig>) {
    return resourcePolicy(rule, options);
}
