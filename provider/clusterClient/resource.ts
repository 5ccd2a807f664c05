import * as pulumi from "@pulumi/pulumi";
import type { ClusterClientPermission } from "../../sdk/adminSchemas";
import type { AdminCredentialsArgs } from "../shared/adminCredentialsArgs";
import { adminResourceOptions, adminResourceProps } from "../shared/adminResourceProps";
import { ENTRY_POINTS } from "../shared/entryPoints";
import { providerShim } from "../shared/providerShim";

export interface ClusterClientArgs {
    /** The cluster (a Cluster's clusterId, or the id of one made elsewhere). */
    clusterId: pulumi.Input<string>;
    /** Unique in the cluster, at most 50 characters. */
    clientName: pulumi.Input<string>;
    /** What the client may reach: Zeebe, Operate, Tasklist, Optimize, Secrets. Default: all five (sent explicitly). */
    permissions?: pulumi.Input<pulumi.Input<ClusterClientPermission>[]>;
    /** Any value: a change replaces the client, which rotates its secret. */
    triggers?: pulumi.Input<unknown>;
    /**
     * A client of this name that exists outside the stack (made in the web console, or by an up killed before it could
     * record the client) is deleted and made anew: its secret stops working. Without it such a name is refused.
     */
    replaceExisting?: pulumi.Input<boolean>;
    /** The longest up waits for the cluster to be ready to show the client's connection details; default 600. */
    timeoutSeconds?: pulumi.Input<number>;
    credentials?: pulumi.Input<AdminCredentialsArgs>;
}

/** What the state stores as the provider: it loads provider.ts from the installed package. */
export const clusterClientShim = providerShim(ENTRY_POINTS.clusterClient, "ClusterClient");

/**
 * An API client of a cluster, for the workers that connect to it. Its secret is shown only once, when it is created:
 * it lands in the stack as a Pulumi secret output. A client cannot be changed, so any change of its inputs replaces
 * it (a new id and secret), and one that exists already cannot be brought under a stack (replaceExisting makes it anew).
 */
export class ClusterClient extends pulumi.dynamic.Resource {
    declare readonly clientId: pulumi.Output<string>;
    /** A Pulumi secret. */
    declare readonly clientSecret: pulumi.Output<string>;
    declare readonly zeebeAddress: pulumi.Output<string>;
    declare readonly authorizationServerUrl: pulumi.Output<string>;
    declare readonly audience: pulumi.Output<string>;
    declare readonly permissions: pulumi.Output<string[]>;

    constructor(name: string, args: ClusterClientArgs, opts?: pulumi.CustomResourceOptions) {
        const props = {
            ...args,
            ...adminResourceProps(name, args.credentials),
            clientId: undefined,
            clientSecret: undefined,
            zeebeAddress: undefined,
            authorizationServerUrl: undefined,
            audience: undefined,
        };
        super(clusterClientShim, name, props, adminResourceOptions(opts, "clientSecret"), "platform", "ClusterClient");
    }
}
