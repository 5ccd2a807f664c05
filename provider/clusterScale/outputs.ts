// ClusterScale's outputs: the live layout as the management API reports it, the last change, and the resolved
// settings (diff only gets old outputs, so it compares settings against these).
//
// Credentials: `auth`, when the program gives it, is also an output of the same name, because refresh and destroy
// get only the old outputs and a management API behind authentication refuses them otherwise. The engine stores
// it encrypted (the same-named input is secret, and ClusterScale lists it in additionalSecretOutputs). No output
// ever carries a token, and the partial failure of an interrupted change keeps no credential (refresh and destroy
// of such a state send nothing; the next up takes the credentials from its inputs).

import type { BrokerState, ChangeRecord as ApiChangeRecord, ClusterState, Operation } from "../../sdk/schemas";
import type { ClusterScaleInputs, ManagementAuth, ManagementTls } from "./inputs";
import type { ChangeFingerprint, KnownChange } from "./ownership";
import type { KubernetesRouteInput } from "../shared/kubernetesRouteInput";
import { liveReplicationFactor, snapshotOf } from "./request";
import type { BrokerLayout, ChangeRecord, PlannedChange } from "./types";

/**
 * Operations of the last change kept in the outputs (the state), in execution order; `plannedChangeCount` has the
 * total. A large change plans thousands of operations, and the state is written on every step of every run; the
 * full plan is printed by preview and up. Whose change it is goes by the fingerprint, which covers the whole plan.
 */
export const PLANNED_CHANGES_KEPT = 100;

/** The inputs kept in the outputs: everything but the credentials. */
export interface ClusterScaleSettings {
    resourceName: string;
    managementUrl: string;
    gatewayUrl?: string;
    basePath: string;
    brokers?: number[];
    brokerCount?: number;
    force: boolean;
    timeoutSeconds: number;
    cancelOnTimeout: boolean;
    maxBrokersRemoved?: number;
}

export interface ClusterScaleOutputs extends ClusterScaleSettings {
    changeId: number;
    topologyVersion: number;
    topology: BrokerLayout[];
    /** Live partition count. */
    partitionCount: number;
    /** Live replication factor: the smallest replica count of any partition. */
    replicationFactor: number;
    /** The replication factor every request names: the input, else the one recorded before (a force removal does not lower it). */
    intendedReplicationFactor?: number;
    /** The first PLANNED_CHANGES_KEPT operations of the last change. */
    plannedChanges: PlannedChange[];
    /** How many operations the last change had. */
    plannedChangeCount: number;
    lastChange?: ChangeRecord;
    /** Fingerprint of the change `changeId` when this resource started it (tells it from another change with the same id). */
    changeFingerprint?: ChangeFingerprint;
    /** The auth input, kept for refresh (a secret in the state). Absent when the program gave none. */
    auth?: ManagementAuth;
    /** The tls input, kept for refresh (a secret in the state: it may hold a private key). Absent when the program gave none. */
    tls?: ManagementTls;
    /**
     * With kubernetes.statefulSet: the StatefulSet's replica count as the last up left it (an up that did not complete:
     * the most pods it ran). The claims of the ordinals between it and the layout's count are those of brokers this
     * resource removed; refresh keeps it, so an up killed before it deleted them leaves them owed to the next one.
     */
    statefulSetReplicas?: number;
    /**
     * With kubernetes.statefulSet: the uid of the StatefulSet the last up followed. Another uid under the same name is
     * a StatefulSet deleted and created again since, whose count is its creator's, not the layout's.
     */
    statefulSetUid?: string;
    /** The kubernetes route, kept for refresh (a secret in the state: it may hold a kubeconfig). Absent when the program gave none. */
    kubernetes?: KubernetesRouteInput;
}

export type { KnownChange } from "./ownership";

export function settingsOf(inputs: ClusterScaleInputs | ClusterScaleSettings): ClusterScaleSettings {
    const settings: ClusterScaleSettings = {
        resourceName: inputs.resourceName,
        managementUrl: inputs.managementUrl,
        basePath: inputs.basePath,
        force: inputs.force,
        timeoutSeconds: inputs.timeoutSeconds,
        cancelOnTimeout: inputs.cancelOnTimeout,
    };
    if (inputs.gatewayUrl !== undefined) settings.gatewayUrl = inputs.gatewayUrl;
    if (inputs.brokers !== undefined) settings.brokers = [...inputs.brokers];
    if (inputs.brokerCount !== undefined) settings.brokerCount = inputs.brokerCount;
    if (inputs.maxBrokersRemoved !== undefined) settings.maxBrokersRemoved = inputs.maxBrokersRemoved;
    return settings;
}

/** The names of the settings that differ (brokers compared as sets). */
export function changedSettings(olds: Partial<ClusterScaleSettings>, news: ClusterScaleSettings): string[] {
    const changed: string[] = [];
    const scalar = ["managementUrl", "gatewayUrl", "basePath", "force", "timeoutSeconds", "cancelOnTimeout", "brokerCount", "maxBrokersRemoved"] as const;
    for (const key of scalar) if (olds[key] !== news[key]) changed.push(key);
    const sorted = (ids: number[] | undefined) => (ids === undefined ? undefined : JSON.stringify([...ids].sort((a, b) => a - b)));
    if (sorted(olds.brokers) !== sorted(news.brokers)) changed.push("brokers");
    return changed;
}

