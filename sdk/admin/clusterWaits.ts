// Waiting for a hosted cluster: until its `status.ready` reads `Healthy` twice in a row (as the platform's own tools
// wait: a cluster may report Healthy once on its way to another state), or until it is gone after a deletion.
// `Creating`, `Updating`, `Resuming` and `Maintenance` are waited out; any other state ends the wait with the state
// named, and so does the time limit.

import type { AdminApiClient } from "../adminApiClient";
import type { Cluster } from "../adminSchemas";
import { HostedClusterStateError } from "../errors";
import { PollDecision, pollUntil } from "./pollUntil";

/** States a cluster passes through on its way to Healthy. */
export const PASSING_STATES = ["Creating", "Updating", "Resuming", "Maintenance"];

export interface ClusterWaitOptions {
    timeoutMs: number;
    /** Told when the state read changes (and every 30 s while it stays), with the time waited so far. */
    onStatus?: (status: string, elapsedMs: number) => void;
    firstDelayMs?: number;
    maxDelayMs?: number;
    signal?: AbortSignal;
}

export function waitForClusterHealthy(api: AdminApiClient, clusterId: string, options: ClusterWaitOptions): Promise<Cluster> {
    let healthyInARow = 0;
    return pollCluster<Cluster>(
        api,
        clusterId,
        options,
        (cluster) => {
            if (cluster === undefined)
                return { fail: new HostedClusterStateError(`Cluster ${clusterId} does not exist (any more)`, clusterId, undefined, false) };
            const status = cluster.status.ready;
            if (status !== "Healthy") healthyInARow = 0;
            else if (++healthyInARow >= 2) return { done: cluster };
            if (status === "Healthy") return { wait: "Healthy, confirming", soon: true };
            if (PASSING_STATES.includes(status)) return { wait: status };
            return { fail: new HostedClusterStateError(`Cluster ${clusterId} is ${status}`, clusterId, status, false) };
        },
        (status, seconds) => `Cluster ${clusterId} was not Healthy after ${seconds} s (still ${status ?? "unread"})`,
    );
}

/** Until GET answers 404 after a deletion. */
export function waitForClusterGone(api: AdminApiClient, clusterId: string, options: ClusterWaitOptions): Promise<void> {
    return pollCluster<void>(
        api,
        clusterId,
        options,
        (cluster) => (cluster === undefined ? { done: undefined } : { wait: `${cluster.status.ready}, being deleted` }),
        (status, seconds) => `Cluster ${clusterId} was still there ${seconds} s after its deletion (${status ?? "unread"})`,
    );
}

/** Reads the cluster (afresh each time) until `decide` is done with it, within the options' time limit. */
function pollCluster<R>(
    api: AdminApiClient,
    clusterId: string,
    options: ClusterWaitOptions,
    decide: (cluster: Cluster | undefined) => PollDecision<R>,
    timedOut: (status: string | undefined, seconds: number) => string,
): Promise<R> {
    return pollUntil<Cluster | undefined, R>({
        read: () => api.findCluster(clusterId, { reread: true, signal: options.signal }),
        decide,
        timeoutMs: options.timeoutMs,
        firstDelayMs: options.firstDelayMs,
        maxDelayMs: options.maxDelayMs,
        onWaiting: options.onStatus,
        signal: options.signal,
        timedOut: (status, elapsedMs) => new HostedClusterStateError(timedOut(status, Math.round(elapsedMs / 1000)), clusterId, status, true),
    });
}
