// Which brokers run, as the gateway's topology lists them (the brokers that gossip, not the configuration). A force
// removal of a running broker drops replicas for nothing, and a change without force stalls forever on a broker
// that is down, so both are refused before anything is sent. Without a gateway, liveness cannot be checked.
// The replicas the gateway reports as not healthy (unhealthy: not installed yet, or its partition lost its quorum;
// dead: the partition failed on that broker) are named in a note: a change that moves them may wait for them.

import type { GatewayClient } from "../../sdk/cluster/gatewayClient";
import { messageOf } from "../shared/messageOf";
import type { DesiredLayout } from "./inputs";
import { type LiveSnapshot, removedBrokers } from "./request";

/** A replica the gateway reports as other than healthy. Roles (leader, follower, inactive) decide nothing here. */
interface ReplicaHealth {
    brokerId: number;
    partitionId: number;
    health: string;
}

export type Liveness = { known: true; running: ReadonlySet<number>; notHealthy: ReplicaHealth[] } | { known: false; reason: string };

/** A look at which brokers run must never hold up a preview or an up for long. */
const LIVENESS_TIMEOUT_MS = 10_000;

/** One GET of the gateway's topology, never retried (a preview must not hang on it). */
export async function readLiveness(gateway: GatewayClient | undefined, timeoutMs: number): Promise<Liveness> {
    if (gateway === undefined) return { known: false, reason: "no gatewayUrl is set" };
    try {
        const topology = await gateway.getTopology({ retry: false, timeoutMs });
        const notHealthy = topology.brokers.flatMap((broker) =>
            broker.partitions
                .filter((partition) => partition.health !== "healthy")
                .map((partition) => ({ brokerId: broker.nodeId, partitionId: partition.partitionId, health: partition.health })),
        );
        return { known: true, running: new Set(topology.brokers.map((broker) => broker.nodeId)), notHealthy };
    } catch (error) {
        return { known: false, reason: `the gateway did not answer: ${messageOf(error)}` };
    }
}

/** What the running brokers say of a change: preview tells it, up acts on it right before sending. */
export interface LivenessVerdict {
    /** The replicas that are not healthy. */
    health?: string;
    /** Why the change must not be sent, under the input it concerns. */
    refusal?: { property: "force" | "brokers"; reason: string };
    /** A force removal whose brokers could not be checked. */
    unchecked?: string;
    /** New brokers of a change without force that do not run yet. */
    notStarted?: string;
}

/** One look at the gateway for a change from `live` to `desired`: with force, whether the removed brokers run; without, whether the brokers it needs do. */
export async function judgeLiveness(desired: DesiredLayout, live: LiveSnapshot, gateway: GatewayClient | undefined): Promise<LivenessVerdict> {
    const liveness = await readLiveness(gateway, LIVENESS_TIMEOUT_MS);
    const health = healthNote(liveness);
    if (desired.force) {
        const removed = removedBrokers(desired, live);
        const refusal = forceRemovalRefusal(removed, liveness);
        if (refusal !== undefined) return { health, refusal: { property: "force", reason: refusal } };
        return { health, unchecked: !liveness.known && removed.length > 0 ? uncheckedForceRemoval(removed, liveness.reason) : undefined };
    }
    const state = availability(live.members, desired.brokers, liveness);
    const refusal = downRefusal(state);
    return { health, refusal: refusal === undefined ? undefined : { property: "brokers", reason: refusal }, notStarted: notStartedNote(state) };
}

/** Why a force removal of `removed` must not go ahead: some of them run. */
function forceRemovalRefusal(removed: readonly number[], liveness: Liveness): string | undefined {
    if (!liveness.known) return undefined;
    const running = removed.filter((id) => liveness.running.has(id));
    if (running.length === 0) return undefined;
    return (
        `${brokers(running)} ${running.length === 1 ? "is" : "are"} running (the gateway lists ${running.length === 1 ? "it" : "them"}): ` +
        "force removal is for brokers that are gone, and would drop their replicas; remove them without force (set force to false), " +
        "which moves their partitions away first"
    );
}

