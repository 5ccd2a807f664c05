// An API client gets what it needs: permissions listed (left out, the client gets all five, as it does with all five
// listed), and Secrets (the cluster's connector secrets) only on the stacks or for the clients allowed.

import { CLUSTER_CLIENT_PERMISSIONS } from "../../sdk/adminSchemas";
import { type ResourceRule, type RuleOptions, listText, resourcePolicy, subject } from "../resourceRule";
import { stackListed } from "../stacks";

export interface ClusterClientPermissionsConfig {
    /** The stacks whose clients may have Secrets (a `*` matches any characters). */
    secretsAllowedStacks: string[];
    /** The client names (clientName) that may have Secrets on any stack. */
    secretsAllowedClients: string[];
}

const rule: ResourceRule<ClusterClientPermissionsConfig> = {
    name: "platform-cluster-client-permissions",
    description: "ClusterClient lists only the permissions it needs, and Secrets only on the stacks or for the clients allowed.",
    enforcementLevel: "advisory",
    resources: ["ClusterClient"],
    configSchema: {
        secretsAllowedStacks: { type: "array", items: { type: "string" }, description: "the stacks whose clients may have Secrets" },
        secretsAllowedClients: { type: "array", items: { type: "string" }, description: "the client names that may have Secrets on any stack" },
    },
    defaults: { secretsAllowedStacks: [], secretsAllowedClients: [] },
    check(resource, config, stack) {
        const permissions = Array.isArray(resource.props.permissions) ? (resource.props.permissions as unknown[]) : undefined;
        if (permissions === undefined) return [];
        const violations: string[] = [];
        if (CLUSTER_CLIENT_PERMISSIONS.every((permission) => permissions.includes(permission))) {
            violations.push(
                `${subject(resource)}: permissions grants all five (${CLUSTER_CLIENT_PERMISSIONS.join(", ")}), as leaving it out does: list only what the client needs`,
            );
        }
        const clientName = typeof resource.props.clientName === "string" ? resource.props.clientName : undefined;
        const secretsAllowed =
            stackListed(stack.name, config.secretsAllowedStacks) || (clientName !== undefined && config.secretsAllowedClients.includes(clientName));
        if (permissions.includes("Secrets") && !secretsAllowed) {
            violations.push(
                `${subject(resource)}: permissions has Secrets on ${stack.text}, which is not in secretsAllowedStacks (${listText(config.secretsAllowedStacks)}), for a client not in secretsAllowedClients`,
            );
        }
        return violations;
    },
};

export function clusterClientPermissions(options?: RuleOptions<ClusterClientPermissionsConfig>) {
    return resourcePolicy(rule, options);
}
