// What a refresh tells about a layout: where the cluster, as the read found it, differs from what the program asks.
// Nothing is asked of the cluster (the read just did that), nothing is refused: refresh records the cluster as it is,
// and the next preview plans the program's layout again, or refuses what cannot be undone (fewer partitions).

import { brokerIdsOf } from "../shared/layoutSchema";
import type { ClusterScaleInputs } from "./inputs";
import { count } from "./messages";
import type { ClusterScaleOutputs } from "./outputs";
import { snapshotOf } from "./request";

/** The differences, one phrase each (none: the cluster has the program's layout, or a change of its own is in flight). */
export function driftOf(program: ClusterScaleInputs, live: ClusterScaleOutputs): string[] {
    if (live.lastChange?.status === "IN_PROGRESS" || !Array.isArray(live.topology)) return [];
    const members = snapshotOf(live.topology).members;
    const wanted = brokerIdsOf(program.brokers, program.brokerCount) ?? [];
    const drift: string[] = [];
    if (members.join() !== [...wanted].sort((a, b) => a - b).join()) {
        drift.push(`${members.length === 1 ? "broker" : "brokers"} ${members.join(", ")} (the program: ${wanted.join(", ")})`);
    }
    if (program.partitionCount !== undefined && program.partitionCount !== live.partitionCount) {
        drift.push(`${count(live.partitionCount, "partition")} (the program: ${program.partitionCount})`);
    }
    if (program.replicationFactor !== undefined && program.replicationFactor !== live.replicationFactor) {
        drift.push(`replication factor ${live.replicationFactor} (the program: ${program.replicationFactor})`);
    }
    return drift;
}

export function driftLine(drift: readonly string[]): string {
    return (
        `the cluster differs from the program: ${drift.join("; ")}. The state now records the cluster as it is; ` +
        "the next preview plans the program's layout again, or refuses what cannot be undone"
    );
}
