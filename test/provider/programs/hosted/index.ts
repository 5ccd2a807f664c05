// Fixture program: what the JSON config `spec` declares, passed on exactly as given (wrong types included):
// `cluster` (Cluster arguments) or `clusterId` (a cluster made elsewhere), `clients` ({ name, ...ClusterClient
// arguments }), `secrets` ({ name, secretName, valueKey, adoptExisting? }: the value is the secret config `valueKey`),
// `allowlists` ({ name, entries }), `members` ({ name, email, roles }: OrganizationMembers), `parameters: true`
// (getClusterParametersOutput as an output). Credentials come from platform:* config.
import * as pulumi from "@pulumi/pulumi";
import {
    Cluster,
    ClusterArgs,
    ClusterClient,
    ClusterClientArgs,
    ConnectorSecret,
    IpAllowlist,
    IpAllowlistArgs,
    OrganizationMember,
    OrganizationMemberArgs,
    getClusterParametersOutput,
} from "pulumi-platform";

interface Spec {
    cluster?: ClusterArgs;
    clusterId?: string;
    clients?: (Omit<ClusterClientArgs, "clusterId"> & { name: string })[];
    secrets?: { name: string; secretName: unknown; valueKey: string; adoptExisting?: boolean }[];
    allowlists?: (Omit<IpAllowlistArgs, "clusterId"> & { name: string })[];
    members?: { name: string; email: string; roles: string[] }[];
    parameters?: boolean;
}

const config = new pulumi.Config();
const spec = config.requireObject<Spec>("spec");
const cluster = spec.cluster === undefined ? undefined : new Cluster("cluster", spec.cluster);
const clusterId: pulumi.Input<string> = cluster?.clusterId ?? spec.clusterId ?? "";

const clients = (spec.clients ?? []).map(({ name, ...args }) => new ClusterClient(name, { ...args, clusterId }));
for (const { name, secretName, valueKey, adoptExisting } of spec.secrets ?? []) {
    new ConnectorSecret(name, { clusterId, secretName: secretName as string, value: config.requireSecret(valueKey), adoptExisting });
}
for (const { name, entries } of spec.allowlists ?? []) new IpAllowlist(name, { clusterId, entries });
for (const { name, email, roles } of spec.members ?? []) new OrganizationMember(name, { email, roles } as OrganizationMemberArgs);

export const cluster_ =
    cluster &&
    pulumi
        .all([cluster.clusterId, cluster.status, cluster.generation, cluster.links])
        .apply(([id, status, generation, links]) => ({ id, status, generation, links }));
export const clientIds = clients.map((client) => client.clientId);
export const clientSecrets = clients.map((client) => client.clientSecret);
export const zeebeAddresses = clients.map((client) => client.zeebeAddress);
export const parameters = spec.parameters ? getClusterParametersOutput() : undefined;
