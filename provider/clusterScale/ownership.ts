// Whether a change the cluster shows is the one this resource started. The id alone is not enough: a rebuilt
// cluster numbers its changes anew, and another client's change can get the id this resource recorded. So when
// a change is accepted the resource records a fingerprint: a digest of its plan (compared with the operations of
// a running change) and of the layout it leads to, with each broker's version (compared with the cluster once the
// change completed: another change can reach the same layout, but not through the same updates of each broker).

import { createHash } from "crypto";
import type { ClusterState } from "../../sdk/schemas";

export interface ChangeFingerprint {
    /** Digest of the plan's operations. */
    plan: string;
    /** Digest of the layout the plan leads to (members, their partitions and priorities). */
    layout: string;
    /** Digest of each member's version when the plan completed (absent in states written before it was recorded). */
    versions?: string;
}

interface OperationLike {
    operation: string;
    brokerId?: number;
    partitionId?: number;
    priority?: number;
    brokers?: readonly number[];
}

interface BrokerLike {
    id: number;
    state: string;
    /** The broker's own counter of configuration updates. */
    version?: number;
    partitions: readonly { id: number; priority: number }[];
}

/** A change this resource knows: its id, its plan, and (for one it started) its fingerprint. */
export interface KnownChange {
    changeId: number;
    plannedChanges: OperationLike[];
    /** The plan's operation count, when plannedChanges holds only its first operations (a change read back from the state). */
    operationCount?: number;
    fingerprint?: ChangeFingerprint;
}

export function fingerprintOf(operations: readonly OperationLike[], expectedTopology: readonly BrokerLike[]): ChangeFingerprint {
    return { plan: planDigest(operations), layout: layoutDigest(expectedTopology), versions: versionsDigest(expectedTopology) };
}

/** Whether the running change with these operations is `known` (same id checked by the caller). */
export function runsKnownPlan(known: KnownChange, operations: readonly OperationLike[]): boolean {
    if (known.fingerprint !== undefined) return known.fingerprint.plan === planDigest(operations);
    // A state written before fingerprints: the recorded plan, when there is one, must match.
    return known.plannedChanges.length === 0 || planDigest(known.plannedChanges) === planDigest(operations);
}

/** Whether a completed change with `known`'s id left the cluster in `brokers` (the layout it planned, each broker at its version). */
export function leftKnownLayout(known: KnownChange, brokers: readonly BrokerLike[]): boolean {
    const fingerprint = known.fingerprint;
    if (fingerprint === undefined) return true;
    return fingerprint.layout === layoutDigest(brokers) && (fingerprint.versions === undefined || fingerprint.versions === versionsDigest(brokers));
}

function planDigest(operations: readonly OperationLike[]): string {
    const lines = operations.map((op) =>
        [op.operation, op.brokerId, op.partitionId, op.priority, [...(op.brokers ?? [])].sort((a, b) => a - b).join(" ")].join("|"),
    );
    return digest(lines.sort());
}

function layoutDigest(brokers: readonly BrokerLike[]): string {
    const lines = brokers
        .filter((broker) => broker.state !== "LEFT")
        .map(
            (broker) =>
                `${broker.id}:${[...broker.partitions]
                    .sort((a, b) => a.id - b.id)
                    .map((p) => `${p.id}(${p.priority})`)
                    .join(" ")}`,
        );
    return digest(lines.sort());
}

function versionsDigest(brokers: readonly BrokerLike[]): string {
    return digest(
        brokers
            .filter((broker) => broker.state !== "LEFT")
            .map((broker) => `${broker.id}:${broker.version ?? ""}`)
            .sort(),
    );
}

function digest(lines: string[]): string {
    return createHash("sha256").update(lines.join("\n")).digest("hex").slice(0, 16);
}

/** Known changes, less those with the cluster's last change id that did not leave the layout they planned (another cluster's). */
export function leftTheirLayout(known: readonly (KnownChange | undefined)[], state: ClusterState): KnownChange[] {
    return known.filter(
        (change): change is KnownChange => change !== undefined && (change.changeId !== state.lastChange?.id || leftKnownLayout(change, state.brokers)),
    );
}
