// The modules the serialized providers require, by the installed package's name. A public contract: every
// stack's state holds these paths (in each resource's `__provider`), and refresh and destroy load them from
// whatever version of the package is installed then. Never rename or remove one; each module exports
// `provider`, an object with the dynamic-provider methods (configure, check, diff, create, read, update, delete).
export const ENTRY_POINTS = {
    clusterScale: "pulumi-platform/dist/provider/clusterScale/provider",
    adminClient: "pulumi-platform/dist/provider/adminClient/provider",
    organizationMember: "pulumi-platform/dist/provider/organizationMember/provider",
    cluster: "pulumi-platform/dist/provider/cluster/provider",
    clusterClient: "pulumi-platform/dist/provider/clusterClient/provider",
    connectorSecret: "pulumi-platform/dist/provider/connectorSecret/provider",
    ipAllowlist: "pulumi-platform/dist/provider/ipAllowlist/provider",
} as const;
