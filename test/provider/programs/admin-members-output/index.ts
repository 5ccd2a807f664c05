// Fixture program: getMembersOutput with every setting from this project's config, the client secret as a secret
// Output, as a user passes `config.requireSecret(...)` straight on.
import * as pulumi from "@pulumi/pulumi";
import { getMembersOutput } from "pulumi-platform";

const config = new pulumi.Config();
const members = getMembersOutput({
    clientId: config.require("clientId"),
    clientSecret: config.requireSecret("clientSecret"),
    oauthUrl: config.require("oauthUrl"),
    baseUrl: config.require("baseUrl"),
});

export const emails = members.apply((list) => list.map((member) => member.email));