/** The outputs with the credentials and TLS settings the program gave (none: no `auth` or `tls` output at all). */
export function withCredentials(
    outputs: ClusterScaleOutputs,
    given: { auth?: ManagementAuth; tls?: ManagementTls; kubernetes?: KubernetesRouteInput },
): ClusterScaleOutputs {
    const { auth: _auth, tls: _tls, kubernetes: _kubernetes, ...rest } = outputs;
    return {
        ...rest,
        ...(given.auth === undefined ? {} : { auth: given.auth }),
        ...(given.tls === undefined ? {} : { tls: given.tls }),
        ...(given.kubernetes === undefined ? {} : { kubernetes: given.kubernetes }),
    };
}

/**
 * Outputs for the cluster as `state` shows it. `known`: changes whose plan the outputs may keep, the first with the
 * id of the cluster's last change (the caller has made sure it is that change, not one with the same id).
 */
export function outputsFrom(
    settings: ClusterScaleSettings,
    state: ClusterState,
    known: readonly (KnownChange | undefined)[],
    intendedReplicationFactor: number | undefined,
): ClusterScaleOutputs {
    const members = state.brokers.filter((broker) => broker.state !== "LEFT");
    const lastChange = state.lastChange === undefined ? undefined : changeRecord(state.lastChange);
    const changeId = state.lastChange?.id ?? 0;
    const change = known.find((candidate) => candidate !== undefined && candidate.changeId === changeId);
    const outputs: ClusterScaleOutputs = {
        ...settings,
        changeId,
        topologyVersion: state.version,
        topology: layoutOf(members),
        partitionCount: snapshotOf(members).partitionCount,
        replicationFactor: liveReplicationFactor(members),
        plannedChanges: keptPlan(change?.plannedChanges ?? []),
        plannedChangeCount: change === undefined ? 0 : (change.operationCount ?? change.plannedChanges.length),
    };
    if (intendedReplicationFactor !== undefined) outputs.intendedReplicationFactor = intendedReplicationFactor;
    if (lastChange !== undefined) outputs.lastChange = lastChange;
    if (change?.fingerprint !== undefined) outputs.changeFingerprint = change.fingerprint;
    return outputs;
}

/** Outputs while `change` has not completed: its id (so the next run waits for it instead of sending again) and plan. */
export function inFlightOutputs(
    settings: ClusterScaleSettings,
    state: ClusterState | undefined,
    change: KnownChange,
    status: string,
    intendedReplicationFactor: number | undefined,
): ClusterScaleOutputs {
    const base = state === undefined ? undefined : outputsFrom(settings, state, [], undefined);
    const outputs: ClusterScaleOutputs = {
        ...settings,
        topologyVersion: base?.topologyVersion ?? 0,
        topology: base?.topology ?? [],
        partitionCount: base?.partitionCount ?? 0,
        replicationFactor: base?.replicationFactor ?? 0,
        changeId: change.changeId,
        plannedChanges: keptPlan(change.plannedChanges),
        plannedChangeCount: change.operationCount ?? change.plannedChanges.length,
        lastChange: { id: change.changeId, status },
    };
    if (intendedReplicationFactor !== undefined) outputs.intendedReplicationFactor = intendedReplicationFactor;
    if (change.fingerprint !== undefined) outputs.changeFingerprint = change.fingerprint;
    return outputs;
}

function keptPlan(operations: KnownChange["plannedChanges"]): PlannedChange[] {
    return operations.slice(0, PLANNED_CHANGES_KEPT).map(plannedChangeOf);
}

function plannedChangeOf(op: KnownChange["plannedChanges"][number]): PlannedChange {
    const change: PlannedChange = { operation: op.operation };
    if (op.brokerId !== undefined) change.brokerId = op.brokerId;
    if (op.partitionId !== undefined) change.partitionId = op.partitionId;
    if (op.priority !== undefined) change.priority = op.priority;
    if (op.brokers !== undefined && op.brokers.length > 0) change.brokers = [...op.brokers];
    return change;
}

export function layoutOf(brokers: readonly BrokerState[]): BrokerLayout[] {
    return [...brokers]
        .sort((a, b) => a.id - b.id)
        .map((broker) => ({
            id: broker.id,
            state: broker.state,
            partitions: [...broker.partitions]
                .sort((a, b) => a.id - b.id)
                .map((partition) => ({ id: partition.id, priority: partition.priority, state: partition.state })),
        }));
}

export function plannedChangesOf(operations: readonly Operation[]): PlannedChange[] {
    return operations.map(plannedChangeOf);
}

function changeRecord(record: ApiChangeRecord): ChangeRecord {
    const result: ChangeRecord = { id: record.id, status: record.status };
    if (record.startedAt.raw !== null) result.startedAt = record.startedAt.raw;
    if (record.completedAt.raw !== null) result.completedAt = record.completedAt.raw;
    return result;
}

/** The last change as the old outputs record it (its plan cut to its first operations). */
export function recordedChange(olds: ClusterScaleOutputs): KnownChange {
    return { changeId: olds.changeId, plannedChanges: olds.plannedChanges ?? [], operationCount: olds.plannedChangeCount, fingerprint: olds.changeFingerprint };
}
