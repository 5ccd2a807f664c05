// create and update: one loop that observes (the cluster, the dry run when it is idle, the brokers' StatefulSet with
// its pods and claims), asks reconcileDecision.ts once for the next step, acts, and observes again, until the layout is
// applied and the StatefulSet matches it. What the loop carries from round to round is the Progress below and
// nothing else; an interrupted up is resumed by the next one, which observes where things stand. Every way it can end:
// completed (the outputs), a change of this resource that did not complete (a partial failure that keeps its id, so
// the next up waits for it instead of sending again), a refusal with nothing sent, or a run the engine cancelled
// (nothing more sent, what it leaves running recorded as a partial failure for the next up).

import type { StatefulSetView } from "../../sdk/kubernetes/brokerStatefulSet";
import type { PodView } from "../../sdk/kubernetes/podView";
import { describeLayoutRequest } from "../../sdk/cluster/layoutRequest";
import { exponentialDelay, isTransientError } from "../../sdk/http/request";
import type { ClusterState } from "../../sdk/schemas";
import { type UnclearSend, applyLiveness, describeAnswers, pause, send, waitFor } from "./changeWait";
import type { Clients } from "./clients";
import { type ClusterScaleInputs, type DesiredLayout, desiredLayout } from "./inputs";
import { isPartialFailure, partialFailure } from "./interrupted";
import {
    claimsOf,
    existingClaims,
    observeStatefulSet,
    deleteClaims,
    podList,
    readStatefulSet,
    refusalText,
    scaleStatefulSet,
    waitForPods,
    workloadFacts,
} from "./kubernetes/statefulSetSteps";
import { neededAccess, refuseMissingAccess } from "./kubernetes/accessCheck";
import { movedBeforeLowering, movedBeforeSend, movedSinceSet, raisedBeforeClaims } from "./kubernetes/countMoved";
import { type ControllerReading, readControllers } from "./kubernetes/gitOpsRecipes";
import { ReplicasMovedError } from "../../sdk/errors";
import { count, describeLayout, pendingText, say, subject } from "./messages";
import { type ClusterScaleOutputs, type KnownChange, inFlightOutputs, outputsFrom, plannedChangesOf, recordedChange, settingsOf } from "./outputs";
import { fingerprintOf, leftTheirLayout, runsKnownPlan } from "./ownership";
import { type ReconcileFacts, type ReconcileStep, decideNext, replicasFor } from "./reconcileDecision";
import { recordedIntent } from "./replicas";
import { type PlanOutcome, planChange, snapshotOf } from "./request";
import { cancelledWhile, messageOf } from "../shared/messageOf";
import { hostSignal } from "../shared/hostLifetime";
import { staleRecord } from "./staleRecord";
import { ranReplicas, removedOrdinals } from "./kubernetes/removedOrdinals";

/** Rounds spent on the layout (waits for other changes, dry runs without an answer, unclear sends): a guard against a cluster that never settles. */
const MAX_APPLY_ROUNDS = 6;
/** Scale requests in a row whose answer left it unclear whether the cluster took them (503, 504, a reset). */
const MAX_UNCLEAR_SENDS = 3;

/** What one round saw. */
interface Observation {
    state?: ClusterState;
    readError?: unknown;
    /** The dry run, when the cluster was idle (or unreadable while a force removal is asked for) and the layout not applied yet. */
    planned?: PlanOutcome;
    workload?: { view: StatefulSetView; pods: PodView[]; claims: string[]; ranReplicas: number; controllers: ControllerReading[] };
}

/** What this up has done so far: the only thing carried from one round to the next. */
interface Progress {
    /** Rounds spent on the layout, the next one included. */
    round: number;
    /** A change of this resource that may be running: an earlier run's, or one this run sent without a clear answer. */
    inFlight?: KnownChange;
    /** The last change this run waited for that it did not start (its plan, should it turn out to be the one that made the layout). */
    waited?: KnownChange;
    /** Scale requests in a row that got no clear answer. */
    unclear: UnclearSend[];
    /** The replication factor the outputs record as intended. */
    intended?: number;
    /** The layout is applied: the outputs to return once the StatefulSet matches it. */
    outputs?: ClusterScaleOutputs;
    /** The pods a wait just saw: the next round decides from them without reading again (the change follows within milliseconds). */
    seen?: { view: StatefulSetView; pods: PodView[] };
    /** The most pods of the StatefulSet this resource ran (see removedOrdinals.ts): recorded by the last up, raised by what this one saw. */
    ranReplicas: number;
    /** The uid of the StatefulSet this run last saw, recorded with ranReplicas. */
    statefulSetUid?: string;
    /** The pods the last wait for new pods waited for, when it ended before they ran (its line is not repeated). */
    waitingFor?: string;
    /** The count this run last wrote to spec.replicas. */
    setReplicas?: number;
}

