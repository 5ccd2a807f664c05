// The type tokens a policy sees for each resource of the package: a TypeScript program's dynamic resource
// (`pulumi-nodejs:dynamic/platform:<Resource>`) and the plugin's resource in every other language
// (`platform:index:<Resource>`). A policy matches on these strings: it never loads the provider's modules.

export const PLATFORM_RESOURCES = ["ClusterScale", "Cluster", "ClusterClient", "ConnectorSecret", "IpAllowlist", "OrganizationMember", "AdminClient"] as const;
export type PlatformResource = (typeof PLATFORM_RESOURCES)[number];

/** Both tokens of a resource: the dynamic resource's and the plugin's. */
export function typeTokens(resource: PlatformResource): readonly [string, string] {
    return [`pulumi-nodejs:dynamic/platform:${resource}`, `platform:index:${resource}`];
}

/** The package's resource a token names, or undefined for any other type. */
export function platformResourceOf(type: string): PlatformResource | undefined {
    return PLATFORM_RESOURCES.find((resource) => typeTokens(resource).includes(type));
}
