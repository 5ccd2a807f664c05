// What the provider plugin serves: each resource type with its declaration (for the schema) and the dynamic
// provider that implements it, loaded on first use (the schema alone loads none).
import type { z } from "zod";
import type * as pulumi from "@pulumi/pulumi";
import { clusterScaleDeclaration } from "../clusterScale/declaration";
import { organizationMemberDeclaration } from "../organizationMember/declaration";

export const PACKAGE_NAME = "platform";

export interface ResourceDeclaration {
    description: string;
    inputs: z.ZodObject;
    outputs: z.ZodObject;
}

export interface ServedResource {
    declaration: ResourceDeclaration;
    load: () => Promise<pulumi.dynamic.ResourceProvider>;
}

/** By type name: `ClusterScale` is `platform:index:ClusterScale`. */
export const SERVED_RESOURCES: Record<string, ServedResource> = {
    ClusterScale: { declaration: clusterScaleDeclaration, load: async () => (await import("../clusterScale/provider")).provider },
    OrganizationMember: { declaration: organizationMemberDeclaration, load: async () => (await import("../organizationMember/provider")).provider },
};

export function typeToken(typeName: string): string {
    return `${PACKAGE_NAME}:index:${typeName}`;
}