type Act = Progress | { done: ClusterScaleOutputs };

export async function reconcile(
    clients: Clients,
    id: string,
    inputs: ClusterScaleInputs,
    olds: ClusterScaleOutputs | undefined,
    provider: unknown,
): Promise<ClusterScaleOutputs> {
    const name = inputs.resourceName;
    const settings = settingsOf(inputs);
    const { cluster, gateway, statefulSet } = clients;
    const deadline = Date.now() + inputs.timeoutSeconds * 1000;
    const desired = desiredLayout(inputs, recordedIntent(olds));
    const deleteVolumes = inputs.kubernetes?.volumesOfRemovedBrokers === "delete";
    const recorded: KnownChange | undefined = olds === undefined ? undefined : recordedChange(olds);
    // The change an earlier run left in flight (a partial failure keeps its id): waiting for it is resuming it.
    const earlier = olds?.lastChange?.status === "IN_PROGRESS" ? recorded : undefined;
    const withRanReplicas = (outputs: ClusterScaleOutputs, progress: Progress): ClusterScaleOutputs =>
        statefulSet === undefined
            ? outputs
            : {
                  ...outputs,
                  statefulSetReplicas: progress.ranReplicas,
                  ...(progress.statefulSetUid !== undefined ? { statefulSetUid: progress.statefulSetUid } : {}),
              };
    const fail = (outputs: ClusterScaleOutputs, reason: string, progress: Progress): never => {
        throw partialFailure(id, { ...withRanReplicas(outputs, progress), __provider: provider }, `${subject(name)}: ${reason}`);
    };

    /** The GitOps controllers deploying the StatefulSet and their recipes: read once, in the first round. */
    let controllers: ControllerReading[] | undefined;
    const observe = async (progress: Progress): Promise<Observation> => {
        const observed: Observation = {};
        try {
            observed.state = await cluster.getCluster();
        } catch (error) {
            observed.readError = error;
        }
        if (statefulSet !== undefined) {
            const { view, pods } = await observeStatefulSet(name, statefulSet, progress.seen);
            controllers ??= await readControllers(statefulSet, view, inputs.kubernetes?.gitOpsRecipes ?? []);
            const ran = ranReplicas(progress.ranReplicas, view.replicas);
            // Claims go only after the layout change: listing them earlier would only delay it.
            const owed = deleteVolumes && progress.outputs !== undefined ? claimsOf(statefulSet, view, removedOrdinals(replicasFor(desired.brokers), ran)) : [];
            const claims = owed.length > 0 ? await existingClaims(name, statefulSet, owed) : [];
            observed.workload = { view, pods, claims, ranReplicas: ran, controllers };
        }
        const idle = observed.state !== undefined && observed.state.pendingChange === undefined;
        const forceUnread = observed.state === undefined && desired.force && isTransientError(observed.readError);
        if (progress.outputs === undefined && (idle || forceUnread)) {
            observed.planned = await planChange(cluster, desired, observed.state === undefined ? undefined : snapshotOf(observed.state.brokers), {});
        }
        return observed;
    };

    const act = async (step: ReconcileStep, observed: Observation, progress: Progress): Promise<Act> => {
        const { state, planned, workload } = observed;
        const intended = progress.intended ?? (planned?.kind === "planned" && planned.live.mostReplicas > 0 ? planned.live.mostReplicas : undefined);
        const readReason = () => `cannot read the cluster: ${messageOf(observed.readError).replace(/\.$/, "")}`;
        const next = { ...progress, seen: undefined, intended };
        const nextRound = { ...next, round: progress.round + 1 };
        const remainingMs = Math.max(1, deadline - Date.now());
        switch (step.kind) {
            case "refuseOrdinals":
            case "refuseStopping":
            case "refuseOrderedStart":
            case "refuseController":
                throw new Error(
                    `${subject(name)}: kubernetes.statefulSet: ${refusalText(statefulSet!, workload!.view, step, olds?.statefulSetUid)}. Nothing was sent.`,
                );
            case "failKeepingInFlight": {
                const inFlight = progress.inFlight!;
                return fail(
                    inFlightOutputs(settings, undefined, inFlight, "IN_PROGRESS", intended),
                    `${readReason()}; change ${inFlight.changeId} may be running: the next up waits for it`,
                    progress,
                );
            }
            case "refuseUnreadable":
                throw new Error(`${subject(name)}: ${readReason()}${progress.round === 1 ? ". Nothing was sent." : ""}`);
            case "forgetInFlight":
                say(
                    name,
                    `change ${state?.pendingChange?.id} has the id of a change of this resource but another plan (a rebuilt cluster numbers its changes anew); it is treated as another client's change`,
                );
                return { ...next, inFlight: undefined };
            case "waitForPending":
                return waitForPending(step, state!, nextRound);
            case "grow":
                await scaleStatefulSet(name, statefulSet!, workload!.view, step.to);
                return { ...next, setReplicas: step.to };
            case "shrink":
                try {
                    await scaleStatefulSet(name, statefulSet!, workload!.view, step.to);
                } catch (error) {
                    if (!(error instanceof ReplicasMovedError)) throw error;
                    const view = await readStatefulSet(name, statefulSet!);
                    const reason = movedBeforeLowering(statefulSet!, view, { ...step, found: error.replicas }, olds?.statefulSetUid);
                    return fail(progress.outputs!, `kubernetes.statefulSet: ${reason}`, progress);
                }
                return { ...next, setReplicas: step.to };
            case "stopMoved": {
                const applied = progress.outputs !== undefined;
                const reason = `kubernetes.statefulSet: ${movedSinceSet(statefulSet!, workload!.view, { ...step, applied }, olds?.statefulSetUid)}`;
                if (!applied) throw new Error(`${subject(name)}: ${reason}`);
                return fail(progress.outputs!, reason, progress);
            }
            case "waitForPods": {
                const waitingFor = podList(statefulSet!, step.ordinals);
                if (progress.waitingFor !== waitingFor) say(name, `waiting for ${waitingFor} to run before the layout change names them`);
                const pods = await waitForPods(name, statefulSet!, workload!.view, step.ordinals, "run", remainingMs, inputs.timeoutSeconds);
                // Not running yet: the next round reads the StatefulSet and its pods again (the count may have moved).
                if (pods === undefined) return { ...next, waitingFor };
                return { ...next, seen: { view: workload!.view, pods }, waitingFor: undefined };
            }
            case "waitForPodsGone": {
                const pods = await waitForPods(name, statefulSet!, workload!.view, step.ordinals, "stop", remainingMs, inputs.timeoutSeconds);
                return { ...next, seen: pods === undefined ? undefined : { view: workload!.view, pods } };
            }
            case "deleteClaims": {
                // The pods of removed brokers are gone; a count raised meanwhile would start them again on these claims.
                const view = await readStatefulSet(name, statefulSet!);
                const needed = replicasFor(desired.brokers);
                if (view.replicas > needed)
                    return fail(progress.outputs!, `kubernetes.statefulSet: ${raisedBeforeClaims(statefulSet!, view, needed, olds?.statefulSetUid)}`, progress);
                await deleteClaims(name, statefulSet!, step.names);
                return next;
            }
            case "done":
                return {
                    done: workload === undefined ? progress.outputs! : withRanReplicas(progress.outputs!, { ...progress, ranReplicas: workload.view.replicas }),
                };
            case "observeAgain":
                return nextRound;
            case "refuseBusyUnreadable":
                throw new Error(
                    `${subject(name)}: ${pendingText(planned?.kind === "busy" ? planned.pendingChangeId : undefined)} is in progress and the cluster cannot be read to wait for it. Nothing was sent.`,
                );
            case "planAgainLater":
                // A dry run changes nothing, so asking again is safe.
                await pause(exponentialDelay(progress.round, 200, 2_000));
                return nextRound;
            case "refuseUnreachable":
                throw new Error(
                    `${subject(name)}: cannot plan the change: ${planned?.kind === "unreachable" ? planned.reason : "no answer"}. Nothing was sent.`,
                );
            case "refusePlan":
                throw new Error(
                    `${subject(name)}: ${planned?.kind === "rejected" ? `${planned.property}: ${planned.reason}` : "the cluster refuses this layout"}. Nothing was sent.`,
                );
            case "refuseNothingToRecord":
                throw new Error(`${subject(name)}: cannot read the cluster, and the force removal has nothing to remove. Nothing was sent.`);
            case "record": {
                const stale = olds === undefined ? [] : staleRecord(olds, state!.brokers, desired);
                if (stale.length > 0) say(name, `the state recorded another layout (${stale.join("; ")}): recording the live one`);
                say(name, `the cluster has the requested layout (${describeLayout(state!)}); nothing to send`);
                return { ...next, outputs: outputsFrom(settings, state!, leftTheirLayout([progress.inFlight, progress.waited, recorded], state!), intended) };
            }
            case "refuseUnclearSends":
            case "send":
                return sendAndWait(step, observed, next, nextRound, readReason);
        }
    };

    /** Waits for a change already running (this resource's, or another client's), then observes again. */
    const waitForPending = async (step: Extract<ReconcileStep, { kind: "waitForPending" }>, state: ClusterState, progress: Progress): Promise<Progress> => {
        const pendingId = step.changeId;
        const pendingOperations = state.pendingChange === undefined ? [] : [...state.pendingChange.completed, ...state.pendingChange.pending];
        let inFlight = progress.inFlight;
        if (inFlight?.changeId === pendingId && inFlight.plannedChanges.length === 0) {
            // Its plan did not fit in the state of an earlier partial failure: the cluster still lists it.
            inFlight = { ...inFlight, plannedChanges: plannedChangesOf(pendingOperations) };
        }
        const mine = step.ownership === "elsewhere" ? undefined : inFlight;
        const waited = mine === undefined ? { changeId: pendingId, plannedChanges: plannedChangesOf(pendingOperations) } : progress.waited;
        // "Elsewhere" includes a run of this resource that was killed before it could record its change.
        const origin = step.ownership === "elsewhere" ? "outside this resource, or by an interrupted run" : `by ${step.ownership}`;
        say(name, `change ${pendingId} (started ${origin}) is in progress; waiting for it before planning`);
        await waitFor({
            name,
            cluster,
            changeId: pendingId,
            deadline,
            timeoutSeconds: inputs.timeoutSeconds,
            ownership: step.ownership,
            cancelOnTimeout: inputs.cancelOnTimeout,
            onFailure: mine && ((reason, status, last) => fail(inFlightOutputs(settings, last ?? state, mine, status, progress.intended), reason, progress)),
        });
        return { ...progress, inFlight, waited };
    };

    /** Sends the layout change once and waits for it; an unclear answer is followed by another look at the cluster. */
    const sendAndWait = async (
        step: Extract<ReconcileStep, { kind: "send" | "refuseUnclearSends" }>,
        observed: Observation,
        progress: Progress,
        nextRound: Progress,
        readReason: () => string,
    ): Promise<Act> => {
        const planned = observed.planned as Extract<PlanOutcome, { kind: "planned" }>;
        if (step.kind === "send" && step.unread) {
            say(name, `${readReason()}; a force removal is sent to the lowest broker it keeps, so it is planned from its own dry run`);
        }
        await applyLiveness(name, desired, planned, gateway);
        if (step.kind === "refuseUnclearSends") {
            throw new Error(
                `${subject(name)}: the management API answered ${describeAnswers(progress.unclear)}; nothing was applied (the cluster shows no change from these requests). Run up again when it answers.`,
            );
        }
        if (statefulSet !== undefined) {
            // The pods a wait saw running decided this round: a count moved since (a controller setting it back) would
            // stop brokers the change is about to name.
            const view = await readStatefulSet(name, statefulSet);
            const needed = replicasFor(desired.brokers);
            if (view.replicas < needed)
                throw new Error(`${subject(name)}: kubernetes.statefulSet: ${movedBeforeSend(statefulSet, view, needed, olds?.statefulSetUid)}`);
        }
        const accepted = await send(name, cluster, planned.request, planned.plan);
        if (accepted === "conflict") return nextRound;
        if ("answer" in accepted) {
            // The dry run told the id the change gets: if the cluster shows it running with this plan, it is this run's.
            const inFlight = {
                changeId: planned.plan.changeId,
                plannedChanges: plannedChangesOf(planned.plan.plannedChanges),
                fingerprint: fingerprintOf(planned.plan.plannedChanges, planned.plan.expectedTopology),
            };
            // Look at the cluster before anything else; a server that asked for time gets it first.
            await pause(Math.min(accepted.retryAfterMs ?? 0, Math.max(0, deadline - Date.now())));
            return { ...nextRound, inFlight, unclear: [...progress.unclear, accepted] };
        }
        const mine: KnownChange = {
            changeId: accepted.changeId,
            plannedChanges: plannedChangesOf(accepted.plannedChanges),
            fingerprint: fingerprintOf(accepted.plannedChanges, accepted.expectedTopology),
        };
        say(
            name,
            `change ${accepted.changeId} accepted (${describeLayoutRequest(planned.request)}): ${count(accepted.plannedChanges.length, "operation")}; waiting up to ${inputs.timeoutSeconds} s`,
        );
        const before = observed.state;
        const outcome = await waitFor({
            name,
            cluster,
            gateway,
            changeId: accepted.changeId,
            deadline,
            timeoutSeconds: inputs.timeoutSeconds,
            ownership: "this run",
            cancelOnTimeout: inputs.cancelOnTimeout,
            onFailure: (reason, status, last) => fail(inFlightOutputs(settings, last ?? before, mine, status, progress.intended), reason, progress),
        });
        if (outcome === undefined) return { ...nextRound, unclear: [] };
        if (outcome.gatewayNote !== undefined) say(name, outcome.gatewayNote);
        say(name, `change ${accepted.changeId} completed: ${describeLayout(outcome.cluster)}`);
        return { ...progress, unclear: [], outputs: outputsFrom(settings, outcome.cluster, [mine], progress.intended) };
    };

    let progress: Progress = {
        round: 1,
        inFlight: earlier,
        unclear: [],
        intended: desired.replicationFactor ?? desired.recordedReplicationFactor,
        ranReplicas: olds?.statefulSetReplicas ?? 0,
        ...(olds?.statefulSetUid !== undefined ? { statefulSetUid: olds.statefulSetUid } : {}),
    };
    /**
     * The run was cancelled: nothing more is sent, and what this run leaves running is recorded for the next up. A
     * layout already applied, with no StatefulSet to follow it, is simply done.
     */
    const cancelled = (progress: Progress): ClusterScaleOutputs => {
        const inFlight = progress.inFlight;
        if (inFlight !== undefined) {
            const outputs = inFlightOutputs(settings, undefined, inFlight, "IN_PROGRESS", progress.intended);
            return fail(outputs, cancelledWhile(`change ${inFlight.changeId} may be running: the next up waits for it`), progress);
        }
        if (progress.outputs !== undefined && statefulSet === undefined) return progress.outputs;
        if (progress.outputs !== undefined) {
            return fail(progress.outputs, cancelledWhile("the brokers' StatefulSet was brought to the applied layout: the next up finishes it"), progress);
        }
        throw new Error(`${subject(name)}: ${cancelledWhile("the layout change was not sent yet")}; the next up plans again`);
    };

    let accessChecked = false;
    for (;;) {
        let next: Act;
        try {
            const observed = await observe(progress);
            if (observed.workload !== undefined) {
                const uid = observed.workload.view.uid ?? progress.statefulSetUid;
                progress = { ...progress, ranReplicas: observed.workload.ranReplicas, ...(uid !== undefined ? { statefulSetUid: uid } : {}) };
                if (!accessChecked) {
                    const plan = { needed: replicasFor(desired.brokers), ranReplicas: observed.workload.ranReplicas, deleteVolumes };
                    await refuseMissingAccess(name, statefulSet!, neededAccess(statefulSet!, observed.workload.view, plan));
                    accessChecked = true;
                }
            }
            const step = decideNext(factsOf(observed, progress, desired, earlier));
            next = await act(step, observed, progress);
        } catch (error) {
            if (!hostSignal.aborted || isPartialFailure(error)) throw error;
            return cancelled(progress);
        }
        if ("done" in next) return next.done;
        if (hostSignal.aborted) return cancelled(next);
        if (next.round > MAX_APPLY_ROUNDS) {
            throw new Error(`${subject(name)}: the cluster kept changing under this update (${MAX_APPLY_ROUNDS} rounds of waiting and planning); run up again`);
        }
        progress = next;
    }
}

