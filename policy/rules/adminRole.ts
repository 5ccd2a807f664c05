// Who may administer the organization is the organization's decision, not one program's: the admin role (and any
// other role configured) only for the people or domains listed.

import { type ResourceRule, type RuleOptions, listText, resourcePolicy, subject } from "../resourceRule";

export interface AdminRoleConfig {
    /** The roles this policy guards. Default: ["admin"]. */
    roles: string[];
    /** The people who may hold them (compared without case). */
    allowedEmails: string[];
    /** The email domains whose people may hold them (`example.com`; compared without case). */
    allowedDomains: string[];
}

const rule: ResourceRule<AdminRoleConfig> = {
    name: "platform-admin-role",
    description: "OrganizationMember's admin role (or the roles configured) only for the emails or domains listed.",
    enforcementLevel: "advisory",
    resources: ["OrganizationMember"],
    configSchema: {
        roles: { type: "array", items: { type: "string" }, default: ["admin"], description: "the roles this policy guards" },
        allowedEmails: { type: "array", items: { type: "string" }, description: "the people who may hold them" },
        allowedDomains: { type: "array", items: { type: "string" }, description: "the email domains whose people may hold them" },
    },
    defaults: { roles: ["admin"], allowedEmails: [], allowedDomains: [] },
    check(resource, config) {
        const email = typeof resource.props.email === "string" ? resource.props.email.toLowerCase() : undefined;
        const roles = Array.isArray(resource.props.roles) ? (resource.props.roles as unknown[]) : [];
        const guarded = config.roles.filter((role) => roles.includes(role));
        if (email === undefined || guarded.length === 0) return [];
        const domain = email.slice(email.lastIndexOf("@") + 1);
        const allowed =
            config.allowedEmails.some((listed) => listed.toLowerCase() === email) ||
            config.allowedDomains.some((listed) => listed.toLowerCase().replace(/^@/, "") === domain);
        if (allowed) return [];
        return [
            `${subject(resource)}: roles gives ${listText(guarded)} to ${email}, who is not in allowedEmails (${listText(config.allowedEmails)}) or allowedDomains (${listText(config.allowedDomains)})`,
        ];
    },
};

export function adminRole(options?: RuleOptions<AdminRoleConfig>) {
    return resourcePolicy(rule, options);
}
