// AdminClient's inputs and outputs, and getMembers', as the package schema declares them (see ../plugin/schema.ts).
import { z } from "zod";
import { adminCredentialsDeclaration } from "../shared/declarations";

const member = z
    .object({
        name: z.string().describe("The member's name."),
        email: z.string().describe("The member's email address."),
        roles: z.array(z.string()).describe("The member's roles in the organization."),
        invitePending: z.boolean().describe("Whether the member has not accepted the invitation yet."),
    })
    .meta({ id: "Member", description: "A member of the organization." });
const settings = adminCredentialsDeclaration.shape;

export const adminClientDeclaration = {
    description:
        "A set of client credentials for the organization administration API, proven to work, and the organization's members. Refresh lists the members again; destroy deletes nothing remotely.",
    inputs: z.object({
        ...settings,
        clientSecret: settings.clientSecret.meta({ secret: true }),
        tls: settings.tls.meta({ secret: true }),
    }),
    outputs: z.object({
        clientId: z.string(),
        oauthUrl: z.string(),
        audience: z.string(),
        baseUrl: z.string(),
        members: z.array(member).describe("The organization's members when last listed (create, update or refresh)."),
        memberCount: z.number().int().describe("How many members the organization had when last listed."),
        tokenExpiresAt: z.string().describe("When the token used for the last listing expires (ISO 8601)."),
    }),
};

export const getMembersDeclaration = {
    description: "The organization's members, read with the administration API's client credentials.",
    inputs: z.object(settings),
    outputs: z.object({ members: z.array(member).describe("The organization's members.") }),
};
