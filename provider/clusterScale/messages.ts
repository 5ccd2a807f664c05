// The server's plan as lines a person reads in a preview: which brokers come and go, which partition replicas
// move where, which priorities change, which partitions are created, how many operations, and the layout the
// cluster will have. One block per plan; the first line names the resource.

import type { BrokerState, Operation, ChangePlan } from "../../sdk/schemas";
import { type ClusterState } from "../../sdk/schemas";
import { type ClusterScaleOutputs } from "./outputs";
import { liveReplicationFactor, snapshotOf } from "./request";

/** The block shown for a plan. `action` says what the plan is for, e.g. "up will apply" or "applying". */
export function planLines(resourceName: string, plan: ChangePlan, action: string): string[] {
    const operations = plan.plannedChanges;
    const lines = [`${subject(resourceName)}: ${action} ${count(operations.length, "operation")} (change ${plan.changeId})`];
    const added = idsOf(operations, "BROKER_ADD");
    if (added.length > 0) lines.push(`  brokers added: ${added.join(", ")}`);
    const { graceful, forced } = removals(operations);
    if (graceful.length > 0) lines.push(`  brokers removed: ${graceful.join(", ")}`);
    if (forced.length > 0) lines.push(`  brokers removed by force (their partitions are not moved): ${forced.join(", ")}`);
    lines.push(...partitionLines(operations, plan.currentTopology));
    const created = [...new Set(operations.filter((op) => op.operation === "PARTITION_BOOTSTRAP").map((op) => op.partitionId))];
    if (created.length > 0) lines.push(`  partitions created: ${created.join(", ")}`);
    lines.push("  expected layout, partition(priority):");
    lines.push(...layoutLines(plan.expectedTopology).map((line) => `    ${line}`));
    return lines;
}

/** One line per broker, ascending: `broker 0: 1(3) 5(1) 6(2)`. */
export function layoutLines(brokers: readonly { id: number; partitions: readonly { id: number; priority: number }[] }[]): string[] {
    return [...brokers]
        .sort((a, b) => a.id - b.id)
        .map((broker) => {
            const partitions = [...broker.partitions].sort((a, b) => a.id - b.id).map((p) => `${p.id}(${p.priority})`);
            return `broker ${broker.id}: ${partitions.length === 0 ? "no partitions" : partitions.join(" ")}`;
        });
}

/** How the resource is named in every line it prints. */
export function subject(resourceName: string): string {
    return `ClusterScale "${resourceName}"`;
}

/** `[k/n] OPERATION broker b, partition p` for the operation running now (k counts from 1). */
export function progressLine(completed: number, total: number, current: { operation: string; brokerId?: number; partitionId?: number } | undefined): string {
    if (current === undefined) return `[${completed}/${total}] done`;
    return `[${Math.min(completed + 1, total)}/${total}] ${describeOperation(current)}`;
}

export function describeOperation(operation: { operation: string; brokerId?: number; partitionId?: number }): string {
    const parts = [operation.operation];
    if (operation.brokerId !== undefined) parts.push(`broker ${operation.brokerId}`);
    if (operation.partitionId !== undefined) parts.push(`partition ${operation.partitionId}`);
    return parts.join(" ");
}

