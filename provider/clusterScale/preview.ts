// What preview shows: the plan of a resource not in the state yet (check prints it, as diff does for the others),
// what a plan needs of the running brokers, the partitions that run below the intended replication factor, and
// the rules of a preview that cannot reach the cluster.

import { previewRollout } from "./kubernetes/statefulSetPreview";
import { type GatewayClient } from "../../sdk/cluster/gatewayClient";
import { type Clients } from "./clients";
import { type ClusterScaleInputs, type DesiredLayout, desiredLayout } from "./inputs";
import { judgeLiveness } from "./liveness";
import { type Say, count, layoutLines, pendingText, planLines, say, sayLines, subject } from "./messages";
import { type ClusterScaleOutputs } from "./outputs";
import { underReplicated } from "./replicas";
import { type LiveSnapshot, type Planned, intendedReplicationFactor, planChange } from "./request";
import { messageOf } from "../shared/messageOf";

/** Preview must never hang: one attempt per request, short time limit. */
export const PREVIEW_TIMEOUT_MS = 10_000;

/** The first preview of a resource not in state: the one dry run create would send, printed as a plan. */
export async function previewNew(inputs: ClusterScaleInputs, openClients: () => Promise<Clients>): Promise<{ property: string; reason: string } | undefined> {
    const name = inputs.resourceName;
    let clients: Clients;
    try {
        clients = await openClients();
    } catch (error) {
        return { property: "kubernetes", reason: messageOf(error).replace(`${subject(name)}: kubernetes: `, "") };
    }
    const { cluster, gateway, statefulSet } = clients;
    const desired = desiredLayout(inputs);
    const outcome = await planChange(cluster, desired, undefined, { retry: false });
    switch (outcome.kind) {
        case "rejected":
            return { property: outcome.property, reason: outcome.reason };
        case "busy":
            say(name, `${pendingText(outcome.pendingChangeId)} is in progress; up will wait for it, then plan and apply this layout`);
            return undefined;
        case "unreachable":
            if (previewRequiresCluster()) return { property: "managementUrl", reason: requiredClusterReason(outcome.reason) };
            say(name, `the plan could not be computed: cannot reach the management API (${outcome.reason})`);
            return undefined;
        case "planned": {
            if (outcome.empty) {
                sayLines([
                    `${subject(name)}: the cluster already has this layout; up will record it without sending a change`,
                    ...layoutLines(outcome.plan.currentTopology).map((line) => `  ${line}`),
                ]);
            } else {
                const refusal = await previewLiveness(say, name, desired, outcome, gateway, statefulSet !== undefined);
                if (refusal !== undefined) return { property: "force", reason: refusal };
                sayLines(planLines(name, outcome.plan, "up will apply"));
            }
            const shortfall = shortfallLine(desired, outcome);
            if (shortfall !== undefined) say(name, shortfall);
            if (statefulSet !== undefined) {
                const deleteVolumes = inputs.kubernetes?.volumesOfRemovedBrokers === "delete";
                try {
                    await previewRollout(say, name, statefulSet, desired.brokers, outcome.plan.currentTopology, {
                        delete: deleteVolumes,
                        gitOpsRecipes: inputs.kubernetes?.gitOpsRecipes ?? [],
                    });
                } catch (error) {
                    return { property: "kubernetes", reason: messageOf(error).replace(`${subject(name)}: `, "") };
                }
            }
            return undefined;
        }
    }
}

/**
 * Preview's look at which brokers run, for a plan that changes something: the refusal of a force removal of a
 * running broker; for a change without force, the lines saying which brokers it needs are down or not started. With
 * the brokers' StatefulSet (`startsPods`) up starts the new brokers itself before the change: its own line says so.
 */
export async function previewLiveness(
    tell: Say,
    name: string,
    desired: DesiredLayout,
    outcome: Planned,
    gateway: GatewayClient | undefined,
    startsPods: boolean,
): Promise<string | undefined> {
    const verdict = await judgeLiveness(desired, outcome.live, gateway);
    if (verdict.health !== undefined) tell(name, verdict.health);
    if (verdict.refusal?.property === "force") return verdict.refusal.reason;
    if (verdict.refusal !== undefined) tell(name, `up will refuse this change until every broker it needs runs: ${verdict.refusal.reason}`);
    if (verdict.unchecked !== undefined) tell(name, verdict.unchecked);
    if (verdict.notStarted !== undefined && !startsPods) tell(name, verdict.notStarted);
    return undefined;
}

/** The line about partitions that run below the intended replication factor (after a force removal), if any do. */
export function shortfallLine(desired: DesiredLayout, outcome: Planned): string | undefined {
    const intended = intendedReplicationFactor(desired, outcome.live);
    const shortfall = underReplicated(outcome.plan.currentTopology, intended);
    if (shortfall === undefined) return undefined;
    const which = `${shortfall.partitions.length === 1 ? "partition" : "partitions"} ${shortfall.partitions.join(", ")}`;
    const what = `${which} ${shortfall.partitions.length === 1 ? "runs" : "run"} with ${count(shortfall.fewest, "replica")}, below the intended replication factor ${intended}`;
    if (desired.force) return `${what}: set force back to false and up restores them`;
    return outcome.empty ? what : `${what}; this change restores them`;
}

/** PLATFORM_PREVIEW_REQUIRE_CLUSTER: a preview (a pull request's) must show the cluster's own plan or fail. */
export function previewRequiresCluster(): boolean {
    return ["true", "1", "yes"].includes((process.env.PLATFORM_PREVIEW_REQUIRE_CLUSTER ?? "").trim().toLowerCase());
}

export function requiredClusterReason(reason: string): string {
    return `cannot reach the management API (${reason}), and PLATFORM_PREVIEW_REQUIRE_CLUSTER asks for the cluster's own plan: no preview without it`;
}

export function differsFromRecorded(desired: DesiredLayout, olds: ClusterScaleOutputs, recorded: LiveSnapshot): boolean {
    if (JSON.stringify(desired.brokers) !== JSON.stringify(recorded.members)) return true;
    if (desired.partitionCount !== undefined && desired.partitionCount !== recorded.partitionCount) return true;
    return desired.replicationFactor !== undefined && desired.replicationFactor !== olds.replicationFactor;
}
