// Waiting for a cluster change to end. Changes run asynchronously after the 202; their progress is read
// with GET {basePath}: pendingChange while running, lastChange once ended. Polls are paced by the
// learned duration of operations (see pollPacer.ts). Transient failures (connection refused or reset,
// 429, 502, 503, 504, request timeouts) are retried until the time limit: a change keeps running on the
// server whatever happens to our connection, so only the time limit ends the wait early.

import { CallOptions } from "../auth/apiAuth";
import {
    AbortedError,
    ChangeCancelledError,
    ChangeFailedError,
    ChangeProgress,
    ChangeSupersededError,
    ChangeTimeoutError,
    InvalidRequestError,
    OperationSummary,
    PlatformError,
    ResponseFormatError,
    ServerError,
} from "../errors";
import { exponentialDelay, isTransientError, sleep } from "../http/request";
import type { ChangeRead, RunningChange } from "./changeRead";
import { PollPacer } from "./pollPacer";
import { ChangeRecord, ClusterState, GatewayTopology, Operation } from "../schemas";
import { TIME_LIMITS } from "../timeLimits";

export interface WaitForChangeOptions {
    /** The id returned by the 202 (changeId). Must be >= 1: do not wait for an empty plan. */
    changeId: number;
    /** The management API to poll (a ClusterClient). Its URL and base path, when present, key the learned pace. */
    cluster: { readChange(changeId: number, options?: CallOptions): Promise<ChangeRead>; readonly managementUrl?: string; readonly basePath?: string };
    /**
     * When given, completion is also confirmed by the gateway's lastCompletedChangeId >= changeId, at best effort:
     * the management API's completed record is authoritative, so a gateway that cannot confirm within
     * gatewayConfirmTimeoutMs (lost, refusing, lagging) only leaves a note in the outcome.
     */
    gateway?: { getTopology(options?: CallOptions): Promise<GatewayTopology> };
    /** How long the gateway may take to confirm a completed change (default 5 s, never beyond the overall limit). */
    gatewayConfirmTimeoutMs?: number;
    /** Give up after this long (default 10 minutes). The change itself keeps running. */
    timeoutMs?: number;
    signal?: AbortSignal;
    /** Called when the completed count, the total or the running operation changes. */
    onProgress?: (progress: ChangeProgress) => void;
    /** Floor of the polling interval (default 15 ms). */
    minPollIntervalMs?: number;
    /** Ceiling of the polling interval (default 2 s). */
    maxPollIntervalMs?: number;
    /** Local epoch ms at which the change was accepted, if just now (default: when the wait starts). */
    acceptedAt?: number;
    /** Time limit of one GET (default 10 s, never beyond the overall limit). */
    requestTimeoutMs?: number;
    /**
     * Answers that tell nothing about the change (a 500, a body that is not the API's) to tolerate in a row before the
     * wait fails with them (default 0). Polls are GETs and the change runs whatever the answer, so a caller that owns
     * the change may well read again. Transient failures (resets, 502/503/504, 429) are always tolerated.
     */
    maxUnexpectedAnswers?: number;
    /** Called for each tolerated unexpected answer (for a progress line). */
    onUnexpectedAnswer?: (error: unknown) => void;
}

export interface ChangeOutcome {
    changeId: number;
    /** The record of the completed change. */
    lastChange: ChangeRecord;
    /** The cluster as read when the change was seen completed. */
    cluster: ClusterState;
    /** The gateway topology that confirmed the change, when a gateway was given and did. */
    topology?: GatewayTopology;
    /** Why the gateway did not confirm the change, when a gateway was given and did not (the change completed all the same). */
    gatewayNote?: string;
    /** GET requests sent to the management API and to the gateway, failed ones included. */
    clusterPolls: number;
    gatewayPolls: number;
}

export const DEFAULT_CHANGE_TIMEOUT_MS = TIME_LIMITS.changeMs;

type Verdict = { kind: "ended"; record: ChangeRecord } | { kind: "superseded"; latestChangeId: number } | { kind: "not-visible" };

/** Resolves when the change is COMPLETED; rejects with a ChangeError subclass, AbortedError, or a non-transient API error. */
export async function waitForChange(options: WaitForChangeOptions): Promise<ChangeOutcome> {
    return new ChangeWait(options).run();
}

class ChangeWait {
    private readonly options: WaitForChangeOptions;
    private readonly changeId: number;
    private readonly deadline: number;
    private readonly minIntervalMs: number;
    private readonly maxIntervalMs: number;
    private readonly pacer: PollPacer;
    /** Which cluster the learned pace belongs to. */
    private readonly paceKey: string | undefined;
    private progress: ChangeProgress | undefined;
    private lastError: unknown;
    private consecutiveFailures: number;
    private unexpectedInARow: number;
    private clusterPolls: number;
    private gatewayPolls: number;

