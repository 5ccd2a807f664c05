// What the state records of a cluster: the cluster as the administration API shows it (every field refresh reads back),
// with the resource's own settings (its name, credentials, time limit).

import type { Cluster } from "../../sdk/adminSchemas";
import type { AdminCredentials } from "../shared/adminCredentials";
import { stageOrRecorded } from "./decision";

export interface ClusterOutputs {
    resourceName: string;
    credentials: AdminCredentials;
    timeoutSeconds: number;
    clusterId: string;
    name: string;
    description?: string;
    stageLabel?: string;
    autoUpdate: boolean;
    channelId: string;
    channel: string;
    regionId: string;
    region: string;
    planTypeId: string;
    planType: string;
    /** The generation the cluster runs. */
    generationId: string;
    generation: string;
    /** `status.ready`: Creating, Healthy, Unhealthy, … */
    status: string;
    /** Where its applications answer: zeebe, operate, tasklist, optimize, console, connectors, … */
    links: Record<string, string>;
    created: string;
}

/** `sentStage`: the stage label this resource sent or recorded, kept when the cluster shows none (see stageOrRecorded). */
export function clusterOutputs(
    cluster: Cluster,
    settings: Pick<ClusterOutputs, "resourceName" | "credentials" | "timeoutSeconds">,
    sentStage?: string,
): ClusterOutputs {
    const links = Object.fromEntries(Object.entries(cluster.links).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
    const outputs: ClusterOutputs = {
        ...settings,
        clusterId: cluster.uuid,
        name: cluster.name,
        autoUpdate: cluster.autoUpdate,
        channelId: cluster.channel.uuid,
        channel: cluster.channel.name,
        regionId: cluster.region.uuid,
        region: cluster.region.name,
        planTypeId: cluster.planType.uuid,
        planType: cluster.planType.name,
        generationId: cluster.generation.uuid,
        generation: cluster.generation.name,
        status: cluster.status.ready,
        links,
        created: cluster.created,
    };
    if (cluster.description !== undefined) outputs.description = cluster.description;
    const stage = stageOrRecorded(cluster, sentStage);
    if (stage !== undefined) outputs.stageLabel = stage;
    return outputs;
}
