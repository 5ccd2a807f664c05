// create and update: wait for a change already running, plan against the live cluster, refuse what must not be
// sent, send the request once, and wait for the change. Each round observes (the cluster, then the dry run), asks
// layoutDecision.ts for the next step, and acts. Every way it can end is here: completed (the outputs), a change of
// this resource that did not complete (a partial failure that keeps its id, so the next up resumes waiting instead of
// sending again), or a refusal with nothing sent.

import { type ChangeOutcome, waitForChange } from "../../sdk/cluster/changeWaiter";
import { type ClusterClient } from "../../sdk/cluster/clusterClient";
import { type GatewayClient } from "../../sdk/cluster/gatewayClient";
import { type LayoutRequest, describeLayoutRequest } from "../../sdk/cluster/layoutRequest";
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
import { exponentialDelay, isTransientError } from "../../sdk/http/request";
import { type ChangePlan, type ClusterState } from "../../sdk/schemas";
import { type Clients } from "./clients";
import { type ClusterScaleInputs, type DesiredLayout, desiredLayout } from "./inputs";
import { partialFailure } from "./interrupted";
import type { Planned } from "./preview";
import {
    LIVENESS_TIMEOUT_MS,
    availability,
    downRefusal,
    forceRemovalRefusal,
    healthNote,
    notStartedNote,
    readLiveness,
    uncheckedForceRemoval,
} from "./liveness";
import { count, describeLayout, describeOperation, pendingText, progressLine, say, subject } from "./messages";
import { type ClusterScaleOutputs, type KnownChange, inFlightOutputs, outputsFrom, plannedChangesOf, recordedChange, settingsOf } from "./outputs";
import { fingerprintOf, leftTheirLayout, runsKnownPlan } from "./ownership";
import { recordedIntent } from "./replicas";
import { type LayoutFacts, type Ownership, decideLayoutStep } from "./layoutDecision";
import { staleRecord } from "./staleRecord";
import { type PlanOutcome, messageOf, planChange, removedBrokers, snapshotOf } from "./request";

/** Apply-time rounds of "wait for the pending change, plan, send": a guard against a cluster that never settles. */
const MAX_APPLY_ROUNDS = 6;
/** Scale requests in a row whose answer left it unclear whether the cluster took them (503, 504, a reset). */
const MAX_UNCLEAR_SENDS = 3;
/** Poll answers that tell nothing about the change (a 500, a body that is not the API's) tolerated in a row. */
const MAX_UNEXPECTED_POLL_ANSWERS = 5;

/** A scale request whose answer does not tell whether the cluster took it. */
interface UnclearSend {
    /** What came back instead of an answer: a status, or what happened to the connection. */
    answer: string;
    retryAfterMs?: number;
}

