import * as pulumi from "@pulumi/pulumi";
import type { ClusterStage } from "../../sdk/adminSchemas";
import type { AdminCredentialsArgs } from "../shared/adminCredentialsArgs";
import { adminResourceOptions, adminResourceProps } from "../shared/adminResourceProps";
import { ENTRY_POINTS } from "../shared/entryPoints";
import { providerShim } from "../shared/providerShim";

export interface ClusterArgs {
    /** The cluster's name (at most 50 characters); changed in place. */
    name: pulumi.Input<string>;
    /** The channel, by its display name or id (see getClusterParameters). A change replaces the cluster. */
    channel: pulumi.Input<string>;
    /** The region, by its display name or id. A change replaces the cluster. */
    region: pulumi.Input<string>;
    /** The plan type, by its display name or id. A change replaces the cluster. */
    planType: pulumi.Input<string>;
    /**
     * The generation (name or id) to create with; default: the channel's default. Later, with autoUpdate off, the one to
     * run: a change upgrades the cluster when it is the newest the channel allows, and is refused otherwise.
     */
    generation?: pulumi.Input<string>;
    /** At most 150 characters; changed in place. */
    description?: pulumi.Input<string>;
    /** dev, test, stage or prod; changed in place. */
    stageLabel?: pulumi.Input<ClusterStage>;
    /** Whether the platform updates the cluster to new releases; set at creation only. */
    autoUpdate?: pulumi.Input<boolean>;
    /** The longest up waits for the cluster to be Healthy (and destroy for it to be gone); default 1800. */
    timeoutSeconds?: pulumi.Input<number>;
    /**
     * The id of a cluster that exists already (made in the web console, or by an up that was killed): create takes it
     * over instead of creating one. What only creation sets must match; name, description and stage label are updated.
     */
    existingClusterId?: pulumi.Input<string>;
    credentials?: pulumi.Input<AdminCredentialsArgs>;
}

/** What the state stores as the provider: it loads provider.ts from the installed package. */
export const clusterShim = providerShim(ENTRY_POINTS.cluster, "Cluster");

/**
 * A hosted cluster of the organization. up creates it (sent once) and waits until it is Healthy; name, description and
 * stage label change in place, the generation through the upgrade; a new channel, region or plan type replaces it,
 * which deletes the cluster and its data (the preview says so). A cluster of the same name that exists already is
 * refused, naming the input that takes it over: `existingClusterId`.
 */
export class Cluster extends pulumi.dynamic.Resource {
    /**
     * The cluster's id: the resource's own id, so that it is known in a preview of an update (a preview knows only a
     * changed resource's inputs and id), and the resources that name the cluster are not shown as replaced.
     */
    readonly clusterId: pulumi.Output<string>;
    declare readonly name: pulumi.Output<string>;
    declare readonly description: pulumi.Output<string | undefined>;
    declare readonly stageLabel: pulumi.Output<string | undefined>;
    declare readonly autoUpdate: pulumi.Output<boolean>;
    /** The status the cluster last reported (`status.ready`): Healthy after an up that succeeded. */
    declare readonly status: pulumi.Output<string>;
    /** The generation the cluster runs (its name), and its id. */
    declare readonly generation: pulumi.Output<string>;
    declare readonly generationId: pulumi.Output<string>;
    declare readonly channelId: pulumi.Output<string>;
    declare readonly regionId: pulumi.Output<string>;
    declare readonly planTypeId: pulumi.Output<string>;
    /** Where the cluster's applications answer: zeebe, operate, tasklist, optimize, console, connectors. */
    declare readonly links: pulumi.Output<Record<string, string>>;
    declare readonly created: pulumi.Output<string>;

    constructor(name: string, args: ClusterArgs, opts?: pulumi.CustomResourceOptions) {
        const props = {
            ...args,
            ...adminResourceProps(name, args.credentials),
            status: undefined,
            generationId: undefined,
            channelId: undefined,
            regionId: undefined,
            planTypeId: undefined,
            links: undefined,
            created: undefined,
        };
        super(clusterShim, name, props, adminResourceOptions(opts), "platform", "Cluster");
        this.clusterId = this.id;
    }
}