    constructor(options: WaitForChangeOptions) {
        if (!Number.isSafeInteger(options.changeId) || options.changeId < 1) {
            throw new InvalidRequestError(`Cannot wait for change id ${String(options.changeId)}: an empty plan starts no change`);
        }
        this.options = options;
        this.changeId = options.changeId;
        this.progress = undefined;
        this.lastError = undefined;
        this.consecutiveFailures = 0;
        this.unexpectedInARow = 0;
        this.clusterPolls = 0;
        this.gatewayPolls = 0;
        this.deadline = Date.now() + (options.timeoutMs ?? DEFAULT_CHANGE_TIMEOUT_MS);
        this.minIntervalMs = options.minPollIntervalMs ?? 15;
        this.maxIntervalMs = Math.max(this.minIntervalMs, options.maxPollIntervalMs ?? 2_000);
        const { managementUrl, basePath } = options.cluster;
        this.paceKey = managementUrl === undefined ? undefined : `${managementUrl}${basePath ?? ""}`;
        this.pacer = new PollPacer({
            minIntervalMs: this.minIntervalMs,
            maxIntervalMs: this.maxIntervalMs,
            acceptedAt: options.acceptedAt ?? Date.now(),
            priorDurationMs: this.paceKey === undefined ? undefined : learnedPaces.get(this.paceKey),
        });
    }

    async run(): Promise<ChangeOutcome> {
        for (;;) {
            const sentAt = Date.now();
            const read = await this.attempt(() => {
                this.clusterPolls++;
                return this.options.cluster.readChange(this.changeId, this.callOptions());
            });
            if (read === undefined) {
                this.pacer.observeNothing(sentAt);
                await this.pause(this.errorDelay());
                continue;
            }
            if ("running" in read) {
                this.onRunning(read.running, sentAt, Date.now());
                await this.pause(this.pacer.nextDelay(Date.now()));
                continue;
            }
            const verdict = classify(read.cluster, this.changeId);
            switch (verdict.kind) {
                case "not-visible":
                    this.pacer.observeNothing(sentAt);
                    await this.pause(this.pacer.nextDelay(Date.now()));
                    break;
                case "superseded":
                    throw new ChangeSupersededError(
                        `Change ${this.changeId} was superseded by change ${verdict.latestChangeId}; its outcome can no longer be read`,
                        { changeId: this.changeId, progress: this.progress, latestChangeId: verdict.latestChangeId },
                    );
                case "ended":
                    return this.onEnded(verdict.record, read.cluster);
            }
        }
    }

    private onRunning(change: RunningChange, sentAt: number, receivedAt: number): void {
        this.pacer.observe({ sentAt, receivedAt, completedAt: change.completedAt, pendingCount: change.pendingCount });
        const completed = change.completedAt.length;
        const progress: ChangeProgress = { changeId: this.changeId, completed, total: completed + change.pendingCount };
        if (change.current !== undefined) progress.current = summarize(change.current);
        this.report(progress);
    }

    private async onEnded(record: ChangeRecord, cluster: ClusterState): Promise<ChangeOutcome> {
        if (record.status === "CANCELLED") {
            throw new ChangeCancelledError(`Change ${this.changeId} was cancelled${this.describeProgress()}; operations already applied stay applied`, {
                changeId: this.changeId,
                progress: this.progress,
            });
        }
        if (record.status !== "COMPLETED") {
            throw new ChangeFailedError(`Change ${this.changeId} ended with status ${record.status}${this.describeProgress()}`, {
                changeId: this.changeId,
                progress: this.progress,
                changeStatus: record.status,
            });
        }
        const learned = this.pacer.typicalDurationMs();
        if (this.paceKey !== undefined && learned !== undefined) learnedPaces.set(this.paceKey, learned);
        if (this.progress !== undefined && this.progress.completed < this.progress.total) {
            this.report({ changeId: this.changeId, completed: this.progress.total, total: this.progress.total });
        }
        const confirmation = this.options.gateway ? await this.confirmByGateway(this.options.gateway) : {};
        return {
            changeId: this.changeId,
            lastChange: record,
            cluster,
            ...confirmation,
            clusterPolls: this.clusterPolls,
            gatewayPolls: this.gatewayPolls,
        };
    }

    /**
     * Polls the gateway until it reports the change as completed (gossip may lag the coordinator), within a short
     * bound. Never fails the wait: a gateway that is lost, refuses or lags past the bound gives a note instead.
     */
    private async confirmByGateway(gateway: NonNullable<WaitForChangeOptions["gateway"]>): Promise<{ topology?: GatewayTopology; gatewayNote?: string }> {
        const boundMs = this.options.gatewayConfirmTimeoutMs ?? TIME_LIMITS.gatewayConfirmMs;
        const until = Math.min(this.deadline, Date.now() + boundMs);
        let problem = "it did not answer in time";
        for (let attempt = 0; Date.now() < until; attempt++) {
            if (this.options.signal?.aborted) throw this.aborted();
            try {
                this.gatewayPolls++;
                const remaining = Math.max(1, until - Date.now());
                const topology = await gateway.getTopology({
                    signal: this.options.signal,
                    timeoutMs: Math.min(this.options.requestTimeoutMs ?? TIME_LIMITS.pollRequestMs, remaining),
                    retry: false,
                });
                const completed = topology.lastCompletedChangeId;
                // Gateways before 8.8 do not report it: nothing to confirm with.
                if (completed === undefined || (completed !== null && completed >= this.changeId)) return { topology };
                problem = `it still reported ${completed === null ? "no completed change" : `change ${completed}`} as the last completed one`;
            } catch (error) {
                if (error instanceof AbortedError || this.options.signal?.aborted) throw this.aborted();
                problem = error instanceof Error ? error.message : String(error);
                if (!isTransientError(error)) break;
            }
            const pauseMs = Math.min(exponentialDelay(attempt + 1, Math.max(50, this.minIntervalMs), this.maxIntervalMs), Math.max(0, until - Date.now()));
            try {
                await sleep(pauseMs, this.options.signal);
            } catch {
                throw this.aborted();
            }
        }
        const seconds = Math.round(boundMs / 100) / 10;
        return {
            gatewayNote: `the gateway did not confirm change ${this.changeId} within ${seconds} s (${problem.replace(/\.$/, "")}); the management API reports it completed`,
        };
    }

