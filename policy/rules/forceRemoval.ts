// Force removal "may produce split-brain or an unrecoverable cluster" and leaves partitions with fewer replicas: only
// on the stacks listed, and only with the survivors named (`brokers`), never with a count.

import { type ResourceRule, type RuleOptions, listText, resourcePolicy, subject } from "../resourceRule";
import { stackListed } from "../stacks";

export interface ForceRemovalConfig {
    /** The stacks on which force removal may run (a `*` matches any characters). Default: none. */
    allowedStacks: string[];
}

const rule: ResourceRule<ForceRemovalConfig> = {
    name: "platform-force-removal",
    description: "ClusterScale's force removal only on the stacks in allowedStacks, and only with the surviving brokers named in brokers.",
    enforcementLevel: "mandatory",
    resources: ["ClusterScale"],
    configSchema: { allowedStacks: { type: "array", items: { type: "string" }, description: "the stacks on which force removal may run" } },
    defaults: { allowedStacks: [] },
    check(resource, config, stack) {
        if (resource.props.force !== true) return [];
        const violations: string[] = [];
        if (!stackListed(stack.name, config.allowedStacks)) {
            violations.push(
                `${subject(resource)}: force is true on ${stack.text}, which is not in allowedStacks (${listText(config.allowedStacks)}): force removal may produce split-brain or an unrecoverable cluster; list the stack in this policy's allowedStacks to allow it`,
            );
        }
        if (!Array.isArray(resource.props.brokers)) {
            violations.push(`${subject(resource)}: force is true with brokerCount: name the surviving brokers with brokers (their ids), never a count`);
        }
        return violations;
    },
};

export function forceRemoval(options?: RuleOptions<ForceRemovalConfig>) {
    return resourcePolicy(rule, options);
}
