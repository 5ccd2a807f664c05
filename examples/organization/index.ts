// The organization's members as code: every person of the list in stack config is a member with the roles given.
//
//   pulumi config set platform:clientId my-client            # or PLATFORM_CONSOLE_CLIENT_ID
//   pulumi config set --secret platform:clientSecret '...'   # or PLATFORM_CONSOLE_CLIENT_SECRET
//   pulumi config set platform:oauthUrl https://login.example.com/oauth/token   # or PLATFORM_OAUTH_URL
//   pulumi config set platform:baseUrl https://api.example.com/admin/v1         # or PLATFORM_CONSOLE_BASE_URL
//
// and the list in Pulumi.<stack>.yaml (`platform-organization:members`). A person already in the organization is
// adopted (no second invitation); a new one is invited and takes a seat; one taken off the list is removed, except the
// owner, who only leaves the stack. `pulumi preview` says which of these happens to whom.
import * as pulumi from "@pulumi/pulumi";
import { OrganizationMember } from "pulumi-platform";
import type { sdk } from "pulumi-platform";

interface DeclaredMember {
    email: string;
    roles: sdk.AssignableRole[];
}

const config = new pulumi.Config();
const declared = config.requireObject<DeclaredMember[]>("members");

// Each person is a resource named by their email, so a preview names them and the list can be reordered freely.
const members = declared.map((person) => new OrganizationMember(person.email, { email: person.email, roles: person.roles }));

export const pendingInvitations = pulumi
    .all(members.map((member) => pulumi.all([member.email, member.invitePending])))
    .apply((rows) => rows.filter(([, pending]) => pending).map(([email]) => email));
export const owner = pulumi
    .all(members.map((member) => pulumi.all([member.email, member.owner])))
    .apply((rows) => rows.filter(([, isOwner]) => isOwner).map(([email]) => email));