    /** Runs one GET; returns undefined after a transient failure (to be retried), throws anything else. */
    private async attempt<T>(get: () => Promise<T>): Promise<T | undefined> {
        this.checkTimeAndSignal();
        try {
            const result = await get();
            this.lastError = undefined;
            this.consecutiveFailures = 0;
            this.unexpectedInARow = 0;
            return result;
        } catch (error) {
            if (error instanceof AbortedError || this.options.signal?.aborted) throw this.aborted();
            if (!isTransientError(error)) {
                const unexpected = error instanceof ServerError || error instanceof ResponseFormatError;
                if (!unexpected || ++this.unexpectedInARow > (this.options.maxUnexpectedAnswers ?? 0)) throw error;
                this.options.onUnexpectedAnswer?.(error);
            }
            this.lastError = error;
            return undefined;
        }
    }

    private errorDelay(): number {
        const retryAfter = (this.lastError as { retryAfterMs?: number } | undefined)?.retryAfterMs ?? 0;
        return Math.max(retryAfter, exponentialDelay(++this.consecutiveFailures, Math.max(50, this.minIntervalMs), this.maxIntervalMs));
    }

    private callOptions(): CallOptions {
        const remaining = this.deadline - Date.now();
        return {
            signal: this.options.signal,
            timeoutMs: Math.max(1, Math.min(this.options.requestTimeoutMs ?? TIME_LIMITS.pollRequestMs, remaining)),
            retry: false,
        };
    }

    /** Sleeps, but never past the deadline; the next attempt then reports the timeout. */
    private async pause(ms: number): Promise<void> {
        const until = Math.min(Date.now() + Math.max(0, ms), this.deadline);
        try {
            await sleep(until - Date.now(), this.options.signal);
        } catch {
            throw this.aborted();
        }
    }

    private checkTimeAndSignal(): void {
        if (this.options.signal?.aborted) throw this.aborted();
        if (Date.now() < this.deadline) return;
        const limitMs = this.options.timeoutMs ?? DEFAULT_CHANGE_TIMEOUT_MS;
        const cause = this.lastError instanceof PlatformError ? `; last error: ${this.lastError.message}` : "";
        throw new ChangeTimeoutError(
            `Change ${this.changeId} did not complete within ${limitMs} ms${this.describeProgress()}; ` +
                `it may still be running, wait again with the same change id${cause}`,
            { changeId: this.changeId, progress: this.progress },
        );
    }

    private aborted(): AbortedError {
        return new AbortedError(`Waiting for change ${this.changeId} was aborted${this.describeProgress()}; the change itself continues`);
    }

    private report(progress: ChangeProgress): void {
        if (this.progress !== undefined && sameProgress(this.progress, progress)) return;
        this.progress = progress;
        this.options.onProgress?.(progress);
    }

    private describeProgress(): string {
        return this.progress === undefined ? "" : ` (${this.progress.completed}/${this.progress.total} operations completed)`;
    }
}

/** Typical operation duration per cluster, learned by earlier waits of this process. */
const learnedPaces = new Map<string, number>();

/** A state read while the change is not the one running (see changeRead.ts). */
function classify(state: ClusterState, changeId: number): Verdict {
    const pending = state.pendingChange;
    const last = state.lastChange;
    if (last?.id === changeId) return { kind: "ended", record: last };
    const latest = Math.max(pending?.id ?? -1, last?.id ?? -1);
    if (latest > changeId) return { kind: "superseded", latestChangeId: latest };
    return { kind: "not-visible" };
}

function summarize(operation: Operation): OperationSummary {
    const summary: OperationSummary = { operation: operation.operation };
    if (operation.brokerId !== undefined) summary.brokerId = operation.brokerId;
    if (operation.partitionId !== undefined) summary.partitionId = operation.partitionId;
    return summary;
}

function sameProgress(a: ChangeProgress, b: ChangeProgress): boolean {
    return (
        a.completed === b.completed &&
        a.total === b.total &&
        a.current?.operation === b.current?.operation &&
        a.current?.brokerId === b.current?.brokerId &&
        a.current?.partitionId === b.current?.partitionId
    );
}
