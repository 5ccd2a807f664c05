// What each step of a soak declares and what goes wrong during it, drawn from a seeded random source: a layout within
// the rules (broker count 1–6, partitions only growing, a replication factor within the brokers, claims of removed
// brokers kept or deleted), now and then one the README says is refused, or the force removal of a broker whose pod
// crashed for good; and at most one fault.

import type { ScaleWriteFault } from "../emulator/workloadApi";
import { Random } from "./random";

/** The layout a step's program declares. */
export interface SoakLayout {
    brokerCount: number;
    partitionCount: number;
    replicationFactor: number;
    volumes: "retain" | "delete";
    force: boolean;
}

export type Fault =
    /** The up is killed (SIGKILL of the engine's processes) a moment after it reached this phase. */
    | { kind: "kill"; at: "podsStart" | "changeRuns" | "podsStop"; afterMs: number }
    /** A pod is deleted, or its container restarts, while the up waits (for pods, or for the change). */
    | { kind: "podDeleted" | "containerRestart"; ordinal: number }
    /** The StatefulSet's /scale write answers 503, resets, or answers 503 after setting the replicas. */
    | { kind: "scaleWrite"; answer: ScaleWriteFault }
    /** The layout request answers 5xx or resets, before or after the cluster accepted it. */
    | { kind: "layoutRequest"; answer: 502 | 503 | 504 | "reset"; afterProcessing: boolean }
    /** The change's operations take longer than the up's timeoutSeconds. */
    | { kind: "slowOperations" };

export interface SoakStep {
    index: number;
    layout: SoakLayout;
    /** Why the layout is refused (the README says so): the up must fail before anything is sent. */
    refused?: string;
    /** The broker whose pod crashes for good before the up (the one a force removal removes). */
    crash?: number;
    fault?: Fault;
    /** A refresh between the faulted up and the one that resumes it. */
    refreshBetween: boolean;
    /** How many replicas below the replication factor a partition may run after the step (force removals move none). */
    shortfall: number;
}

/** The layout the cluster has (and the stack declared last). */
export interface SoakModel {
    brokers: number;
    partitions: number;
    replicationFactor: number;
    /** Replicas a partition may lack after force removals (0 once an up without force has run). */
    shortfall: number;
}

const MAX_BROKERS = 6;
const MAX_PARTITIONS = 8;
const MAX_REPLICATION = 3;

export function nextStep(random: Random, model: SoakModel, index: number): SoakStep {
    const volumes: SoakLayout["volumes"] = random.chance(0.5) ? "retain" : "delete";
    const refreshBetween = random.chance(0.15);
    if (random.chance(0.1)) {
        const fewerPartitions = model.partitions > 1 && random.chance(0.5);
        const layout: SoakLayout = fewerPartitions
            ? { brokerCount: model.brokers, partitionCount: model.partitions - 1, replicationFactor: model.replicationFactor, volumes, force: false }
            : { brokerCount: model.brokers, partitionCount: model.partitions, replicationFactor: model.brokers + 1, volumes, force: false };
        const refused = fewerPartitions ? "partitions can only grow" : "replicationFactor above the number of brokers";
        return { index, layout, refused, refreshBetween: false, shortfall: model.shortfall };
    }
    // A force removal leaves a partition whose only replica was on the removed broker with none: the cluster refuses
    // it, and the broker stays down for good. So only while every partition has a second replica.
    if (model.brokers >= 2 && model.replicationFactor - model.shortfall >= 2 && random.chance(0.1)) {
        const brokers = model.brokers - 1;
        const layout: SoakLayout = {
            brokerCount: brokers,
            partitionCount: model.partitions,
            replicationFactor: Math.min(model.replicationFactor, brokers),
            volumes,
            force: true,
        };
        return { index, layout, crash: brokers, refreshBetween, shortfall: model.shortfall + 1 };
    }
    const brokerCount = random.int(1, MAX_BROKERS);
    const partitionCount = Math.min(MAX_PARTITIONS, model.partitions + (random.chance(0.3) ? random.int(1, 2) : 0));
    const replicationFactor = random.int(1, Math.min(brokerCount, MAX_REPLICATION));
    const layout: SoakLayout = { brokerCount, partitionCount, replicationFactor, volumes, force: false };
    return { index, layout, fault: random.chance(0.6) ? faultFor(random, model, layout) : undefined, refreshBetween, shortfall: 0 };
}

function faultFor(random: Random, model: SoakModel, layout: SoakLayout): Fault | undefined {
    const grows = layout.brokerCount > model.brokers;
    const shrinks = layout.brokerCount < model.brokers;
    const changes = grows || shrinks || layout.partitionCount !== model.partitions || layout.replicationFactor !== model.replicationFactor;
    const candidates: (() => Fault | undefined)[] = [
        () => {
            const phases = [...(grows ? ["podsStart" as const] : []), ...(changes ? ["changeRuns" as const] : []), ...(shrinks ? ["podsStop" as const] : [])];
            return phases.length === 0 ? undefined : { kind: "kill", at: random.pick(phases), afterMs: random.int(0, 300) };
        },
        () => ({ kind: random.pick(["podDeleted", "containerRestart"] as const), ordinal: random.int(0, Math.min(model.brokers, layout.brokerCount) - 1) }),
        () => (grows || shrinks ? { kind: "scaleWrite", answer: random.pick(["503", "reset", "503-after-applying"] as const) } : undefined),
        () => (changes ? { kind: "layoutRequest", answer: random.pick([502, 503, 504, "reset"] as const), afterProcessing: random.chance(0.5) } : undefined),
        () => (changes ? { kind: "slowOperations" } : undefined),
    ];
    return random.pick(candidates)();
}
