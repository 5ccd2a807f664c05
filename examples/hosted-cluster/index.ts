// A hosted cluster as code: the cluster, the API client its workers use (its secret exported as a Pulumi secret), a
// connector secret from stack config and the IP allowlist of the cluster's ingress.
//
//   pulumi config set platform:clientId my-client            # or PLATFORM_CONSOLE_CLIENT_ID
//   pulumi config set --secret platform:clientSecret '...'   # or PLATFORM_CONSOLE_CLIENT_SECRET
//   pulumi config set platform:oauthUrl https://login.example.com/oauth/token   # or PLATFORM_OAUTH_URL
//   pulumi config set platform:baseUrl https://api.example.com/admin/v1         # or PLATFORM_CONSOLE_BASE_URL
//   pulumi config set --secret paymentsApiKey '...'
//
// `pulumi preview` resolves the channel, region and plan type by name (a typo is refused, naming the valid ones) and
// says what each resource will do. A cluster of the same name that exists already (made in the web console, or by an
// up that was killed) is refused, naming its id: `pulumi config set existingClusterId <id>` takes it over.
import * as pulumi from "@pulumi/pulumi";
import { Cluster, ClusterClient, ConnectorSecret, IpAllowlist } from "pulumi-platform";

const config = new pulumi.Config();

const cluster = new Cluster("orders", {
    name: config.get("clusterName") ?? "orders",
    channel: "Stable",
    region: config.require("region"),
    planType: "Basic",
    stageLabel: "prod",
    description: "Order processing",
    existingClusterId: config.get("existingClusterId"),
});

// The workers' client may reach the engine only. Change `triggers` to rotate its secret (the client is replaced).
const worker = new ClusterClient("order-worker", {
    clusterId: cluster.clusterId,
    clientName: "order-worker",
    permissions: ["Zeebe"],
    triggers: config.get("workerRotation"),
});

new ConnectorSecret("payments-api-key", {
    clusterId: cluster.clusterId,
    secretName: "PAYMENTS_API_KEY",
    value: config.requireSecret("paymentsApiKey"),
});

new IpAllowlist("ingress", {
    clusterId: cluster.clusterId,
    entries: [{ ip: config.require("officeRange"), description: "office" }],
});

export const clusterId = cluster.clusterId;
export const status = cluster.status;
export const zeebeAddress = worker.zeebeAddress;
export const workerClientId = worker.clientId;
// A Pulumi secret: `pulumi stack output workerClientSecret --show-secrets`.
export const workerClientSecret = worker.clientSecret;
