// Benchmark program: a cluster, `clients` API clients, `secrets` connector secrets and an allowlist, with the
// credentials from stack config.
import * as pulumi from "@pulumi/pulumi";
import { Cluster, ClusterClient, ConnectorSecret, IpAllowlist } from "pulumi-platform";

const config = new pulumi.Config();
const cluster = new Cluster("cluster", { name: "bench", channel: "Stable", region: "Belgium, Europe (europe-west1)", planType: "Basic" });
const clusterId = cluster.clusterId;
for (let i = 0; i < config.requireNumber("clients"); i++) new ClusterClient(`client-${i}`, { clusterId, clientName: `worker-${i}`, permissions: ["Zeebe"] });
for (let i = 0; i < config.requireNumber("secrets"); i++)
    new ConnectorSecret(`secret-${i}`, { clusterId, secretName: `SECRET_${i}`, value: pulumi.secret(`value-${i}`) });
new IpAllowlist("ingress", { clusterId, entries: [{ ip: "10.0.0.0/8", description: "office" }] });

export const id = clusterId;
