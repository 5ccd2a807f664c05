// "At most N brokers removed in one change" needs the cluster's members, which a policy never sees: ClusterScale's
// maxBrokersRemoved input counts them at preview and before anything is sent. This policy makes production layouts
// declare that limit, no higher than the configured maximum.

import { PRODUCTION_STACKS_SCHEMA, type ResourceRule, type RuleOptions, resourcePolicy, subject } from "../resourceRule";

export interface RemovalLimitConfig {
    /** Default 1. */
    maximum: number;
    productionStacks?: string[];
}

const rule: ResourceRule<RemovalLimitConfig> = {
    name: "platform-removal-limit",
    description:
        "On production stacks, ClusterScale sets maxBrokersRemoved, at most the maximum (1 unless configured): the provider then refuses a change removing more.",
    enforcementLevel: "advisory",
    resources: ["ClusterScale"],
    configSchema: {
        maximum: { type: "integer", minimum: 0, default: 1, description: "the highest maxBrokersRemoved a production layout may declare" },
        productionStacks: PRODUCTION_STACKS_SCHEMA,
    },
    defaults: { maximum: 1 },
    check(resource, config, stack) {
        if (!stack.production) return [];
        const limit = resource.props.maxBrokersRemoved;
        if (typeof limit !== "number") {
            return [
                `${subject(resource)}: maxBrokersRemoved is not set on ${stack.text}: set it, at most ${config.maximum}, so that no change removes more brokers`,
            ];
        }
        if (limit > config.maximum) return [`${subject(resource)}: maxBrokersRemoved ${limit} on ${stack.text} is above the maximum ${config.maximum}`];
        return [];
    },
};

export function removalLimit(options?: RuleOptions<RemovalLimitConfig>) {
    return resourcePolicy(rule, options);
}
