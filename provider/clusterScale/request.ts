// The one layout request that create, update, diff and check share: built from the desired layout and what is
// known of the live cluster, sent as a dry run to learn the plan, then (create/update only) for real. The SDK
// decides its wire form (POST /brokers or PATCH, and the fallback for a server without PATCH); this module decides
// what layout to ask for and what the resource refuses.

import type { CallOptions } from "../../sdk/auth/apiAuth";
import type { ClusterClient } from "../../sdk/cluster/clusterClient";
import { type Layout, type LayoutRequest, layoutRefusal, layoutRequest, sameLayoutRequest } from "../../sdk/cluster/layoutRequest";
import { AuthError, ConflictError, PlatformError, ResponseFormatError, TlsError } from "../../sdk/errors";
import { isTransientError } from "../../sdk/http/request";
import type { BrokerState, ChangePlan } from "../../sdk/schemas";
import { messageOf } from "../shared/messageOf";
import type { DesiredLayout } from "./inputs";
import { describeLosses, unaskedReplicaLosses } from "./replicas";

/** What is known of the live cluster: its members, partition count and replica counts. */
export interface LiveSnapshot {
    /** Ids of the brokers that are members (not LEFT), ascending. */
    members: number[];
    partitionCount: number;
    /** The fewest replicas any partition has: the replication factor the server uses when a request names none. */
    leastReplicas: number;
    /** The most replicas any partition has: what the resource keeps when nothing else says (0 without partitions). */
    mostReplicas: number;
}

export type PlanOutcome =
    /** The server's plan. `empty` also covers a force request that removes nobody (its plan only re-asserts replicas). */
    | { kind: "planned"; request: LayoutRequest; plan: ChangePlan; live: LiveSnapshot; empty: boolean; patchUnsupported: boolean }
    /** Another change is running; its id when the server told it. */
    | { kind: "busy"; pendingChangeId?: number }
    /** The server, or what it reported of the cluster, rules the request out: it would fail at apply too. */
    | { kind: "rejected"; property: string; reason: string }
    /** No answer that decides anything (connection refused, timeout, 502/503/504, 429). */
    | { kind: "unreachable"; reason: string };

/** A dry run that planned. */
export type Planned = Extract<PlanOutcome, { kind: "planned" }>;

/**
 * The layout to ask for against `live`. It names the replication factor the resource intends (never left to the
 * server's implicit minimum); the SDK leaves it out of a force removal, which the server refuses with one.
 */
export function layoutFor(desired: DesiredLayout, live: LiveSnapshot | undefined): Layout {
    const layout: Layout = { brokers: desired.brokers, force: desired.force };
    if (desired.partitionCount !== undefined) layout.partitionCount = desired.partitionCount;
    const replicationFactor = intendedReplicationFactor(desired, live);
    if (replicationFactor !== undefined) layout.replicationFactor = replicationFactor;
    return layout;
}

/** The replication factor a request names: the input, else the recorded intent, else the most replicas a partition has now. */
export function intendedReplicationFactor(desired: DesiredLayout, live: LiveSnapshot | undefined): number | undefined {
    if (desired.replicationFactor !== undefined) return desired.replicationFactor;
    if (desired.recordedReplicationFactor !== undefined) return desired.recordedReplicationFactor;
    return live !== undefined && live.mostReplicas > 0 ? live.mostReplicas : undefined;
}

/**
 * Asks the server for the plan of the request that brings the cluster to `desired`: one dry run, and a second
 * only when the answer shows that the request built from `belief` does not fit the live cluster (partitions to
 * add after all, other members). Never sends anything that changes the cluster.
 */
export async function planChange(cluster: ClusterClient, desired: DesiredLayout, belief: LiveSnapshot | undefined, options: CallOptions): Promise<PlanOutcome> {
    let live = belief;
    let patch = true;
    for (let attempt = 0; ; attempt++) {
        const layout = layoutFor(desired, live);
        let request: LayoutRequest;
        let plan: ChangePlan;
        try {
            ({ request, plan, patchSupported: patch } = await cluster.planLayout(layout, live, { ...options, patch }));
        } catch (error) {
            const outcome = classifyFailure(error);
            return desired.force && outcome.kind === "rejected" && outcome.property === "brokers" ? forceRefusal(cluster, desired, outcome, options) : outcome;
        }
        const answered = snapshotOf(plan.currentTopology);
        const refusal = refuse(desired, answered, !patch);
        if (refusal !== undefined) return refusal;
        const fitting = layoutRequest(layoutFor(desired, answered), answered, { patch });
        const fits = sameLayoutRequest(fitting, request) || sameAsImplicit(fitting, request, answered);
        if (fits || attempt >= 2) {
            // Where the dry run left the replication factor implicit, the request sent names it (the plan is the same).
            const toSend = fits ? fitting : request;
            const losses = unaskedReplicaLosses(desired, plan);
            if (losses.length > 0) return { kind: "rejected", property: "replicationFactor", reason: lossReason(desired, losses, toSend) };
            return { kind: "planned", request: toSend, plan, live: answered, empty: isEmptyPlan(desired, plan, answered), patchUnsupported: !patch };
        }
        live = answered;
    }
}

