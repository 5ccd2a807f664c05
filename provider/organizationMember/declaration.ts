// OrganizationMember's inputs and outputs as the package schema declares them (see ../plugin/schema.ts).
import { z } from "zod";
import { ASSIGNABLE_ROLES } from "../../sdk/adminSchemas";
import { adminCredentialsDeclaration } from "../shared/declarations";

export const organizationMemberDeclaration = {
    description:
        "A person of the organization with the roles the program gives. An email that already belongs to the organization is adopted (no second invitation); a new one is invited. The owner is never changed or removed.",
    inputs: z.object({
        email: z
            .string()
            .meta({ replaceOnChanges: true })
            .describe("The person's email address. A change replaces the resource: the new address is invited, then the old one removed."),
        roles: z.array(z.enum(ASSIGNABLE_ROLES)).describe(`The roles to give (at least one): ${ASSIGNABLE_ROLES.join(", ")}.`),
        credentials: adminCredentialsDeclaration.optional().meta({ secret: true }),
    }),
    outputs: z.object({
        email: z.string(),
        roles: z.array(z.string()).describe("The person's assignable roles as the organization lists them (the owner: the roles the program declared)."),
        name: z.string().describe("The name the person signed up with; empty while the invitation is pending."),
        invitePending: z.boolean().describe("Whether the person has not accepted the invitation yet."),
        owner: z.boolean().describe("Whether the person is the organization's owner (whose roles are left as they are)."),
    }),
};
