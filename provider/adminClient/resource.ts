import * as pulumi from "@pulumi/pulumi";
import { ENTRY_POINTS } from "../shared/entryPoints";
import { providerShim } from "../shared/providerShim";
import type { TlsArgs } from "../clusterScale/resource";
import type { OrganizationMemberInfo } from "./types";

/**
 * Each setting falls back to stack config `platform:<name>`, then to an environment variable. A client
 * secret given here is stored in the state, encrypted, so that refresh can use it; one from config or
 * the environment is read when used and never stored in the state.
 */
export interface AdminClientArgs {
    /** Else `platform:clientId`, else PLATFORM_CONSOLE_CLIENT_ID. */
    clientId?: pulumi.Input<string>;
    /** Stored as a secret (input and output, for refresh). Else `platform:clientSecret`, else PLATFORM_CONSOLE_CLIENT_SECRET. */
    clientSecret?: pulumi.Input<string>;
    /** The token issuer's endpoint. Else `platform:oauthUrl`, else PLATFORM_OAUTH_URL. */
    oauthUrl?: pulumi.Input<string>;
    /** Else `platform:audience`, else PLATFORM_CONSOLE_OAUTH_AUDIENCE, else the host name of `baseUrl`. */
    audience?: pulumi.Input<string>;
    /** Base URL of the administration API. Else `platform:baseUrl`, else PLATFORM_CONSOLE_BASE_URL. */
    baseUrl?: pulumi.Input<string>;
    /** A private CA to trust and a client certificate, for the token issuer and the administration API. Stored as a secret. */
    tls?: pulumi.Input<TlsArgs>;
}

/** What the state stores as the provider: it loads provider.ts from the installed package. One object, serialized once. */
export const adminClientShim = providerShim(ENTRY_POINTS.adminClient, "AdminClient");

/**
 * A set of client credentials for the organization administration API, proven to work, and the
 * organization's members. One token serves every AdminClient with the same credentials (and later runs,
 * through the token disk cache). Refresh lists the members again; destroy deletes nothing remotely.
 */
export class AdminClient extends pulumi.dynamic.Resource {
    declare readonly clientId: pulumi.Output<string>;
    declare readonly oauthUrl: pulumi.Output<string>;
    declare readonly audience: pulumi.Output<string>;
    declare readonly baseUrl: pulumi.Output<string>;
    /** The organization's members when last listed (create, update or refresh). */
    declare readonly members: pulumi.Output<OrganizationMemberInfo[]>;
    declare readonly memberCount: pulumi.Output<number>;
    /** When the token used for the last listing expires (ISO 8601), as the token client knows it. */
    declare readonly tokenExpiresAt: pulumi.Output<string>;

    constructor(name: string, args: AdminClientArgs = {}, opts?: pulumi.CustomResourceOptions) {
        const props = {
            resourceName: name,
            // Whether the program runs a preview: what changed is said in the preview pass only (not an input kept in state).
            dryRun: pulumi.runtime.isDryRun(),
            clientId: undefined,
            oauthUrl: undefined,
            audience: undefined,
            baseUrl: undefined,
            members: undefined,
            memberCount: undefined,
            tokenExpiresAt: undefined,
            ...args,
            clientSecret: args.clientSecret === undefined ? undefined : pulumi.secret(args.clientSecret),
            tls: args.tls === undefined ? undefined : pulumi.secret(args.tls),
        };
        // A secret input comes back as the output of the same name (for refresh), which the engine then keeps
        // secret; additionalSecretOutputs says so explicitly as well.
        const secretOutputs = pulumi.mergeOptions(opts, { additionalSecretOutputs: ["clientSecret", "tls"] });
        super(adminClientShim, name, props, secretOutputs, "platform", "AdminClient");
    }
}
