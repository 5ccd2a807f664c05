// Fixture program: `count` AdminClients named admin-0, admin-1, ... With `explicit: true` every setting is an
// input (the secret from this project's secret config); otherwise they come from platform:* config or the environment.
// TLS settings, when given, come from the `tls` secret config (JSON).
import * as pulumi from "@pulumi/pulumi";
import { AdminClient, AdminClientArgs, TlsArgs } from "pulumi-platform";

const config = new pulumi.Config();
const count = config.getNumber("count") ?? 1;
const args: AdminClientArgs = config.getBoolean("explicit")
    ? {
          clientId: config.require("clientId"),
          clientSecret: config.requireSecret("clientSecret"),
          oauthUrl: config.require("oauthUrl"),
          baseUrl: config.require("baseUrl"),
      }
    : {};
const tls = config.getSecretObject<TlsArgs>("tls");
const clients = Array.from({ length: count }, (_, i) => new AdminClient(`admin-${i}`, { ...args, ...(tls ? { tls } : {}) }));

export const memberCounts = clients.map((client) => client.memberCount);
export const members = clients[0].members;
export const tokenExpiresAt = clients[0].tokenExpiresAt;
export const settings = pulumi
    .all([clients[0].clientId, clients[0].oauthUrl, clients[0].audience, clients[0].baseUrl])
    .apply(([clientId, oauthUrl, audience, baseUrl]) => ({ clientId, oauthUrl, audience, baseUrl }));
