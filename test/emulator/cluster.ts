// The emulated cluster: its configuration, which brokers are running, and the life cycle of a
// change (start, completion, cancellation) with the reference's version arithmetic:
//   start:      version + 1, change id = the new version
//   completion: version + 1, lastChange COMPLETED, LEFT members dropped
//   cancel:     version + 2, lastChange CANCELLED, nothing cleaned up
//   dry run:    change id = version + 1, nothing stored
//   empty plan: change id = lastChange.id or 0, nothing stored (even while a change is pending)

import { ClusterConfiguration, InitialLayout, Operation, cloneConfiguration, initialConfiguration } from "./clusterState";
import { ChangeExecutor, ExecutionHost } from "./executor";
import { dropLeftMembers } from "./operationEffects";
import type { PartitionHealth } from "./gatewayApi";
import { PlanError, simulatePlan } from "./planner";

export interface AcceptedChange {
    changeId: number;
    current: ClusterConfiguration;
    operations: Operation[];
    expected: ClusterConfiguration;
}

export type SubmitOutcome = { accepted: AcceptedChange } | { error: PlanError | { status: 409; message: string } };

export type CancelOutcome = { cancelled: ClusterConfiguration } | { error: { status: 400; message: string } };

export class Cluster implements ExecutionHost {
    config: ClusterConfiguration;
    /** Why the pending change cannot progress, when an operation failed at run time. */
    stuckReason: string | undefined;
    private running = new Set<number>();
    private readonly executor = new ChangeExecutor(this);
    /** Health the control API set for a replica (`broker/partition`), as a partition that failed on that broker reports it. */
    private readonly healthOverrides = new Map<string, PartitionHealth>();
    /** Called whenever an operation completes or a change ends: the Kubernetes stand-in's pods follow their brokers. */
    private readonly listeners = new Set<() => void>();
    /** Changes accepted since the last reset (whatever their answer then became, a fault's included). */
    acceptedChanges = 0;

    constructor(
        layout: InitialLayout,
        running: Iterable<number>,
        private readonly currentOperationMs: () => number,
    ) {
        this.config = initialConfiguration(layout);
        this.running = new Set(running);
    }

    reset(layout: InitialLayout, running: Iterable<number>): void {
        this.executor.abandon();
        this.config = initialConfiguration(layout);
        this.running = new Set(running);
        this.stuckReason = undefined;
        this.healthOverrides.clear();
        this.acceptedChanges = 0;
    }

    close(): void {
        this.executor.close();
    }

    /** Calls `listener` after every operation that completed and every change that was cancelled; returns its removal. */
    onChange(listener: () => void): () => void {
        this.listeners.add(listener);
        return () => this.listeners.delete(listener);
    }

    configurationChanged(): void {
        for (const listener of this.listeners) listener();
    }

    operationMs(): number {
        return this.currentOperationMs();
    }

    isRunning(brokerId: number): boolean {
        return this.running.has(brokerId);
    }

    partitionHealth(brokerId: number, partitionId: number): PartitionHealth | undefined {
        return this.healthOverrides.get(`${brokerId}/${partitionId}`);
    }

    /** Marks a replica's health as the gateway reports it (undefined: as the cluster's state says). */
    setPartitionHealth(brokerId: number, partitionId: number, health: PartitionHealth | undefined): void {
        if (health === undefined) this.healthOverrides.delete(`${brokerId}/${partitionId}`);
        else this.healthOverrides.set(`${brokerId}/${partitionId}`, health);
    }

    runningBrokers(): number[] {
        return [...this.running].sort((a, b) => a - b);
    }

    startBroker(brokerId: number): void {
        this.running.add(brokerId);
        this.executor.kick();
    }

    stopBroker(brokerId: number): void {
        this.running.delete(brokerId);
        this.executor.brokerStopped(brokerId);
    }

    /** Accepts, dry-runs or rejects a planned change, as the reference's coordinator does. */
    submit(operations: Operation[], dryRun: boolean, now = Date.now()): SubmitOutcome {
        if (operations.length === 0) {
            const unchanged = cloneConfiguration(this.config);
            return {
                accepted: { changeId: this.config.lastChange?.id ?? 0, current: unchanged, operations: [], expected: unchanged },
            };
        }
        if (this.config.pendingChange) {
            return {
                error: {
                    status: 409,
                    message: `Cannot apply configuration change. Another configuration change [${describeConfiguration(this.config)}] is in progress.`,
                },
            };
        }
        const simulation = simulatePlan(this.config, operations, now);
        if ("error" in simulation) return simulation;
        const current = cloneConfiguration(this.config);
        if (dryRun) {
            return { accepted: { changeId: this.config.version + 1, current, operations, expected: simulation.expected } };
        }
        this.config.version += 1;
        this.acceptedChanges += 1;
        this.config.pendingChange = { id: this.config.version, startedAt: now, completed: [], pending: [...operations] };
        this.stuckReason = undefined;
        this.executor.kick();
        return { accepted: { changeId: this.config.version, current, operations, expected: simulation.expected } };
    }

    cancel(changeId: number, now = Date.now()): CancelOutcome {
        const plan = this.config.pendingChange;
        if (!plan) {
            return { error: { status: 400, message: `Cannot cancel change ${changeId} because no change is in progress` } };
        }
        if (plan.id !== changeId) {
            return { error: { status: 400, message: `Cannot cancel change ${changeId} because it is not the current change` } };
        }
        this.executor.abandon();
        this.config.version += 2;
        this.config.pendingChange = undefined;
        this.config.lastChange = { id: plan.id, status: "CANCELLED", startedAt: plan.startedAt, completedAt: now };
        this.stuckReason = undefined;
        this.configurationChanged();
        return { cancelled: cloneConfiguration(this.config) };
    }

    completeChange(now: number): void {
        const plan = this.config.pendingChange;
        if (!plan) return;
        this.config.version += 1;
        this.config.pendingChange = undefined;
        this.config.lastChange = { id: plan.id, status: "COMPLETED", startedAt: plan.startedAt, completedAt: now };
        dropLeftMembers(this.config);
    }

    reportStuck(reason: string): void {
        this.stuckReason = reason;
    }
}

/** A Java-record-like dump of the configuration, as the reference embeds in its 409 message. */
function describeConfiguration(config: ClusterConfiguration): string {
    const members = [...config.members.entries()]
        .map(([id, member]) => {
            const partitions = [...member.partitions.entries()]
                .sort(([a], [b]) => a - b)
                .map(([pid, p]) => `${pid}=PartitionState[state=${p.status}, priority=${p.priority}]`)
                .join(", ");
            return `MemberId{id=${id}}=MemberState[version=${member.version}, state=${member.status}, partitions={${partitions}}]`;
        })
        .join(", ");
    const plan = config.pendingChange;
    const pending = plan
        ? `Optional[ClusterChangePlan[id=${plan.id}, status=IN_PROGRESS, completedOperations=${plan.completed.length}, pendingOperations=${plan.pending.length}]]`
        : "Optional.empty";
    const last = config.lastChange ? `Optional[CompletedChange[id=${config.lastChange.id}, status=${config.lastChange.status}]]` : "Optional.empty";
    return `ClusterConfiguration[version=${config.version}, members={${members}}, lastChange=${last}, pendingChanges=${pending}]`;
}