/** What the decision needs of a round's observation and of the progress so far. */
function factsOf(observed: Observation, progress: Progress, desired: DesiredLayout, earlier: KnownChange | undefined): ReconcileFacts {
    const { state, planned, workload } = observed;
    const pendingOperations = state?.pendingChange === undefined ? [] : [...state.pendingChange.completed, ...state.pendingChange.pending];
    return {
        round: progress.round,
        maxRounds: MAX_APPLY_ROUNDS,
        force: desired.force,
        desired: desired.brokers,
        read:
            state === undefined
                ? { ok: false, transient: isTransientError(observed.readError) }
                : { ok: true, members: snapshotOf(state.brokers).members, pendingChangeId: state.pendingChange?.id },
        inFlightId: progress.inFlight?.changeId,
        pendingRunsAnotherPlan: progress.inFlight !== undefined && !runsKnownPlan(progress.inFlight, pendingOperations),
        earlierId: earlier?.changeId,
        planned: planned === undefined ? undefined : planned.kind === "planned" ? (planned.empty ? "empty" : "changes") : planned.kind,
        unclearSends: progress.unclear.length,
        maxUnclearSends: MAX_UNCLEAR_SENDS,
        layoutApplied: progress.outputs !== undefined,
        replicasSetByThisUp: progress.setReplicas,
        workload: workload === undefined ? undefined : workloadFacts(workload.view, workload.pods, workload.claims, workload.controllers),
    };
}
