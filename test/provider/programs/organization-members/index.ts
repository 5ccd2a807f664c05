// Fixture program: one OrganizationMember per entry of the `members` config (JSON): `{ name, email, roles, import? }`,
// so that cases can name resources freely (two for one email, a name that is not the email) and pass any value. With
// `explicitCredentials: true` the credentials are inputs (the secret from this project's secret config `clientSecret`);
// otherwise they come from platform:* config or the environment.
import * as pulumi from "@pulumi/pulumi";
import { AdminCredentialsArgs, OrganizationMember, OrganizationMemberArgs } from "pulumi-platform";

interface Entry {
    name: string;
    email: unknown;
    roles: unknown;
    import?: string;
}

const config = new pulumi.Config();
const entries = config.requireObject<Entry[]>("members");
const credentials: AdminCredentialsArgs | undefined = config.getBoolean("explicitCredentials")
    ? {
          clientId: config.require("clientId"),
          clientSecret: config.requireSecret("clientSecret"),
          oauthUrl: config.require("oauthUrl"),
          baseUrl: config.require("baseUrl"),
      }
    : undefined;

const members = entries.map(
    (entry) =>
        new OrganizationMember(
            entry.name,
            { email: entry.email, roles: entry.roles, ...(credentials ? { credentials } : {}) } as OrganizationMemberArgs,
            entry.import ? { import: entry.import } : {},
        ),
);

export const records = pulumi.all(
    members.map((member) =>
        pulumi.all([member.email, member.roles, member.name, member.invitePending, member.owner]).apply(([email, roles, name, invitePending, owner]) => ({
            email,
            roles,
            name,
            invitePending,
            owner,
        })),
    ),
);
