// The organization's members, read through the administration API with a set of client credentials.
//
// Nothing here names a credential: AdminClient and getMembers take each setting from the stack config
// (`platform:<name>`), else from the environment, so the same program runs on a laptop and in a pipeline.
//
//   pulumi config set platform:clientId my-client            # or PLATFORM_CONSOLE_CLIENT_ID
//   pulumi config set --secret platform:clientSecret '...'   # or PLATFORM_CONSOLE_CLIENT_SECRET
//   pulumi config set platform:oauthUrl https://login.example.com/oauth/token   # or PLATFORM_OAUTH_URL
//   pulumi config set platform:baseUrl https://api.example.com/admin/v1         # or PLATFORM_CONSOLE_BASE_URL
//   (audience: platform:audience or PLATFORM_CONSOLE_OAUTH_AUDIENCE, else the host name of baseUrl)
//
// A secret taken from config or the environment is never written into the state. Both share one token
// (and the token disk cache), so the issuer is asked at most once per run.
import * as pulumi from "@pulumi/pulumi";
import { AdminClient, getMembers } from "pulumi-platform";

// A resource: every up and refresh proves that the credentials still work and lists the members again,
// so a refresh shows who joined or left since the last run.
const admin = new AdminClient("admin");

// A lookup with no resource in the state: it runs in the program, so its values are known in preview too.
const members = pulumi.output(getMembers());

export const memberEmails = members.apply((list) => list.map((member) => member.email).sort());
export const pendingInvitations = members.apply((list) =>
    list
        .filter((member) => member.invitePending)
        .map((member) => member.email)
        .sort(),
);
export const memberCount = admin.memberCount;
export const tokenExpiresAt = admin.tokenExpiresAt;
