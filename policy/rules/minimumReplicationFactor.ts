// On production every partition keeps enough replicas to lose a broker: replicationFactor given explicitly (left out,
// the cluster keeps whatever it has) and at least the minimum. A force removal declares no replication factor (the
// provider refuses one with force): platform-force-removal governs it.

import { PRODUCTION_STACKS_SCHEMA, type ResourceRule, type RuleOptions, resourcePolicy, subject } from "../resourceRule";

export interface MinimumReplicationFactorConfig {
    /** Default 3. */
    minimum: number;
    productionStacks?: string[];
}

const rule: ResourceRule<MinimumReplicationFactorConfig> = {
    name: "platform-minimum-replication-factor",
    description: "On production stacks, ClusterScale gives replicationFactor explicitly, at least the minimum (3 unless configured).",
    enforcementLevel: "mandatory",
    resources: ["ClusterScale"],
    configSchema: {
        minimum: { type: "integer", minimum: 1, default: 3, description: "the lowest replication factor a production layout may declare" },
        productionStacks: PRODUCTION_STACKS_SCHEMA,
    },
    defaults: { minimum: 3 },
    check(resource, config, stack) {
        if (!stack.production || resource.props.force === true) return [];
        const factor = resource.props.replicationFactor;
        if (typeof factor !== "number") {
            return [`${subject(resource)}: replicationFactor is not given on ${stack.text}: declare it explicitly, at least ${config.minimum}`];
        }
        if (factor < config.minimum) {
            return [
                `${subject(resource)}: replicationFactor ${factor} on ${stack.text} is below the minimum ${config.minimum}: a production partition must survive losing a broker`,
            ];
        }
        return [];
    },
};

export function minimumReplicationFactor(options?: RuleOptions<MinimumReplicationFactorConfig>) {
    return resourcePolicy(rule, options);
}
