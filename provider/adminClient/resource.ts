import * as pulumi from "@pulumi/pulumi";
import { ENTRY_POINTS } from "../shared/entryPoints";
import { providerShim } from "../shared/providerShim";
import type { AdminCredentialsArgs } from "../shared/adminCredentialsArgs";
import type { OrganizationMemberInfo } from "./types";

/**
 * The credentials AdminClient proves, as every administration resource takes them: each setting falls back to stack
 * config `platform:<name>`, then to an environment variable. A client secret given here is stored in the state,
 * encrypted, so that refresh can use it; one from config or the environment is read when used and never stored.
 */
export type AdminClientArgs = AdminCredentialsArgs;

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
