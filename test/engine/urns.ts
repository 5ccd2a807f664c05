// Resource URNs and type tokens, formed the way the engine forms them.

export const STACK_TYPE = "pulumi:pulumi:Stack";

/** Dynamic resources: `pulumi-nodejs:dynamic:Resource` or `pulumi-nodejs:dynamic/<module>:<Type>`. */
export function isDynamicType(type: string): boolean {
    return type.startsWith("pulumi-nodejs:dynamic:") || type.startsWith("pulumi-nodejs:dynamic/");
}

/**
 * urn:pulumi:<stack>::<project>::<qualified type>::<name>, where the qualified type is prefixed with the
 * parent's qualified type and `$`, except for children of the root stack resource.
 */
export function engineUrn(stack: string, project: string, parentUrn: string, type: string, name: string): string {
    const parentType = parentUrn ? qualifiedType(parentUrn) : "";
    const prefix = parentType && parentType !== STACK_TYPE ? `${parentType}$` : "";
    return `urn:pulumi:${stack}::${project}::${prefix}${type}::${name}`;
}

export function qualifiedType(urn: string): string {
    return urn.split("::")[2] ?? "";
}

export function urnName(urn: string): string {
    return urn.split("::").slice(3).join("::");
}

export function urnType(urn: string): string {
    return qualifiedType(urn).split("$").pop() ?? "";
}

/** The package of every dynamic resource, and so of their default provider. */
export const DYNAMIC_PACKAGE = "pulumi-nodejs";

/** Provider resources: `pulumi:providers:<package>`. */
export function isProviderType(type: string): boolean {
    return type.startsWith("pulumi:providers:");
}

/**
 * The default provider of the dynamic resources, as the engine names it (pkg/resource/deploy/default_providers.go):
 * `pulumi:providers:pulumi-nodejs::default`, a child of no resource.
 */
export function defaultProviderUrn(stack: string, project: string): string {
    return engineUrn(stack, project, "", `pulumi:providers:${DYNAMIC_PACKAGE}`, "default");
}
