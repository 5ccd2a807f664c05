// Preview's part of a StatefulSet's brokers (kubernetes.statefulSet): which way replicas move and when (before the
// layout change, or once it completed), which pods start or stop, which claims would be deleted, a leftover claim a new
// broker would start on, another manager of spec.replicas, and the refusals up would meet before changing anything
// (decided by reconcileDecision.ts, as up decides them), and the permissions up would lack (accessCheck.ts). It only
// reads.

import { PlatformError } from "../../../sdk/errors";
import { type BrokerStatefulSet, FIELD_MANAGER } from "../../../sdk/kubernetes/brokerStatefulSet";
import type { BrokerState } from "../../../sdk/schemas";
import { type Say, subject } from "../messages";
import type { PodView } from "../../../sdk/kubernetes/podView";
import { PERMISSIONS, claimsOf, kubernetesFailure, podList, refusalText, workloadFacts } from "./statefulSetSteps";
import { decideNext, isWorkloadRefusal, replicasFor } from "../reconcileDecision";
import { ranReplicas, removedOrdinals } from "./removedOrdinals";
import { neededAccess, refuseMissingAccess } from "./accessCheck";
import { otherWritersNote } from "./replicaWriters";
import { CONTROLLER_MANAGERS, type ControllerId } from "./gitOpsControllers";
import { controllerText, readControllers } from "./gitOpsRecipes";
import { REPLICAS_ANNOTATION, REPLICAS_LEFT_TO } from "../../shared/replicasAnnotation";

export interface RolloutPreview {
    /** Steps remain besides the layout change (replicas to move, claims to delete): an update even with an empty plan. */
    pending: boolean;
}

export async function previewRollout(
    tell: Say,
    name: string,
    statefulSet: BrokerStatefulSet,
    desired: readonly number[],
    current: readonly BrokerState[],
    /**
     * volumesOfRemovedBrokers: delete; what the last up recorded of the StatefulSet (its most pods, its uid); the
     * controllers whose recipe the program says is in place.
     */
    options: { delete: boolean; recordedReplicas?: number; recordedUid?: string; gitOpsRecipes: readonly ControllerId[] },
): Promise<RolloutPreview> {
    const sts = statefulSet.ref.statefulSet;
    let view;
    let pods: PodView[];
    try {
        view = await statefulSet.read();
        ({ pods } = await statefulSet.pods(view.podSelector));
    } catch (error) {
        // Made by the same program (a chart, a StatefulSet of its own) in the run this preview is of: up creates it
        // before ClusterScale acts, when ClusterScale depends on it.
        if (view === undefined && error instanceof PlatformError && error.status === 404) {
            tell(name, options.recordedUid === undefined ? notYetCreated(sts) : goneSinceLastUp(sts, replicasFor(desired)));
            return { pending: false };
        }
        throw kubernetesFailure(name, `read StatefulSet ${sts} or its pods`, PERMISSIONS.read, error);
    }
    // Named whether or not they own spec.replicas yet: their next sync is what moves it.
    const controllers = await readControllers(statefulSet, view, options.gitOpsRecipes);
    for (const reading of controllers) tell(name, controllerText(reading, sts));
    const podNames = new Set(pods.map((pod) => pod.name));
    const members = current.filter((broker) => broker.state !== "LEFT");
    // The refusals up would meet before changing anything, decided as up decides them: a round that finds the cluster
    // idle with changes to send.
    const first = decideNext({
        round: 1,
        maxRounds: 1,
        force: false,
        desired,
        read: { ok: true, members: members.map((broker) => broker.id) },
        planned: "changes",
        unclearSends: 0,
        maxUnclearSends: 1,
        layoutApplied: false,
        workload: workloadFacts(view, pods, [], controllers),
    });
    if (isWorkloadRefusal(first)) {
        const losing =
            first.kind !== "refuseStopping"
                ? ""
                : `; partitions that would lose replicas: ${members
                      .filter((broker) => first.stopping.includes(broker.id))
                      .map((broker) => `broker ${broker.id}: ${partitionIds(broker) || "none"}`)
                      .join("; ")}`;
        throw new Error(`${subject(name)}: kubernetes.statefulSet: ${refusalText(statefulSet, view, first, options.recordedUid)}${losing}`);
    }
    const needed = replicasFor(desired);
    await refuseMissingAccess(
        name,
        statefulSet,
        neededAccess(statefulSet, view, { needed, ranReplicas: ranReplicas(options.recordedReplicas, view.replicas), deleteVolumes: options.delete }),
    );
    const leftToUs = view.annotations[REPLICAS_ANNOTATION] === REPLICAS_LEFT_TO;
    // A controller named above is not named again as a writer of the field.
    const named = new Set(controllers.map((reading) => CONTROLLER_MANAGERS[reading.id]));
    for (const manager of view.replicaManagers.filter((other) => other !== FIELD_MANAGER && !named.has(other))) {
        const line = otherManagerLine(manager, leftToUs);
        if (line !== undefined) tell(name, `StatefulSet ${sts}: ${line}`);
    }
    if (view.replicas < needed) {
        const added = range(view.replicas, needed);
        tell(
            name,
            `StatefulSet ${sts}: replicas ${view.replicas} → ${needed} before the layout change: ${podList(statefulSet, added)} start; up waits until they run`,
        );
        const leftovers = await existing(
            statefulSet,
            claimsOf(
                statefulSet,
                view,
                added.filter((ordinal) => !podNames.has(statefulSet.podName(ordinal))),
            ),
        );
        for (const claim of leftovers) {
            tell(
                name,
                `claim ${claim} exists although its pod does not: the broker would start on the data it left (delete the claim first if that is not wanted)`,
            );
        }
        return { pending: true };
    }
    // With "delete", the claims of the brokers this resource removes go: those of the pods that stop, and those an up
    // interrupted before it deleted them left. Never a claim of a pod it did not run.
    const deleteVolumes = options.delete;
    const owed = removedOrdinals(needed, ranReplicas(options.recordedReplicas, view.replicas));
    const claims = deleteVolumes ? await existing(statefulSet, claimsOf(statefulSet, view, owed)) : [];
    if (view.replicas > needed) {
        const removed = range(needed, view.replicas);
        // The StatefulSet's own retention policy deletes the claims of the pods it scales down, whatever this says.
        const volumes =
            view.whenScaled === "Delete"
                ? "the StatefulSet deletes their claims itself (persistentVolumeClaimRetentionPolicy.whenScaled: Delete)"
                : deleteVolumes
                  ? claims.length === 0
                      ? "they have no claims to delete"
                      : `${claimsText(claims)} deleted (volumesOfRemovedBrokers: delete)`
                  : `their claims are kept (volumesOfRemovedBrokers: retain)`;
        tell(
            name,
            `StatefulSet ${sts}: replicas ${view.replicas} → ${needed} once the layout change completed: ${podList(statefulSet, removed)} stop; ${volumes}${otherWritersNote(view)}`,
        );
        return { pending: true };
    }
    if (claims.length > 0) {
        tell(name, `${claimsText(claims)} deleted: their brokers were removed by an up that stopped before it deleted them (volumesOfRemovedBrokers: delete)`);
        return { pending: true };
    }
    return { pending: false };
}

