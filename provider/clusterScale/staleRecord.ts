// What the outputs record that the cluster no longer shows. An up killed after its change was accepted leaves the
// layout from before the change in the state; when that change completes before the next up, the next up finds an
// empty plan. Without this comparison it would keep the old record for good (and a later program that leaves
// replicationFactor out would ask for the old one again). Compared: the members, the partition count, the replication
// factor, the one the program intends, and where each replica is and its priority.

import type { BrokerState } from "../../sdk/schemas";
import type { DesiredLayout } from "./inputs";
import type { ClusterScaleOutputs } from "./outputs";
import { liveReplicationFactor, snapshotOf } from "./request";

/** The differences in words (`partitions 3 → 5`), none when the record agrees with the cluster or records nothing. */
export function staleRecord(olds: Partial<ClusterScaleOutputs>, live: readonly BrokerState[], desired: DesiredLayout): string[] {
    if (!Array.isArray(olds.topology) || olds.topology.length === 0 || live.length === 0) return [];
    const recorded = snapshotOf(olds.topology);
    const now = snapshotOf(live);
    const differences: string[] = [];
    if (recorded.members.join() !== now.members.join()) differences.push(`brokers ${recorded.members.join(", ")} → ${now.members.join(", ")}`);
    if (recorded.partitionCount !== now.partitionCount) differences.push(`partitions ${recorded.partitionCount} → ${now.partitionCount}`);
    const replicationFactor = liveReplicationFactor(live);
    if (olds.replicationFactor !== undefined && olds.replicationFactor !== replicationFactor)
        differences.push(`replication factor ${olds.replicationFactor} → ${replicationFactor}`);
    const intended = desired.replicationFactor;
    if (intended !== undefined && olds.intendedReplicationFactor !== undefined && olds.intendedReplicationFactor !== intended) {
        differences.push(`intended replication factor ${olds.intendedReplicationFactor} → ${intended}`);
    }
    if (differences.length === 0 && placement(olds.topology) !== placement(live)) differences.push("replica placement or priorities");
    return differences;
}

/** Where each replica is and its priority, member brokers only. */
function placement(brokers: readonly { id: number; state: string; partitions: readonly { id: number; priority: number }[] }[]): string {
    return JSON.stringify(
        brokers
            .filter((broker) => broker.state !== "LEFT")
            .map((broker) => [broker.id, [...broker.partitions].sort((a, b) => a.id - b.id).map((partition) => [partition.id, partition.priority])])
            .sort((a, b) => (a[0] as number) - (b[0] as number)),
    );
}

/** What diff says of a stale record, and update when it records the live layout. */
export function staleLine(differences: readonly string[]): string {
    return (
        `the state records another layout than the cluster has (${differences.join("; ")}): a change ended after the up that started it was ` +
        "interrupted, or was made outside the stack; up records the live layout, sending nothing"
    );
}
