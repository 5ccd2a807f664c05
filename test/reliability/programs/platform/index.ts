// Fixture program of the reliability suite: one ClusterScale when the `scale` config is set, and `adminCount`
// AdminClients when `admin` is set. Both take their arguments as JSON from stack config and pass them on exactly
// as given, wrong types included, so that one program serves every bad-input case. Credentials come from secret
// config: `auth` (JSON) for the ClusterScale, `adminSecret` for the AdminClients.
import * as pulumi from "@pulumi/pulumi";
import { AdminClient, ClusterScale } from "pulumi-platform";
import type { AdminClientArgs, ClusterScaleArgs, ManagementAuthArgs } from "pulumi-platform";

const config = new pulumi.Config();

const scaleArgs = config.getObject<ClusterScaleArgs>("scale");
const auth = config.getSecretObject<ManagementAuthArgs>("auth");
const cluster = scaleArgs === undefined ? undefined : new ClusterScale(config.get("scaleName") ?? "cluster", { ...scaleArgs, ...(auth ? { auth } : {}) });

const adminArgs = config.getObject<AdminClientArgs>("admin");
const adminSecret = config.getSecret("adminSecret");
const adminCount = adminArgs === undefined ? 0 : (config.getNumber("adminCount") ?? 1);
const admins = Array.from(
    { length: adminCount },
    (_, i) => new AdminClient(`admin-${i}`, { ...adminArgs, ...(adminSecret !== undefined ? { clientSecret: adminSecret } : {}) }),
);

export const changeId = cluster?.changeId;
export const topology = cluster?.topology;
export const partitionCount = cluster?.partitionCount;
export const replicationFactor = cluster?.replicationFactor;
export const lastChange = cluster?.lastChange;
export const memberCounts = admins.length === 0 ? undefined : pulumi.all(admins.map((admin) => admin.memberCount));