interface WaitOptions {
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
async function applyLiveness(name: string, desired: DesiredLayout, planned: Planned, gateway: GatewayClient | undefined): Promise<void> {
    const liveness = await readLiveness(gateway, LIVENESS_TIMEOUT_MS);
    const health = healthNote(liveness);
    if (health !== undefined) say(name, health);
    if (desired.force) {
        const removed = removedBrokers(desired, planned.live);
        const refusal = forceRemovalRefusal(removed, liveness);
        if (refusal !== undefined) throw new Error(`${subject(name)}: force: ${refusal}. Nothing was sent.`);
        if (!liveness.known && removed.length > 0) say(name, `${uncheckedForceRemoval(removed, liveness.reason)}; removing them as the program asks`);
        return;
    }
    const state = availability(planned.live.members, desired.brokers, liveness);
    const refusal = downRefusal(state);
    if (refusal !== undefined) throw new Error(`${subject(name)}: brokers: ${refusal}. Nothing was sent.`);
    const waiting = notStartedNote(state);
    if (waiting !== undefined) say(name, waiting);
}

/**
 * create and update: wait for a change already running, plan against the live cluster, send the request once
 * when the plan is not empty, and wait for it. Returns the outputs; throws a partial failure (keeping the id of
 * the change in flight) when the change does not complete, so the next up waits for it instead of sending again.
 */
export async function applyLayout(
    clients: Clients,
    id: string,
    inputs: ClusterScaleInputs,
    olds: ClusterScaleOutputs | undefined,
    provider: unknown,
    /** When the whole up must end (epoch ms; default: timeoutSeconds from now). */
    deadline = Date.now() + inputs.timeoutSeconds * 1000,
): Promise<ClusterScaleOutputs> {
    const name = inputs.resourceName;
    const settings = settingsOf(inputs);
    const { cluster, gateway } = clients;
    const desired = desiredLayout(inputs, recordedIntent(olds));
    // The replication factor the outputs record as intended; on a create without the input, the most replicas
    // a partition has before the change (a force removal lowers only some partitions).
    let intended = desired.replicationFactor ?? desired.recordedReplicationFactor;
    const recorded: KnownChange | undefined = olds === undefined ? undefined : recordedChange(olds);
    // The change an earlier run left in flight (a partial failure keeps its id): waiting for it is resuming it.
    const earlier = olds?.lastChange?.status === "IN_PROGRESS" ? recorded : undefined;
    // A change of this resource that may be running: the earlier run's, or one this run sent without a clear answer.
    let inFlight = earlier;
    // The last change this run waited for that it did not start (its plan, should it turn out to be the one that made the layout).
    let waited: KnownChange | undefined;
    // Scale requests in a row that got no clear answer.
    let unclear: UnclearSend[] = [];
    const fail = (outputs: ClusterScaleOutputs, reason: string): never => {
        throw partialFailure(id, { ...outputs, __provider: provider }, `${subject(name)}: ${reason}`);
    };

    for (let round = 1; round <= MAX_APPLY_ROUNDS; round++) {
        // Observe: the cluster, then (when the decision asks for it) the dry run of the layout.
        let state: ClusterState | undefined;
        let readError: unknown;
        try {
            state = await cluster.getCluster();
        } catch (error) {
            readError = error;
        }
        const pendingOperations = state?.pendingChange === undefined ? [] : [...state.pendingChange.completed, ...state.pendingChange.pending];
        const facts: LayoutFacts = {
            round,
            maxRounds: MAX_APPLY_ROUNDS,
            force: desired.force,
            read: state === undefined ? { ok: false, transient: isTransientError(readError) } : { ok: true, pendingChangeId: state.pendingChange?.id },
            inFlightId: inFlight?.changeId,
            pendingRunsAnotherPlan: inFlight !== undefined && !runsKnownPlan(inFlight, pendingOperations),
            earlierId: earlier?.changeId,
            unclearSends: unclear.length,
            maxUnclearSends: MAX_UNCLEAR_SENDS,
        };
        let next = decideLayoutStep(facts);
        const readReason = () => `cannot read the cluster: ${messageOf(readError).replace(/\.$/, "")}`;
        if (next.kind === "forgetInFlight") {
            say(
                name,
                `change ${state?.pendingChange?.id} has the id of a change of this resource but another plan (a rebuilt cluster numbers its changes anew); it is treated as another client's change`,
            );
            inFlight = undefined;
            next = decideLayoutStep({ ...facts, inFlightId: undefined });
        }
        let planned: Planned | PlanOutcome | undefined;
        if (next.kind === "plan" || next.kind === "planWithoutRead") {
            if (next.kind === "planWithoutRead") {
                // Reading goes through the lowest broker, which a force removal may be removing because it is gone; the
                // force request itself goes to the lowest broker it keeps. So a force removal goes on from its dry run.
                say(name, `${readReason()}; a force removal is sent to the lowest broker it keeps, so it is planned from its own dry run`);
            }
            planned = await planChange(cluster, desired, state === undefined ? undefined : snapshotOf(state.brokers), {});
            next = decideLayoutStep({ ...facts, planned: planned.kind === "planned" ? (planned.empty ? "empty" : "changes") : planned.kind });
        }

        // Act.
        switch (next.kind) {
            case "failKeepingInFlight":
                return fail(
                    inFlightOutputs(settings, undefined, inFlight!, "IN_PROGRESS", intended),
                    `${readReason()}; change ${inFlight!.changeId} may be running: the next up waits for it`,
                );
            case "refuseUnreadable":
                throw new Error(`${subject(name)}: ${readReason()}${round === 1 ? ". Nothing was sent." : ""}`);
            case "waitForPending": {
                const pendingId = next.changeId;
                if (inFlight?.changeId === pendingId && inFlight.plannedChanges.length === 0) {
                    // Its plan did not fit in the state of an earlier partial failure: the cluster still lists it.
                    inFlight = { ...inFlight, plannedChanges: plannedChangesOf(pendingOperations) };
                }
                const mine = next.ownership === "elsewhere" ? undefined : inFlight;
                if (mine === undefined) waited = { changeId: pendingId, plannedChanges: plannedChangesOf(pendingOperations) };
                // "Elsewhere" includes a run of this resource that was killed before it could record its change.
                const origin = next.ownership === "elsewhere" ? "outside this resource, or by an interrupted run" : `by ${next.ownership}`;
                say(name, `change ${pendingId} (started ${origin}) is in progress; waiting for it before planning`);
                const current = state;
                await waitFor({
                    name,
                    cluster,
                    changeId: pendingId,
                    deadline,
                    timeoutSeconds: inputs.timeoutSeconds,
                    ownership: next.ownership,
                    cancelOnTimeout: inputs.cancelOnTimeout,
                    onFailure: mine && ((reason, status, last) => fail(inFlightOutputs(settings, last ?? current, mine, status, intended), reason)),
                });
                continue;
            }
            case "observeAgain":
                continue;
            case "refuseBusyUnreadable": {
                const pendingChangeId = planned?.kind === "busy" ? planned.pendingChangeId : undefined;
                throw new Error(
                    `${subject(name)}: ${pendingText(pendingChangeId)} is in progress and the cluster cannot be read to wait for it. Nothing was sent.`,
                );
            }
            case "planAgainLater":
                // A dry run changes nothing, so asking again is safe.
                await pause(exponentialDelay(round, 200, 2_000));
                continue;
            case "refuseUnreachable":
                throw new Error(
                    `${subject(name)}: cannot plan the change: ${planned?.kind === "unreachable" ? planned.reason : "no answer"}. Nothing was sent.`,
                );
            case "refusePlan":
                if (planned?.kind === "rejected") throw new Error(`${subject(name)}: ${planned.property}: ${planned.reason}. Nothing was sent.`);
                break;
            case "refuseNothingToRecord":
                throw new Error(`${subject(name)}: cannot read the cluster, and the force removal has nothing to remove. Nothing was sent.`);
            case "plan":
            case "planWithoutRead":
            case "forgetInFlight":
                break; // decided again above
            case "record":
            case "send":
            case "refuseUnclearSends":
                break; // below, with the plan
        }
        if (planned?.kind !== "planned") continue;
        intended ??= planned.live.mostReplicas > 0 ? planned.live.mostReplicas : undefined;
        if (next.kind === "record" && state !== undefined) {
            const stale = olds === undefined ? [] : staleRecord(olds, state.brokers, desired);
            if (stale.length > 0) say(name, `the state recorded another layout (${stale.join("; ")}): recording the live one`);
            say(name, `the cluster has the requested layout (${describeLayout(state)}); nothing to send`);
            return outputsFrom(settings, state, leftTheirLayout([inFlight, waited, recorded], state), intended);
        }
        await applyLiveness(name, desired, planned, gateway);
        if (next.kind === "refuseUnclearSends") {
            throw new Error(
                `${subject(name)}: the management API answered ${describeAnswers(unclear)}; nothing was applied (the cluster shows no change from these requests). Run up again when it answers.`,
            );
        }

        const accepted = await send(name, cluster, planned.request, planned.plan);
        if (accepted === "conflict") continue;
        if ("answer" in accepted) {
            // The dry run told the id the change gets: if the cluster shows it running with this plan, it is this run's.
            inFlight = {
                changeId: planned.plan.changeId,
                plannedChanges: plannedChangesOf(planned.plan.plannedChanges),
                fingerprint: fingerprintOf(planned.plan.plannedChanges, planned.plan.expectedTopology),
            };
            unclear.push(accepted);
            // Look at the cluster before anything else; a server that asked for time gets it first.
            await pause(Math.min(accepted.retryAfterMs ?? 0, Math.max(0, deadline - Date.now())));
            continue;
        }
        unclear = [];
        const mine: KnownChange = {
            changeId: accepted.changeId,
            plannedChanges: plannedChangesOf(accepted.plannedChanges),
            fingerprint: fingerprintOf(accepted.plannedChanges, accepted.expectedTopology),
        };
        say(
            name,
            `change ${accepted.changeId} accepted (${describeLayoutRequest(planned.request)}): ${count(accepted.plannedChanges.length, "operation")}; waiting up to ${inputs.timeoutSeconds} s`,
        );
        const before = state;
        const outcome = await waitFor({
            name,
            cluster,
            gateway,
            changeId: accepted.changeId,
            deadline,
            timeoutSeconds: inputs.timeoutSeconds,
            ownership: "this run",
            cancelOnTimeout: inputs.cancelOnTimeout,
            onFailure: (reason, status, last) => fail(inFlightOutputs(settings, last ?? before, mine, status, intended), reason),
        });
        if (outcome === undefined) continue;
        if (outcome.gatewayNote !== undefined) say(name, outcome.gatewayNote);
        say(name, `change ${accepted.changeId} completed: ${describeLayout(outcome.cluster)}`);
        return outputsFrom(settings, outcome.cluster, [mine], intended);
    }
    throw new Error(`${subject(name)}: the cluster kept changing under this update (${MAX_APPLY_ROUNDS} rounds of waiting and planning); run up again`);
}

/**
 * Sends the mutating request once. A failure that leaves it unknown whether the cluster accepted it
 * (timeout, reset, 502/503/504) is never answered by sending again: the caller looks at the cluster first, and
 * the change is then either running (waited for) or not (planned again from scratch).
 */
async function send(name: string, cluster: ClusterClient, request: LayoutRequest, dryRun: ChangePlan): Promise<ChangePlan | UnclearSend | "conflict"> {
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
async function waitFor(options: WaitOptions): Promise<ChangeOutcome | undefined> {
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

async function tryRead(cluster: ClusterClient): Promise<ClusterState | undefined> {
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
function describeAnswers(sends: readonly UnclearSend[]): string {
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

function pause(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
}
