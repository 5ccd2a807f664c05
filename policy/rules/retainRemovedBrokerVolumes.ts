// On production the volumes of removed brokers stay: a scale-down that went wrong can still be undone from them.

import { PRODUCTION_STACKS_SCHEMA, type ResourceRule, type RuleOptions, resourcePolicy, subject } from "../resourceRule";

export interface RetainRemovedBrokerVolumesConfig {
    productionStacks?: string[];
}

const rule: ResourceRule<RetainRemovedBrokerVolumesConfig> = {
    name: "platform-retain-removed-broker-volumes",
    description: 'On production stacks, ClusterScale never deletes the volumes of removed brokers (kubernetes.volumesOfRemovedBrokers "delete").',
    enforcementLevel: "mandatory",
    resources: ["ClusterScale"],
    configSchema: { productionStacks: PRODUCTION_STACKS_SCHEMA },
    defaults: {},
    check(resource, _config, stack) {
        const kubernetes = resource.props.kubernetes as { volumesOfRemovedBrokers?: unknown } | undefined;
        if (!stack.production || kubernetes?.volumesOfRemovedBrokers !== "delete") return [];
        return [
            `${subject(resource)}: kubernetes.volumesOfRemovedBrokers is "delete" on ${stack.text}: keep removed brokers' volumes on production ("retain", the default)`,
        ];
    },
};

export function retainRemovedBrokerVolumes(options?: RuleOptions<RetainRemovedBrokerVolumesConfig>) {
    return resourcePolicy(rule, options);
}