/**
 * A force removal the server refused: when it names brokers that are not members (the server keeps only members), the
 * program asked to add them, which a force removal cannot do. One read of the cluster tells which.
 */
async function forceRefusal(cluster: ClusterClient, desired: DesiredLayout, refused: PlanOutcome, options: CallOptions): Promise<PlanOutcome> {
    let members: number[];
    try {
        members = snapshotOf((await cluster.getCluster({ ...options, retry: false })).brokers).members;
    } catch {
        return refused;
    }
    const added = desired.brokers.filter((id) => !members.includes(id));
    if (added.length === 0) return refused;
    return {
        kind: "rejected",
        property: "force",
        reason: `force removal cannot add brokers (${added.join(", ")} ${added.length === 1 ? "is not a member" : "are not members"} of the cluster): add them in a separate update without force`,
    };
}

/** What the dry run's (or a GET's, or the recorded topology's) broker list says about the cluster. */
export function snapshotOf(brokers: readonly { id: number; state: string; partitions: readonly { id: number }[] }[]): LiveSnapshot {
    const members = brokers.filter((broker) => broker.state !== "LEFT");
    const replicas = new Map<number, number>();
    for (const broker of members) for (const partition of broker.partitions) replicas.set(partition.id, (replicas.get(partition.id) ?? 0) + 1);
    const counts = [...replicas.values()];
    return {
        members: members.map((broker) => broker.id).sort((a, b) => a - b),
        partitionCount: replicas.size,
        leastReplicas: counts.length === 0 ? 0 : Math.min(...counts),
        mostReplicas: counts.length === 0 ? 0 : Math.max(...counts),
    };
}

/** The smallest number of replicas any partition has (the cluster's effective replication factor). */
export function liveReplicationFactor(brokers: readonly BrokerState[]): number {
    const replicas = new Map<number, number>();
    for (const broker of brokers) {
        if (broker.state === "LEFT") continue;
        for (const partition of broker.partitions) replicas.set(partition.id, (replicas.get(partition.id) ?? 0) + 1);
    }
    return replicas.size === 0 ? 0 : Math.min(...replicas.values());
}

/** Brokers the layout removes from the live cluster. */
export function removedBrokers(desired: DesiredLayout, live: LiveSnapshot): number[] {
    return live.members.filter((id) => !desired.brokers.includes(id));
}

/**
 * A request that names no replication factor plans exactly as one naming the server's implicit choice (the fewest
 * replicas any partition has): the dry run of the first already showed the plan of the second.
 */
function sameAsImplicit(fitting: LayoutRequest, sent: LayoutRequest, live: LiveSnapshot): boolean {
    if (fitting.method !== "POST" || sent.method !== "POST" || sent.replicationFactor !== undefined) return false;
    return fitting.replicationFactor === live.leastReplicas && sameLayoutRequest({ ...fitting, replicationFactor: undefined }, sent);
}

function lossReason(desired: DesiredLayout, losses: ReturnType<typeof unaskedReplicaLosses>, request: LayoutRequest): string {
    const intended = request.method === "POST" ? request.replicationFactor : request.patch.partitions?.replicationFactor;
    const advice =
        desired.replicationFactor === undefined
            ? `replicationFactor is not set and this resource intends ${intended ?? "no particular"} replicas per partition; ` +
              "set replicationFactor to the number of replicas to keep (or lower it explicitly to drop them)"
            : `replicationFactor ${desired.replicationFactor} does not ask for that; lower it explicitly to drop replicas`;
    return `the plan would drop replicas the program did not ask to drop: ${describeLosses(losses)}. ${advice}`;
}

