// What the StatefulSet client needs to know of a pod: its ordinal, whether its container started, whether it is
// Ready, whether it is going away, and why it waits when it does.

import type { PodObject } from "./workloadSchemas";

export interface PodView {
    name: string;
    /** The pod's ordinal in its StatefulSet (the broker id), from its pod-index label or its name. */
    ordinal: number | undefined;
    phase: string;
    /** The container has started (its process runs), Ready or not. */
    started: boolean;
    /** The Ready condition is True. */
    ready: boolean;
    /** Marked for deletion (deletionTimestamp). */
    deleting: boolean;
    /** Why a container waits (ContainerCreating, ImagePullBackOff, CrashLoopBackOff, ...), when one does. */
    waiting?: { reason: string; message?: string };
}

export function podView(pod: PodObject): PodView {
    const statuses = pod.status?.containerStatuses ?? [];
    const waiting = statuses.map((status) => status.state?.waiting).find((state) => state !== undefined);
    const index = pod.metadata.labels?.["apps.kubernetes.io/pod-index"] ?? /-(\d+)$/.exec(pod.metadata.name)?.[1];
    return {
        name: pod.metadata.name,
        ordinal: index === undefined || !/^\d+$/.test(index) ? undefined : Number(index),
        phase: pod.status?.phase ?? "Unknown",
        started: statuses.length > 0 && statuses.every((status) => status.started === true || status.state?.running !== undefined),
        ready: (pod.status?.conditions ?? []).some((condition) => condition.type === "Ready" && condition.status === "True"),
        deleting: pod.metadata.deletionTimestamp !== undefined,
        ...(waiting ? { waiting: { reason: waiting.reason ?? "Waiting", ...(waiting.message ? { message: waiting.message } : {}) } } : {}),
    };
}
