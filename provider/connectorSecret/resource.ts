import * as pulumi from "@pulumi/pulumi";
import type { AdminCredentialsArgs } from "../shared/adminCredentialsArgs";
import { adminResourceOptions, adminResourceProps } from "../shared/adminResourceProps";
import { ENTRY_POINTS } from "../shared/entryPoints";
import { providerShim } from "../shared/providerShim";

export interface ConnectorSecretArgs {
    /** The cluster (a Cluster's clusterId, or the id of one made elsewhere). A change replaces the secret. */
    clusterId: pulumi.Input<string>;
    /** Shorter than 50 characters. A change replaces the secret (the old one is deleted first). */
    secretName: pulumi.Input<string>;
    /** Stored as a Pulumi secret; a change is written in place. */
    value: pulumi.Input<string>;
    /** Write the value into a secret of this name that exists already (made outside the stack) instead of refusing. */
    adoptExisting?: pulumi.Input<boolean>;
    credentials?: pulumi.Input<AdminCredentialsArgs>;
}

/** What the state stores as the provider: it loads provider.ts from the installed package. */
export const connectorSecretShim = providerShim(ENTRY_POINTS.connectorSecret, "ConnectorSecret");

/** A secret of a cluster that its connectors read by name. */
export class ConnectorSecret extends pulumi.dynamic.Resource {
    declare readonly clusterId: pulumi.Output<string>;
    declare readonly secretName: pulumi.Output<string>;
    /** A Pulumi secret: the value as the cluster lists it. */
    declare readonly value: pulumi.Output<string>;

    constructor(name: string, args: ConnectorSecretArgs, opts?: pulumi.CustomResourceOptions) {
        const props = {
            ...args,
            value: pulumi.secret(args.value),
            ...adminResourceProps(name, args.credentials),
        };
        super(connectorSecretShim, name, props, adminResourceOptions(opts, "value"), "platform", "ConnectorSecret");
    }
}
