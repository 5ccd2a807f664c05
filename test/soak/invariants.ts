// What must hold after every step of a soak, whatever was killed or failed on the way: the cluster has the declared
// layout and no change pending, the StatefulSet runs exactly the member brokers, no broker was stopped while it held
// replicas, at most one layout change was accepted for the step's intent, the stack's outputs are the cluster, a
// preview right after has nothing to do and sends nothing, and the claims of removed brokers went exactly as
// volumesOfRemovedBrokers says.

import type { ClusterState } from "../../sdk/schemas";
import type { ScaleRun } from "../provider/clusterScaleSupport";
import { mutating, requestLine } from "../support/requestLog";
import type { SoakLayout } from "./steps";
import type { WorkloadView } from "./world";

export interface StepObservation {
    layout: SoakLayout;
    /** How many replicas below the replication factor a partition may run (after force removals). */
    shortfall: number;
    cluster: ClusterState;
    workload: WorkloadView;
    /** Replicas of brokers stopped while they held them, since the soak began. */
    lost: number;
    /** Layout changes the cluster accepted during the step. */
    acceptedChanges: number;
    /** The last up of the step (the one that resumed, if any). */
    finalUp: ScaleRun;
    /** The preview right after it, and the writes it made to the StatefulSet. */
    preview: ScaleRun;
    previewScaleWrites: number;
    /** The claims expected: those of the member ordinals, and of removed ones where volumes are retained. */
    expectedClaims: string[];
}

/** The invariants that do not hold, in words; none when all do. */
export function brokenInvariants(observed: StepObservation): string[] {
    const { layout, cluster, workload } = observed;
    const broken: string[] = [];
    const check = (holds: boolean, what: string) => {
        if (!holds) broken.push(what);
    };
    check(observed.finalUp.result.exitCode === 0, `the final up failed: ${observed.finalUp.result.errors.join("; ")}`);
    const members = cluster.brokers.filter((broker) => broker.state !== "LEFT");
    const memberIds = members.map((broker) => broker.id).sort((a, b) => a - b);
    const expected = Array.from({ length: layout.brokerCount }, (_, i) => i);
    check(memberIds.join() === expected.join(), `the cluster's members are ${memberIds.join(", ")}, the program declares ${expected.join(", ")}`);
    const replicas = new Map<number, number>();
    for (const broker of members) for (const partition of broker.partitions) replicas.set(partition.id, (replicas.get(partition.id) ?? 0) + 1);
    check(replicas.size === layout.partitionCount, `the cluster has ${replicas.size} partitions, the program declares ${layout.partitionCount}`);
    const least = Math.min(...replicas.values());
    const most = Math.max(...replicas.values());
    // A force removal does not move the removed broker's replicas: its partitions run with fewer until an up without force.
    const replicationHolds = least >= layout.replicationFactor - observed.shortfall && most <= layout.replicationFactor;
    check(replicationHolds, `partitions have ${least} to ${most} replicas, the program declares ${layout.replicationFactor}`);
    check(cluster.pendingChange === undefined, `change ${cluster.pendingChange?.id} is still pending`);
    check(workload.replicas === layout.brokerCount, `the StatefulSet has ${workload.replicas} replicas for ${layout.brokerCount} brokers`);
    check(workload.running.join() === memberIds.join(), `pods ${workload.running.join(", ")} run for members ${memberIds.join(", ")}`);
    check(observed.lost === 0, `${observed.lost} replicas were held by brokers that were stopped`);
    check(observed.acceptedChanges <= 1, `${observed.acceptedChanges} layout changes were accepted for one intent`);
    broken.push(...outputsBroken(observed.finalUp, cluster, memberIds, replicas.size, least));
    const previewOp = observed.preview.result.steps.find((step) => step.name === "cluster")?.op;
    check(
        observed.preview.result.exitCode === 0 && previewOp === "same",
        `the preview right after says ${previewOp ?? "nothing"} (exit ${observed.preview.result.exitCode})`,
    );
    const sent = mutating(observed.preview.requests).map(requestLine);
    check(
        sent.length === 0 && observed.previewScaleWrites === 0,
        `the preview right after sent ${[...sent, `${observed.previewScaleWrites} scale writes`].join(", ")}`,
    );
    check(
        workload.claims.join() === [...observed.expectedClaims].sort().join(),
        `claims ${workload.claims.join(", ")}; expected ${[...observed.expectedClaims].sort().join(", ")}`,
    );
    return broken;
}

/** The state's outputs equal the cluster: members, partitions, replication factor, last change (and not in flight). */
function outputsBroken(run: ScaleRun, cluster: ClusterState, members: number[], partitions: number, replicationFactor: number): string[] {
    const outputs = run.resource?.outputs as
        | {
              topology?: { id: number; state: string }[];
              partitionCount?: number;
              replicationFactor?: number;
              changeId?: number;
              lastChange?: { id: number; status: string };
          }
        | undefined;
    if (outputs === undefined) return ["the stack has no ClusterScale after the final up"];
    const broken: string[] = [];
    const recorded = (outputs.topology ?? [])
        .filter((broker) => broker.state !== "LEFT")
        .map((broker) => broker.id)
        .sort((a, b) => a - b);
    if (recorded.join() !== members.join()) broken.push(`the outputs record members ${recorded.join(", ")}, the cluster has ${members.join(", ")}`);
    if (outputs.partitionCount !== partitions) broken.push(`the outputs record ${outputs.partitionCount} partitions, the cluster has ${partitions}`);
    if (outputs.replicationFactor !== replicationFactor)
        broken.push(`the outputs record replication factor ${outputs.replicationFactor}, the cluster has ${replicationFactor}`);
    const lastChange = cluster.lastChange?.id ?? 0;
    if ((outputs.changeId ?? 0) !== lastChange) broken.push(`the outputs record change ${outputs.changeId}, the cluster's last is ${lastChange}`);
    if (outputs.lastChange?.status === "IN_PROGRESS") broken.push(`the outputs record change ${outputs.lastChange.id} as in progress`);
    return broken;
}
