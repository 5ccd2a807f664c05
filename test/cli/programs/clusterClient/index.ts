// Fixture program: the API client `worker` of the hosted cluster `clusterId` (made outside the stack); config
// `replaceExisting: true` replaces a client of that name that the stack does not hold. Credentials from platform:* config.
import * as pulumi from "@pulumi/pulumi";
import { ClusterClient } from "pulumi-platform";

const config = new pulumi.Config();

const worker = new ClusterClient("worker", {
    clusterId: config.require("clusterId"),
    clientName: "worker",
    permissions: ["Zeebe"],
    replaceExisting: config.getBoolean("replaceExisting") ?? false,
});

export const clientId = worker.clientId;
