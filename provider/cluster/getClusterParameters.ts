// What clusters of the organization can be created with: channels (with their default and allowed generations), plan
// types and regions, for programs that choose among them. Runs in the program (also during preview, so its values
// are known in the preview), with the credentials and fallbacks of every administration resource.

import * as pulumi from "@pulumi/pulumi";
import { adminApiFor, checkAdminCredentials } from "../shared/adminCredentials";
import type { AdminCredentialsArgs } from "../shared/adminCredentialsArgs";
import { CONFIG_NAMESPACE, type Environment, type StackCredentialConfig, readCredentialConfig } from "../shared/credentials";

export interface NamedOption {
    id: string;
    name: string;
}

export interface ClusterParametersResult {
    channels: (NamedOption & { defaultGeneration: NamedOption; allowedGenerations: NamedOption[] })[];
    planTypes: NamedOption[];
    regions: (NamedOption & { provider?: string })[];
}

/** The credentials as plain values (each optional, with the usual fallbacks). */
export type GetClusterParametersArgs = { [K in keyof AdminCredentialsArgs]?: pulumi.Unwrap<NonNullable<AdminCredentialsArgs[K]>> };

/** getClusterParameters as an Output, from arguments that may be Outputs (a secret stays a secret). */
export function getClusterParametersOutput(args: AdminCredentialsArgs = {}): pulumi.Output<ClusterParametersResult> {
    return pulumi.output(args).apply((plain) => getClusterParameters(plain as GetClusterParametersArgs));
}

export async function getClusterParameters(args: GetClusterParametersArgs = {}): Promise<ClusterParametersResult> {
    return clusterParametersWith(
        args,
        readCredentialConfig((name) => new pulumi.Config(CONFIG_NAMESPACE).get(name)),
        process.env,
    );
}

/** getClusterParameters with the stack config given (the provider plugin has none: the environment then). */
export async function clusterParametersWith(args: GetClusterParametersArgs, config: StackCredentialConfig, env: Environment): Promise<ClusterParametersResult> {
    const failures: string[] = [];
    const credentials = checkAdminCredentials(args, config, env, (_property, reason) => failures.push(reason));
    if (credentials === undefined) throw new Error(`getClusterParameters: ${failures.join("; ")}`);
    const api = adminApiFor(credentials, config, env, "getClusterParameters", (notice) =>
        console.log(`getClusterParameters: retrying ${notice.method} ${notice.path}`),
    );
    const parameters = await api.getClusterParameters();
    const option = (ref: { uuid: string; name: string }): NamedOption => ({ id: ref.uuid, name: ref.name });
    return {
        channels: parameters.channels.map((channel) => ({
            ...option(channel),
            defaultGeneration: option(channel.defaultGeneration),
            allowedGenerations: channel.allowedGenerations.map(option),
        })),
        planTypes: parameters.clusterPlanTypes.map(option),
        regions: parameters.regions.map((region) => ({ ...option(region), ...(region.provider !== undefined && { provider: region.provider }) })),
    };
}
