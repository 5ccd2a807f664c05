// Benchmark program: `count` AdminClients with the same credentials, all from stack config
// (platform:clientId, platform:clientSecret, platform:oauthUrl, platform:baseUrl).
import * as pulumi from "@pulumi/pulumi";
import { AdminClient } from "pulumi-platform";

const count = new pulumi.Config().requireNumber("count");
const clients = Array.from({ length: count }, (_, i) => new AdminClient(`admin-${i}`));

export const memberCounts = clients.map((client) => client.memberCount);
