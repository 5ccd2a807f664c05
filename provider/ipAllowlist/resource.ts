import * as pulumi from "@pulumi/pulumi";
import type { AdminCredentialsArgs } from "../shared/adminCredentialsArgs";
import { adminResourceOptions, adminResourceProps } from "../shared/adminResourceProps";
import { ENTRY_POINTS } from "../shared/entryPoints";
import { providerShim } from "../shared/providerShim";

export interface IpAllowlistEntryArgs {
    /** An IPv4 or IPv6 address or CIDR range, or several separated by commas. */
    ip: pulumi.Input<string>;
    description?: pulumi.Input<string>;
}

export interface IpAllowlistArgs {
    /** The cluster whose allowlist this is (one IpAllowlist per cluster). A change replaces the resource. */
    clusterId: pulumi.Input<string>;
    /** The whole list; empty lifts every restriction. */
    entries: pulumi.Input<pulumi.Input<IpAllowlistEntryArgs>[]>;
    credentials?: pulumi.Input<AdminCredentialsArgs>;
}

/** What the state stores as the provider: it loads provider.ts from the installed package. */
export const ipAllowlistShim = providerShim(ENTRY_POINTS.ipAllowlist, "IpAllowlist");

/**
 * The IP allowlist of a cluster (it guards the engine's gRPC and REST ingress, not the web applications): the whole
 * list, replaced at once. Destroying the resource lifts every restriction.
 */
export class IpAllowlist extends pulumi.dynamic.Resource {
    declare readonly clusterId: pulumi.Output<string>;
    declare readonly entries: pulumi.Output<{ ip: string; description: string }[]>;

    constructor(name: string, args: IpAllowlistArgs, opts?: pulumi.CustomResourceOptions) {
        const props = { ...args, ...adminResourceProps(name, args.credentials) };
        super(ipAllowlistShim, name, props, adminResourceOptions(opts), "platform", "IpAllowlist");
    }
}
