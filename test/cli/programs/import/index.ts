// Fixture program: the person `email` and a hosted cluster, either with Pulumi's `import` option (config `importIds:
// true`), or adopted the way the README says instead (the member declared as it is, the cluster by existingClusterId).
// Credentials from platform:* config.
import * as pulumi from "@pulumi/pulumi";
import { Cluster, OrganizationMember } from "pulumi-platform";

const config = new pulumi.Config();
const email = config.require("email");
const clusterId = config.require("clusterId");
const importIds = config.getBoolean("importIds") ?? false;

new OrganizationMember("member", { email, roles: ["admin"] }, importIds ? { import: email } : {});
new Cluster(
    "cluster",
    {
        name: config.require("clusterName"),
        channel: "Stable",
        region: "Belgium, Europe (europe-west1)",
        planType: "Basic",
        ...(importIds ? {} : { existingClusterId: clusterId }),
    },
    importIds ? { import: clusterId } : {},
);