export function count(n: number, noun: string): string {
    return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

function idsOf(operations: readonly Operation[], kind: string): number[] {
    return operations.filter((op) => op.operation === kind && op.brokerId !== undefined).map((op) => op.brokerId as number);
}

/** A graceful removal names the leaving broker; a forced one names the coordinator and lists the removed broker. */
function removals(operations: readonly Operation[]): { graceful: number[]; forced: number[] } {
    const graceful: number[] = [];
    const forced: number[] = [];
    for (const op of operations) {
        if (op.operation !== "BROKER_REMOVE") continue;
        if (op.brokers.length > 0) forced.push(...op.brokers);
        else if (op.brokerId !== undefined) graceful.push(op.brokerId);
    }
    return { graceful, forced };
}

interface PartitionChanges {
    joins: { brokerId: number; priority?: number }[];
    leaves: number[];
    priorities: { brokerId: number; priority?: number }[];
    kept?: number[];
}

/** `partition 3: broker 0 → broker 4, broker 1 → broker 3; priority of broker 2: 1 → 3`, for partitions that exist now. */
function partitionLines(operations: readonly Operation[], current: readonly BrokerState[]): string[] {
    const created = new Set(operations.filter((op) => op.operation === "PARTITION_BOOTSTRAP").map((op) => op.partitionId));
    const byPartition = new Map<number, PartitionChanges>();
    const changesOf = (id: number): PartitionChanges => {
        let changes = byPartition.get(id);
        if (changes === undefined) {
            changes = { joins: [], leaves: [], priorities: [] };
            byPartition.set(id, changes);
        }
        return changes;
    };
    for (const op of operations) {
        if (op.partitionId === undefined || created.has(op.partitionId) || op.brokerId === undefined) continue;
        const changes = changesOf(op.partitionId);
        if (op.operation === "PARTITION_JOIN") changes.joins.push({ brokerId: op.brokerId, priority: op.priority });
        else if (op.operation === "PARTITION_LEAVE") changes.leaves.push(op.brokerId);
        else if (op.operation === "PARTITION_RECONFIGURE_PRIORITY") changes.priorities.push({ brokerId: op.brokerId, priority: op.priority });
        else if (op.operation === "PARTITION_FORCE_RECONFIGURE") changes.kept = [...op.brokers];
    }
    const lines: string[] = [];
    for (const [partitionId, changes] of [...byPartition].sort(([a], [b]) => a - b)) {
        const parts: string[] = [];
        const moves = Math.min(changes.joins.length, changes.leaves.length);
        for (let i = 0; i < moves; i++) parts.push(`broker ${changes.leaves[i]} → broker ${changes.joins[i].brokerId}`);
        for (const join of changes.joins.slice(moves)) parts.push(`new replica on broker ${join.brokerId}`);
        for (const leave of changes.leaves.slice(moves)) parts.push(`replica on broker ${leave} dropped`);
        for (const change of changes.priorities) {
            const before = priorityOf(current, change.brokerId, partitionId);
            parts.push(`priority of broker ${change.brokerId}: ${before ?? "?"} → ${change.priority ?? "?"}`);
        }
        if (changes.kept !== undefined) {
            const dropped = holders(current, partitionId).filter((id) => !changes.kept!.includes(id));
            if (dropped.length > 0) parts.push(`replicas kept on broker(s) ${changes.kept.join(", ")}, dropped from ${dropped.join(", ")}`);
        }
        if (parts.length > 0) lines.push(`  partition ${partitionId}: ${parts.join(", ")}`);
    }
    return lines;
}

function priorityOf(brokers: readonly BrokerState[], brokerId: number, partitionId: number): number | undefined {
    return brokers.find((b) => b.id === brokerId)?.partitions.find((p) => p.id === partitionId)?.priority;
}

function holders(brokers: readonly BrokerState[], partitionId: number): number[] {
    return brokers
        .filter((b) => b.partitions.some((p) => p.id === partitionId))
        .map((b) => b.id)
        .sort((a, b) => a - b);
}

export function pendingText(changeId: number | undefined): string {
    return changeId === undefined ? "another change" : `change ${changeId}`;
}

/** Prints a line that names the resource (provider lines reach the user unattached to any resource). */
export type Say = (resourceName: string, text: string) => void;

export const say: Say = (resourceName, text) => {
    console.log(`${subject(resourceName)}: ${text}`);
};

/** Says nothing: the lines only a preview shows, in the update that follows it. */
export const quiet: Say = () => undefined;

/** One write, so a block is never interleaved with another resource's lines. */
export function sayLines(lines: string[]): void {
    console.log(lines.join("\n"));
}

export function describeLayout(state: ClusterState): string {
    const snapshot = snapshotOf(state.brokers);
    return `${count(snapshot.members.length, "broker")}, ${count(snapshot.partitionCount, "partition")}, replication factor ${liveReplicationFactor(state.brokers)}, configuration version ${state.version}`;
}

/** What refresh and destroy say about a change this resource started that had not completed. */
export function interruptedNote(props: ClusterScaleOutputs): string {
    return `change ${props.changeId} had not completed when last applied; run up to resume waiting for it`;
}
