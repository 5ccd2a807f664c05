// The layout change's own acts: sending it once (an answer that leaves open whether the cluster took it is never
// answered by sending again), waiting for a change with progress lines, and what a wait that ended without the change
// completing means (plan again, or a partial failure that keeps the change's id so the next up waits for it); and up's
// look at which brokers run, right before the request is sent.

import { type ChangeOutcome, waitForChange } from "../../sdk/cluster/changeWaiter";
import { type ClusterClient } from "../../sdk/cluster/clusterClient";
import { type GatewayClient } from "../../sdk/cluster/gatewayClient";
import { type LayoutRequest } from "../../sdk/cluster/layoutRequest";
import {
    ChangeCancelledError,
    ChangeFailedError,
    type ChangeProgress,
    ChangeSupersededError,
    ChangeTimeoutError,
    ConflictError,
    PlatformError,
    RateLimitedError,
    RequestTimeoutError,
    ResponseFormatError,
    ServerError,
} from "../../sdk/errors";
import { isTransientError, sleep } from "../../sdk/http/request";
import { type ChangePlan, type ClusterState } from "../../sdk/schemas";
import { type DesiredLayout } from "./inputs";
import { judgeLiveness } from "./liveness";
import { describeOperation, pendingText, progressLine, say, subject } from "./messages";
import { hostSignal } from "../shared/hostLifetime";
import { type Ownership } from "./reconcileDecision";
import { cancelledWhile, messageOf } from "../shared/messageOf";
import { type Planned } from "./request";

/** Poll answers that tell nothing about the change (a 500, a body that is not the API's) tolerated in a row. */
const MAX_UNEXPECTED_POLL_ANSWERS = 5;

/** A scale request whose answer does not tell whether the cluster took it. */
export interface UnclearSend {
    /** What came back instead of an answer: a status, or what happened to the connection. */
    answer: string;
    retryAfterMs?: number;
}

export interface WaitOptions {
    name: string;
    cluster: ClusterClient;
    gateway?: GatewayClient;
    changeId: number;
    deadline: number;
    /** For messages: the limit the deadline comes from. */
    timeoutSeconds: number;
    ownership: Ownership;
    cancelOnTimeout: boolean;
    /** A change of this resource that does not complete: throws the partial failure. */
    onFailure?: (reason: string, status: string, last: ClusterState | undefined) => never;
}

/**
 * Up's look at which brokers run, right before the request is sent: throws (nothing sent) when a force removal
 * would remove a running broker, or a change without force needs a broker that is down.
 */
export async function applyLiveness(name: string, desired: DesiredLayout, planned: Planned, gateway: GatewayClient | undefined): Promise<void> {
    const verdict = await judgeLiveness(desired, planned.live, gateway);
    if (verdict.health !== undefined) say(name, verdict.health);
    if (verdict.refusal !== undefined) throw new Error(`${subject(name)}: ${verdict.refusal.property}: ${verdict.refusal.reason}. Nothing was sent.`);
    if (verdict.unchecked !== undefined) say(name, `${verdict.unchecked}; removing them as the program asks`);
    if (verdict.notStarted !== undefined) say(name, verdict.notStarted);
}

/**
 * Sends the mutating request once. A failure that leaves it unknown whether the cluster accepted it
 * (timeout, reset, 502/503/504) is never answered by sending again: the caller looks at the cluster first, and
 * the change is then either running (waited for) or not (planned again from scratch).
 */
export async function send(name: string, cluster: ClusterClient, request: LayoutRequest, dryRun: ChangePlan): Promise<ChangePlan | UnclearSend | "conflict"> {
    try {
        return await cluster.applyLayout(request);
    } catch (error) {
        if (error instanceof ConflictError) {
            say(name, `${pendingText(error.pendingChangeId)} started before this request; waiting for it, then planning again`);
            return "conflict";
        }
        if (isTransientError(error) || error instanceof ResponseFormatError) {
            say(
                name,
                `the request may or may not have been accepted (${messageOf(error)}); reading the cluster before anything else (the change would be ${dryRun.changeId})`,
            );
            return unclearSend(error);
        }
        throw new Error(`${subject(name)}: the cluster refused the change: ${messageOf(error)}`);
    }
}

/**
 * Waits for a change with progress lines. Returns the outcome when it completed; undefined when it ended
 * otherwise and the caller should plan again. A change of this resource that does not complete ends in
 * `onFailure` (a partial failure); one started elsewhere that does not complete in time is a plain error.
 */
export async function waitFor(options: WaitOptions): Promise<ChangeOutcome | undefined> {
    const { name, cluster, changeId } = options;
    let lastShown = "";
    const onProgress = (progress: ChangeProgress): void => {
        const line = progressLine(progress.completed, progress.total, progress.current);
        if (line === lastShown) return;
        lastShown = line;
        say(name, `change ${changeId} ${line}`);
    };
    try {
        return await waitForChange({
            changeId,
            cluster,
            gateway: options.gateway,
            timeoutMs: Math.max(1, options.deadline - Date.now()),
            signal: hostSignal,
            onProgress,
            // A poll is a GET and the change runs whatever the answer: one that tells nothing is read again.
            maxUnexpectedAnswers: MAX_UNEXPECTED_POLL_ANSWERS,
            onUnexpectedAnswer: (error) => say(name, `reading change ${changeId} failed (${messageOf(error)}); still waiting for it`),
        });
    } catch (error) {
        return waitEnded(options, error);
    }
}

