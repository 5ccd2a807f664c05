// OrganizationMember's inputs: an email, the roles to give, and the credentials of the administration API. Every rule
// is checked here, without a request, and a failure names the field (a value is never echoed, but a role's own name).

import { z } from "zod";
import { ASSIGNABLE_ROLES } from "../../sdk/adminSchemas";
import { type AdminCredentials, checkAdminCredentials } from "../shared/adminCredentials";
import type { Environment, StackCredentialConfig } from "../shared/credentials";
import { UNKNOWN, containsUnknown } from "../shared/unknowns";

/** The inputs after check (roles without repeats); any value may still be UNKNOWN during a preview. */
export interface MemberInputs {
    resourceName: string;
    email: string;
    roles: string[];
    credentials: AdminCredentials;
}

export interface CheckedMember {
    inputs?: MemberInputs;
    failures: { property: string; reason: string }[];
}

const ROLE_LIST = ASSIGNABLE_ROLES.join(", ");

/** Why each role the API reports, but does not assign, cannot be given. */
const UNASSIGNABLE: Record<string, string> = {
    owner: "an organization has one owner, and ownership moves only in the web console",
    member: `every member has it; give the roles they should have besides it (${ROLE_LIST})`,
    supportagent: "the platform's support gives it to its own staff",
};

const emailSchema = z
    .string({ error: (issue) => (issue.input === undefined ? "email is required" : "email must be a string") })
    .trim()
    .min(1, "email must not be empty")
    .max(254, "email is longer than an address can be (254 characters)")
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@.]+$/, "email is not an email address (name@domain.tld)");

export function checkMemberInputs(news: Record<string, unknown>, config: StackCredentialConfig, env: Environment): CheckedMember {
    const failures: { property: string; reason: string }[] = [];
    const fail = (property: string, reason: string) => failures.push({ property, reason });
    let email = news.email as string;
    if (news.email !== UNKNOWN) {
        const checked = emailSchema.safeParse(news.email);
        if (checked.success) email = checked.data;
        else fail("email", checked.error.issues[0].message);
    }
    const roles = checkRoles(news.roles, fail);
    const credentials = checkAdminCredentials(news.credentials, config, env, fail);
    if (failures.length > 0 || roles === undefined || credentials === undefined) return { failures };
    const resourceName = typeof news.resourceName === "string" ? news.resourceName : "(unnamed)";
    return { inputs: { resourceName, email, roles, credentials }, failures };
}

function checkRoles(value: unknown, fail: (property: string, reason: string) => void): string[] | undefined {
    if (containsUnknown(value)) return value as string[];
    if (!Array.isArray(value) || value.length === 0) {
        fail("roles", `roles must list at least one role: ${ROLE_LIST}`);
        return undefined;
    }
    let valid = true;
    value.forEach((role, index) => {
        const reason = roleProblem(role, index);
        if (reason !== undefined) {
            fail("roles", reason);
            valid = false;
        }
    });
    return valid ? [...new Set(value as string[])] : undefined;
}

function roleProblem(role: unknown, index: number): string | undefined {
    if (typeof role === "string" && (ASSIGNABLE_ROLES as readonly string[]).includes(role)) return undefined;
    if (typeof role === "string" && UNASSIGNABLE[role] !== undefined) return `roles: ${role} cannot be assigned: ${UNASSIGNABLE[role]}`;
    // A role's own name is no secret; anything else is not echoed.
    const shown = typeof role === "string" && /^[A-Za-z_-]{1,32}$/.test(role) ? ` (${role})` : "";
    const hint = shown !== "" && (ASSIGNABLE_ROLES as readonly string[]).includes((role as string).toLowerCase()) ? " (roles are written in lower case)" : "";
    return `roles[${index}]${shown} is not a role that can be assigned${hint}: use ${ROLE_LIST}`;
}