/** Layouts that no request can reach, found from the live cluster. */
function refuse(desired: DesiredLayout, live: LiveSnapshot, patchUnsupported: boolean): PlanOutcome | undefined {
    const removed = removedBrokers(desired, live);
    if (desired.maxBrokersRemoved !== undefined && removed.length > desired.maxBrokersRemoved) {
        return {
            kind: "rejected",
            property: "maxBrokersRemoved",
            reason:
                `this change removes ${removed.length} brokers (${removed.join(", ")}) of the cluster's ${live.members.length}, ` +
                `more than maxBrokersRemoved ${desired.maxBrokersRemoved}: remove them over several updates, or raise the limit for this one`,
        };
    }
    const wanted = desired.partitionCount;
    if (wanted === undefined || live.partitionCount === 0) return undefined;
    if (wanted < live.partitionCount) {
        return {
            kind: "rejected",
            property: "partitionCount",
            reason: `partitionCount ${wanted} is below the cluster's ${live.partitionCount} partitions: partitions can only be added, never removed`,
        };
    }
    if (wanted > live.partitionCount && desired.force) {
        return {
            kind: "rejected",
            property: "force",
            reason: `force removal cannot add partitions (${live.partitionCount} → ${wanted}): add them in a separate update without force`,
        };
    }
    if (wanted > live.partitionCount && patchUnsupported) {
        return {
            kind: "rejected",
            property: "partitionCount",
            reason:
                `cannot add partitions (${live.partitionCount} → ${wanted}): the management API answered PATCH with 405, ` +
                "so this server predates partition scaling (it needs the PATCH endpoint of 8.8 or later)",
        };
    }
    return undefined;
}

function isEmptyPlan(desired: DesiredLayout, plan: ChangePlan, live: LiveSnapshot): boolean {
    if (plan.plannedChanges.length === 0) return true;
    // A force request re-asserts every partition's replicas even when it removes nobody: nothing to do then.
    return desired.force && removedBrokers(desired, live).length === 0;
}

function classifyFailure(error: unknown): PlanOutcome {
    if (error instanceof ConflictError) return { kind: "busy", pendingChangeId: error.pendingChangeId };
    if (isTransientError(error)) return { kind: "unreachable", reason: messageOf(error) };
    if (!(error instanceof PlatformError)) throw error;
    if (error.apiServerReason !== undefined) return { kind: "rejected", property: "kubernetes", reason: apiServerRefusal(error) };
    if (error instanceof AuthError) {
        return { kind: "rejected", property: "auth", reason: messageOf(error) };
    }
    // A handshake the server or this side refused (an untrusted certificate, a client certificate required): no retry
    // heals it, and the advice names the tls input.
    if (error instanceof TlsError) return { kind: "rejected", property: "tls", reason: messageOf(error) };
    if (error.status === 404) {
        return { kind: "rejected", property: "basePath", reason: `no cluster endpoint there (check basePath and managementUrl): ${messageOf(error)}` };
    }
    if (error instanceof ResponseFormatError) {
        return { kind: "rejected", property: "managementUrl", reason: `the answer is not the cluster management API's: ${messageOf(error)}` };
    }
    const refusal = layoutRefusal(error);
    if (refusal.partitionScalingOff) {
        return {
            kind: "rejected",
            property: "partitionCount",
            reason: `the brokers cannot add partitions: partition scaling is not enabled on them. ${messageOf(error)}`,
        };
    }
    return { kind: "rejected", property: refusal.field, reason: `the cluster refuses this layout: ${messageOf(error)}` };
}

/** What the Kubernetes API server's own refusal means for the route, and what to do. */
export function apiServerRefusal(error: PlatformError): string {
    const said = error.serverMessage === undefined ? "" : ` Server said: ${error.serverMessage}`;
    switch (error.apiServerReason) {
        case "Unauthorized":
            return `the Kubernetes API server did not accept the kubeconfig's credentials (401): check the kubeconfig and its context.${said}`;
        case "Forbidden":
            return `the Kubernetes API server forbids it (403): the kubeconfig's identity needs the verbs get, create and patch on services/proxy in the namespace.${said}`;
        case "NotFound":
            return `the Kubernetes API server has no such service or port (404): check kubernetes.service and kubernetes.managementPort.${said}`;
        default:
            if (/dryRun is not supported/.test(error.serverMessage ?? "")) {
                return (
                    "the Kubernetes API server does not pass the management API's dry runs through its service proxy (400: dryRun is not supported), " +
                    "and every preview and up plans with one. Reach the management API directly instead: set managementUrl (a URL inside the cluster, " +
                    "or http://127.0.0.1:9600 behind `kubectl port-forward svc/<service> 9600:9600`) and leave kubernetes.service out; " +
                    `kubernetes.statefulSet still keeps the brokers' StatefulSet in step.${said}`
                );
            }
            return `the Kubernetes API server refused the request (${error.status ?? "?"} ${error.apiServerReason}).${said}`;
    }
}