function notYetCreated(sts: string): string {
    return `StatefulSet ${sts} does not exist yet: up needs it before it acts (declare ClusterScale with dependsOn on what creates it)`;
}

/** The StatefulSet the last up followed is gone (deleted, maybe with --cascade=orphan): what creating it again does. */
function goneSinceLastUp(sts: string, needed: number): string {
    return (
        `StatefulSet ${sts} no longer exists (the last up followed it): created again, it starts at the count its creator gives, ` +
        `and adopts the running pods of its name, stopping those above that count. Create it with replicas ${needed}, the layout's ` +
        `(the chart's clusterSize, or its own spec.replicas), or brokers holding partition replicas stop; up refuses to go on below it`
    );
}

function claimsText(claims: readonly string[]): string {
    return claims.length === 1 ? `claim ${claims[0]} is` : `claims ${claims.join(", ")} are`;
}

async function existing(statefulSet: BrokerStatefulSet, names: string[]): Promise<string[]> {
    if (names.length === 0) return [];
    try {
        return await statefulSet.existingClaims(names);
    } catch {
        return []; // up lists them again, and says so when it cannot
    }
}

const LEAVE_IT = "leave spec.replicas to ClusterScale (leaveBrokerReplicasToClusterScale of pulumi-platform/kubernetes; see the README's Kubernetes recipe)";

/**
 * What another writer of spec.replicas does to ClusterScale's count (measured: test/kubernetes/). Pulumi's Kubernetes
 * provider applies with a manager `pulumi-kubernetes-<id>` (server-side apply) or writes as `pulumi-kubernetes`
 * (enableServerSideApply: false); with the transform's annotation the program leaves the count alone.
 */
function otherManagerLine(manager: string, leftToClusterScale: boolean): string | undefined {
    if (manager.startsWith("pulumi-kubernetes-")) {
        if (leftToClusterScale) return undefined;
        return `spec.replicas is also applied by Pulumi's Kubernetes provider (${manager}): once ClusterScale changed the count, the program's next update of the StatefulSet fails with an apply conflict; ${LEAVE_IT}`;
    }
    if (manager === "pulumi-kubernetes") {
        if (leftToClusterScale) return undefined;
        return `spec.replicas is also written by Pulumi's Kubernetes provider without server-side apply (${manager}): the program's next update of the StatefulSet sets the count back, stopping the brokers above it; ${LEAVE_IT} before changing the layout`;
    }
    return `spec.replicas is also written by ${manager}: its next apply either sets the count back or fails with a conflict (see the README's Kubernetes recipe)`;
}

function partitionIds(broker: BrokerState): string {
    return broker.partitions
        .map((partition) => partition.id)
        .sort((a, b) => a - b)
        .join(", ");
}

function range(from: number, to: number): number[] {
    return Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
}
