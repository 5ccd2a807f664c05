// What up does to a cluster: a pure decision from what the program declares (its inputs, resolved) and the cluster
// as read now. The fields PATCH changes (name, description, stage label) are updated in place; the generation moves
// only through the upgrade, and only to the newest one the channel allows; channel, region and plan type are fixed
// at creation, so a change of one replaces the cluster (deleting it and its data); autoUpdate cannot be changed
// through the API at all. Taking over an existing cluster (existingClusterId) is decided the same way, except that a
// fixed field that differs is refused instead of replacing the cluster someone else made.

import type { ClusterPatch } from "../../sdk/adminApiClient";
import { CLUSTER_STAGES, type Cluster } from "../../sdk/adminSchemas";
import type { ClusterGiven } from "./inputs";
import type { ResolvedParameters } from "./resolve";

export type ClusterInputs = ClusterGiven & ResolvedParameters;

export type ClusterDecision =
    /** The cluster no longer exists: up creates it again (a replacement). */
    | { kind: "gone" }
    /** A field fixed at creation differs: replacing deletes the cluster and its data. */
    | { kind: "replace"; changes: string[] }
    /** Nothing up could do gets there: the reason names the input. */
    | { kind: "refuse"; reason: string }
    /** PATCH and/or upgrade; `changes` in words. */
    | { kind: "update"; patch: ClusterPatch; upgrade?: { from: string; to: string }; changes: string[] }
    | { kind: "none" };

/**
 * The stage label the cluster shows. The API's Cluster has no field for it: a server may list it among `labels`, or
 * leave `labels` out, and then the label is not visible at all.
 */
export function stageOf(cluster: Cluster): string | undefined {
    return cluster.labels.find((label) => (CLUSTER_STAGES as readonly string[]).includes(label));
}

/**
 * The stage label to compare with: the one the cluster shows, else the one this resource last sent (the state
 * records it), since a server that shows none is not saying the cluster has none.
 */
export function stageOrRecorded(cluster: Cluster, recorded: string | undefined): string | undefined {
    return stageOf(cluster) ?? recorded;
}

/** The fields fixed at creation that differ, in words. */
export function fixedChanges(desired: ClusterInputs, live: Cluster): string[] {
    const changes: string[] = [];
    if (live.channel.uuid !== desired.channelId) changes.push(`channel ${live.channel.name} → ${desired.channelName}`);
    if (live.region.uuid !== desired.regionId) changes.push(`region ${live.region.name} → ${desired.regionName}`);
    if (live.planType.uuid !== desired.planTypeId) changes.push(`planType ${live.planType.name} → ${desired.planTypeName}`);
    return changes;
}

/** `recordedStage`: the stage label the state records (see stageOrRecorded). */
export function decideCluster(desired: ClusterInputs, live: Cluster | undefined, adopting: boolean, recordedStage?: string): ClusterDecision {
    if (live === undefined)
        return adopting ? { kind: "refuse", reason: `existingClusterId: there is no cluster ${desired.existingClusterId}` } : { kind: "gone" };
    const fixed = fixedChanges(desired, live);
    if (fixed.length > 0) {
        if (!adopting) return { kind: "replace", changes: fixed };
        return {
            kind: "refuse",
            reason: `existingClusterId: cluster ${live.uuid} (${live.name}) differs in what only its creation sets (${fixed.join(", ")}): declare it as it is, or leave existingClusterId out to create a new cluster`,
        };
    }
    if (desired.autoUpdate !== undefined && desired.autoUpdate !== live.autoUpdate) {
        return {
            kind: "refuse",
            reason: `autoUpdate: cluster ${live.uuid} has autoUpdate ${live.autoUpdate}, and the administration API cannot change it: change it in the web console, or declare ${live.autoUpdate}`,
        };
    }
    const patch: ClusterPatch = {};
    const changes: string[] = [];
    if (desired.name !== live.name) {
        patch.name = desired.name;
        changes.push(`name ${live.name} → ${desired.name}`);
    }
    if (desired.description !== undefined && desired.description !== (live.description ?? "")) {
        patch.description = desired.description;
        changes.push(`description changed`);
    }
    const stage = stageOrRecorded(live, recordedStage);
    if (desired.stageLabel !== undefined && desired.stageLabel !== stage) {
        patch.stageLabel = desired.stageLabel;
        changes.push(`stageLabel ${stage ?? "none"} → ${desired.stageLabel}`);
    }
    // The generation given is the one to run, unless the platform updates the cluster itself (autoUpdate): then it
    // only chooses the first one.
    let upgrade: { from: string; to: string } | undefined;
    if (desired.generation !== undefined && !live.autoUpdate && desired.generationId !== live.generation.uuid) {
        if (desired.generationId !== desired.newestGenerationId) {
            return {
                kind: "refuse",
                reason: `generation: cluster ${live.uuid} runs ${live.generation.name}; an upgrade goes only to the newest generation the channel ${desired.channelName} allows (${desired.newestGenerationName}), not to ${desired.generationName}`,
            };
        }
        upgrade = { from: live.generation.name, to: desired.generationName };
        changes.push(`generation ${live.generation.name} → ${desired.generationName} (the upgrade)`);
    }
    return changes.length === 0 ? { kind: "none" } : { kind: "update", patch, upgrade, changes };
}