/** A wait that ended without the change completing: plan again (undefined), or fail as the change's owner says. */
async function waitEnded(options: WaitOptions, error: unknown): Promise<undefined> {
    const { name, cluster, changeId, ownership, onFailure } = options;
    if (hostSignal.aborted) {
        // Nothing more is sent: the cluster goes on with the change, and the next up finds it running.
        if (onFailure === undefined) throw new Error(`${subject(name)}: ${cancelledWhile(`waiting for change ${changeId}, not started by this run`)}`);
        return onFailure(cancelledWhile(`change ${changeId} ran: it goes on in the cluster, and the next up waits for it`), "IN_PROGRESS", undefined);
    }
    if (
        error instanceof ChangeSupersededError ||
        (ownership === "elsewhere" && (error instanceof ChangeCancelledError || error instanceof ChangeFailedError))
    ) {
        say(name, `${messageOf(error)}; planning again`);
        return undefined;
    }
    if (onFailure === undefined) {
        throw new Error(`${subject(name)}: waiting for change ${changeId}, not started by this run: ${messageOf(error)}. Nothing was sent.`);
    }
    if (error instanceof ChangeTimeoutError) {
        const cancelled = options.cancelOnTimeout ? await cancel(name, cluster, changeId) : undefined;
        const advice = cancelled
            ? "it was cancelled (cancelOnTimeout); operations already applied stay applied, run up again to plan anew"
            : "it keeps running: the next up waits for it instead of sending a new request";
        const late = `change ${changeId} did not complete within timeoutSeconds (${options.timeoutSeconds} s)${describeProgress(error.progress)}`;
        return onFailure(`${late}; ${advice}`, cancelled ? "CANCELLED" : "IN_PROGRESS", cancelled ?? (await tryRead(cluster)));
    }
    if (error instanceof ChangeCancelledError || error instanceof ChangeFailedError) {
        return onFailure(
            `${messageOf(error)}; run up again to plan anew`,
            error instanceof ChangeCancelledError ? "CANCELLED" : error.changeStatus,
            await tryRead(cluster),
        );
    }
    // Whatever else went wrong, the change was started: keep its id so the next up waits for it.
    return onFailure(`waiting for change ${changeId} failed: ${messageOf(error)}; the next up waits for it again`, "IN_PROGRESS", undefined);
}

async function cancel(name: string, cluster: ClusterClient, changeId: number): Promise<ClusterState | undefined> {
    try {
        const state = await cluster.cancelChange(changeId);
        say(name, `change ${changeId} cancelled after the timeout (cancelOnTimeout)`);
        return state;
    } catch (error) {
        say(name, `could not cancel change ${changeId}: ${messageOf(error)}`);
        return undefined;
    }
}

export async function tryRead(cluster: ClusterClient): Promise<ClusterState | undefined> {
    try {
        return await cluster.getCluster({ retry: false, timeoutMs: 5_000 });
    } catch {
        return undefined;
    }
}

function unclearSend(error: unknown): UnclearSend {
    const status = error instanceof PlatformError ? error.status : undefined;
    const code = error instanceof PlatformError ? error.code : undefined;
    const answer =
        status !== undefined
            ? String(status)
            : error instanceof RequestTimeoutError
              ? "no answer in time"
              : code !== undefined
                ? `a broken connection (${code})`
                : "an unreadable answer";
    const retryAfterMs = error instanceof ServerError || error instanceof RateLimitedError ? error.retryAfterMs : undefined;
    return retryAfterMs === undefined ? { answer } : { answer, retryAfterMs };
}

/** `503 three times`, or `503, 504 and 503` when the answers differ. */
export function describeAnswers(sends: readonly UnclearSend[]): string {
    const answers = sends.map((send) => send.answer);
    if (answers.every((answer) => answer === answers[0])) {
        const times = ["", "once", "twice", "three times"][answers.length] ?? `${answers.length} times`;
        return `${answers[0]} ${times}`;
    }
    return `${answers.slice(0, -1).join(", ")} and ${answers[answers.length - 1]}`;
}

/** ` (2/6 operations done; running: BROKER_ADD broker 3)` */
function describeProgress(progress: ChangeProgress | undefined): string {
    if (progress === undefined) return "";
    const running = progress.current === undefined ? "" : `; running: ${describeOperation(progress.current)}`;
    return ` (${progress.completed}/${progress.total} operations done${running})`;
}

/** Waits ms, or less when the run is cancelled meanwhile (whatever comes next is then refused before it is sent). */
export function pause(ms: number): Promise<void> {
    return sleep(ms, hostSignal).catch(() => undefined);
}
