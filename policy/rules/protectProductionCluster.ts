// A policy never sees a delete (destroy and a removed resource run no policy): the one guard a production cluster has
// against one is `protect`. Production: a production stack, or a cluster labelled prod on any stack.

import { PRODUCTION_STACKS_SCHEMA, type ResourceRule, type RuleOptions, resourcePolicy, subject } from "../resourceRule";

export interface ProtectProductionClusterConfig {
    productionStacks?: string[];
}

const rule: ResourceRule<ProtectProductionClusterConfig> = {
    name: "platform-protect-production-cluster",
    description: 'A Cluster on a production stack, or labelled stageLabel "prod", is protected (protect: true).',
    enforcementLevel: "mandatory",
    resources: ["Cluster"],
    configSchema: { productionStacks: PRODUCTION_STACKS_SCHEMA },
    defaults: {},
    check(resource, _config, stack) {
        const labelled = resource.props.stageLabel === "prod";
        if ((!stack.production && !labelled) || resource.opts.protect) return [];
        const why = labelled ? 'its stageLabel is "prod"' : `it is on ${stack.text}`;
        return [
            `${subject(resource)}: protect is not set and ${why}: set the resource option protect: true (a policy never sees a delete, so protect is what stops one)`,
        ];
    },
};

export function protectProductionCluster(options?: RuleOptions<ProtectProductionClusterConfig>) {
    return resourcePolicy(rule, options);
}
