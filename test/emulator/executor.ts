// Runs the pending change one operation at a time, like the brokers of the reference: the broker
// named in the next operation starts it (init effects), works on it for the configured operation
// time, then completes it (completion effects) and the next one begins. An operation whose broker
// is not running waits until that broker is started; nothing else moves meanwhile.

import { ClusterConfiguration, Operation } from "./clusterState";
import { completeOperation, initOperation } from "./operationEffects";

export interface ExecutionHost {
    readonly config: ClusterConfiguration;
    isRunning(brokerId: number): boolean;
    operationMs(): number;
    /** Called when the last pending operation has completed. */
    completeChange(now: number): void;
    /** Called when an operation cannot be applied; the change stays stuck, as in the reference. */
    reportStuck(reason: string): void;
    /** Called after an operation completed: the configuration changed. */
    configurationChanged(): void;
}

interface StartedOperation {
    changeId: number;
    operation: Operation;
}

export class ChangeExecutor {
    private timer: NodeJS.Timeout | undefined;
    private started: StartedOperation | undefined;
    private closed = false;

    constructor(private readonly host: ExecutionHost) {}

    /** Decides what to do next; call it whenever a change starts, a broker starts, or time passes. */
    kick(): void {
        if (this.closed || this.timer) return;
        const plan = this.host.config.pendingChange;
        const operation = plan?.pending[0];
        if (!plan || !operation) {
            this.started = undefined;
            return;
        }
        if (!this.host.isRunning(operation.brokerId)) return;
        if (this.started?.changeId !== plan.id || this.started.operation !== operation) {
            const failure = initOperation(this.host.config, operation, Date.now());
            if (failure !== undefined) {
                this.host.reportStuck(failure);
                return;
            }
            this.started = { changeId: plan.id, operation };
        }
        this.timer = setTimeout(() => this.finishStarted(), this.host.operationMs());
        this.timer.unref();
    }

    /** A stopped broker stops working on its operation; once started again it takes a full operation time. */
    brokerStopped(brokerId: number): void {
        if (this.timer && this.started?.operation.brokerId === brokerId) {
            clearTimeout(this.timer);
            this.timer = undefined;
        }
    }

    /** Forgets the operation in flight: its result is discarded (cancellation, reset). */
    abandon(): void {
        if (this.timer) clearTimeout(this.timer);
        this.timer = undefined;
        this.started = undefined;
    }

    close(): void {
        this.abandon();
        this.closed = true;
    }

    private finishStarted(): void {
        this.timer = undefined;
        const plan = this.host.config.pendingChange;
        const started = this.started;
        if (!plan || !started || started.changeId !== plan.id || plan.pending[0] !== started.operation) {
            this.started = undefined;
            this.kick();
            return;
        }
        const now = Date.now();
        const failure = completeOperation(this.host.config, started.operation, now);
        if (failure !== undefined) {
            this.host.reportStuck(failure);
            return;
        }
        plan.pending.shift();
        plan.completed.push({ operation: started.operation, completedAt: now });
        this.started = undefined;
        if (plan.pending.length === 0) this.host.completeChange(now);
        this.host.configurationChanged();
        this.kick();
    }
}
