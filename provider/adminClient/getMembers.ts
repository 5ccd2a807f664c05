import * as pulumi from "@pulumi/pulumi";
import { clientSecretFor, clientSecretProblem, describeFailures, resolveAdminSettings } from "../shared/adminSettings";
import type { OrganizationMemberInfo } from "./types";
import { CONFIG_NAMESPACE, type Environment, type StackCredentialConfig, readCredentialConfig } from "../shared/credentials";
import { listOrganizationMembers } from "./memberListing";
import type { TlsInput } from "../shared/tlsInput";

/** The same settings and fallbacks as AdminClient's: stack config `platform:<name>`, then the environment. */
export interface GetMembersArgs {
    clientId?: string;
    clientSecret?: string;
    oauthUrl?: string;
    audience?: string;
    baseUrl?: string;
    /** A private CA to trust and a client certificate (PEM text). PLATFORM_TLS_CA_FILE applies as well. */
    tls?: TlsInput;
}

/** getMembers' arguments as Pulumi inputs: `config.requireSecret("clientSecret")` or another resource's outputs. */
export type GetMembersOutputArgs = { [K in keyof GetMembersArgs]?: pulumi.Input<NonNullable<GetMembersArgs[K]>> };

/**
 * The organization's members as an Output, from arguments that may be Outputs: a secret stays a secret (and makes
 * the result secret), so one stack config secret serves both this and AdminClient.
 */
export function getMembersOutput(args: GetMembersOutputArgs = {}): pulumi.Output<OrganizationMemberInfo[]> {
    return pulumi.output(args).apply((plain) => getMembers(plain as GetMembersArgs));
}

/**
 * The organization's members, for programs that only need the data (no resource in the state):
 * `pulumi.output(getMembers())`. It runs in the program, also during preview, and shares the token disk
 * cache with AdminClient.
 */
export async function getMembers(args: GetMembersArgs = {}): Promise<OrganizationMemberInfo[]> {
    const platformConfig = new pulumi.Config(CONFIG_NAMESPACE);
    return membersWith(
        args,
        readCredentialConfig((name) => platformConfig.get(name)),
        process.env,
    );
}

/** getMembers with the stack config given (the provider plugin has none: the environment then). */
export async function membersWith(args: GetMembersArgs, config: StackCredentialConfig, env: Environment): Promise<OrganizationMemberInfo[]> {
    const { settings, failures } = resolveAdminSettings(args, config, env);
    const secretFailure = clientSecretProblem(args.clientSecret, config, env);
    if (secretFailure) failures.push(secretFailure);
    const clientSecret = clientSecretFor(args.clientSecret, config, env);
    if (failures.length > 0 || clientSecret === undefined) throw new Error(`getMembers: ${describeFailures(failures)}`);
    return (await listOrganizationMembers(settings, clientSecret, { connection: { tls: args.tls } })).members;
}
