// What the provider plugin serves: each resource type with its declaration (for the schema) and the dynamic
// provider that implements it, and each function with its declaration and the code a TypeScript program's call runs;
// each loaded on first use (the schema alone loads none).
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { adminClientDeclaration, getMembersDeclaration } from "../adminClient/declaration";
import { clusterDeclaration, getClusterParametersDeclaration } from "../cluster/declaration";
import { clusterClientDeclaration } from "../clusterClient/declaration";
import { clusterScaleDeclaration } from "../clusterScale/declaration";
import { connectorSecretDeclaration } from "../connectorSecret/declaration";
import { ipAllowlistDeclaration } from "../ipAllowlist/declaration";
import { organizationMemberDeclaration } from "../organizationMember/declaration";
import type { Environment, StackCredentialConfig } from "../shared/credentials";

export const PACKAGE_NAME = "platform";

export interface Declaration {
    description: string;
    inputs: z.ZodObject;
    outputs: z.ZodObject;
}

export interface ServedResource {
    declaration: Declaration;
    load: () => Promise<pulumi.dynamic.ResourceProvider>;
}

export interface ServedFunction {
    declaration: Declaration;
    /** The function's result from plain arguments; settings not given come from the provider's, then the environment. */
    call: (args: Record<string, unknown>, config: StackCredentialConfig, env: Environment) => Promise<Record<string, unknown>>;
}

/** By type name: `ClusterScale` is `platform:index:ClusterScale`. */
export const SERVED_RESOURCES: Record<string, ServedResource> = {
    ClusterScale: { declaration: clusterScaleDeclaration, load: async () => (await import("../clusterScale/provider")).provider },
    OrganizationMember: { declaration: organizationMemberDeclaration, load: async () => (await import("../organizationMember/provider")).provider },
    Cluster: { declaration: clusterDeclaration, load: async () => (await import("../cluster/provider")).provider },
    ClusterClient: { declaration: clusterClientDeclaration, load: async () => (await import("../clusterClient/provider")).provider },
    ConnectorSecret: { declaration: connectorSecretDeclaration, load: async () => (await import("../connectorSecret/provider")).provider },
    IpAllowlist: { declaration: ipAllowlistDeclaration, load: async () => (await import("../ipAllowlist/provider")).provider },
    AdminClient: { declaration: adminClientDeclaration, load: async () => (await import("../adminClient/provider")).provider },
};

/** By function name: `getMembers` is `platform:index:getMembers`. */
export const SERVED_FUNCTIONS: Record<string, ServedFunction> = {
    getMembers: {
        declaration: getMembersDeclaration,
        call: async (args, config, env) => ({ members: await (await import("../adminClient/getMembers")).membersWith(args, config, env) }),
    },
    getClusterParameters: {
        declaration: getClusterParametersDeclaration,
        call: async (args, config, env) => ({ ...(await (await import("../cluster/getClusterParameters")).clusterParametersWith(args, config, env)) }),
    },
};

export function typeToken(name: string): string {
    return `${PACKAGE_NAME}:index:${name}`;
}