/** The line a preview prints when it cannot tell whether the brokers a force removal drops are stopped. */
function uncheckedForceRemoval(removed: readonly number[], reason: string): string {
    return `could not check that ${brokers(removed)} ${removed.length === 1 ? "is" : "are"} stopped (${reason}); a force removal of a running broker drops its replicas`;
}

interface Availability {
    /** Current members that the change keeps and that do not run. */
    downKept: number[];
    /** Current members that the change removes gracefully and that do not run. */
    downRemoved: number[];
    /** Brokers the change adds that do not run yet. */
    notStarted: number[];
}

/** For a change without force, which needs every broker up: who is down, and which new brokers have not started. */
function availability(members: readonly number[], target: readonly number[], liveness: Liveness): Availability | undefined {
    if (!liveness.known) return undefined;
    const down = members.filter((id) => !liveness.running.has(id));
    return {
        downKept: down.filter((id) => target.includes(id)),
        downRemoved: down.filter((id) => !target.includes(id)),
        notStarted: target.filter((id) => !members.includes(id) && !liveness.running.has(id)),
    };
}

/** Why a change without force cannot go ahead; undefined when every broker it needs now is up. */
function downRefusal(state: Availability | undefined): string | undefined {
    if (state === undefined) return undefined;
    const reasons: string[] = [];
    if (state.downKept.length > 0) {
        reasons.push(
            `${brokers(state.downKept)} ${state.downKept.length === 1 ? "is" : "are"} down (the gateway does not list ${state.downKept.length === 1 ? "it" : "them"}): a change without force needs every broker up; start ${state.downKept.length === 1 ? "it" : "them"} again, or remove ${state.downKept.length === 1 ? "it" : "them"} with force: true if gone for good`,
        );
    }
    if (state.downRemoved.length > 0) {
        reasons.push(
            `${brokers(state.downRemoved)}, which this change removes, ${state.downRemoved.length === 1 ? "is" : "are"} down: a removal without force needs the broker up to move its partitions away; remove ${state.downRemoved.length === 1 ? "it" : "them"} with force: true instead`,
        );
    }
    return reasons.length === 0 ? undefined : reasons.join("; ");
}

/** The line for new brokers that have not started: the change waits for them. */
function notStartedNote(state: Availability | undefined): string | undefined {
    if (state === undefined || state.notStarted.length === 0) return undefined;
    return `new ${brokers(state.notStarted)} ${state.notStarted.length === 1 ? "is" : "are"} not running yet: the change waits for ${state.notStarted.length === 1 ? "it" : "them"} to start (it stays at BROKER_ADD until then)`;
}

/** The line naming the replicas that are not healthy, by health and partition; undefined when all are. */
export function healthNote(liveness: Liveness): string | undefined {
    if (!liveness.known || liveness.notHealthy.length === 0) return undefined;
    const byHealth = new Map<string, Map<number, number[]>>();
    for (const { brokerId, partitionId, health } of liveness.notHealthy) {
        const partitions = byHealth.get(health) ?? new Map<number, number[]>();
        partitions.set(partitionId, [...(partitions.get(partitionId) ?? []), brokerId]);
        byHealth.set(health, partitions);
    }
    const parts = [...byHealth].flatMap(([health, partitions]) =>
        [...partitions]
            .sort(([a], [b]) => a - b)
            .map(([partitionId, ids]) => `partition ${partitionId} on ${brokers([...ids].sort((a, b) => a - b))} (${health})`),
    );
    return `the gateway reports replicas that are not healthy: ${parts.join(", ")}; a change that moves them may wait for them`;
}

function brokers(ids: readonly number[]): string {
    return `${ids.length === 1 ? "broker" : "brokers"} ${ids.join(", ")}`;
}
