// The dynamic provider behind ClusterScale. Preview asks the cluster for its own plan (a dry run of exactly the
// request up would send) and prints it; up adopts the live cluster, sends that request once and waits for the
// change to complete; refresh reads the live layout back; destroy leaves the cluster as it is.
//
// Credentials: a given `auth` input is also output as `auth` (a secret in the state; see outputs.ts),
// because refresh and destroy receive only the old outputs. A changed `auth` is an update, so the outputs always
// keep the credentials the program gives now.
//
// Loaded in the provider host by the shim the state stores (see ../shared/providerShim.ts): `provider` below is a
// public entry point. The inputs' __provider, resourceName and auth never reach a request body or a log line.

import type * as pulumi from "@pulumi/pulumi";
import type { ClusterClient } from "../../sdk/cluster/clusterClient";
import { type LayoutRequest, describeLayoutRequest } from "../../sdk/cluster/layoutRequest";
import { type ChangeOutcome, waitForChange } from "../../sdk/cluster/changeWaiter";
import {
    AuthError,
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
import type { GatewayClient } from "../../sdk/cluster/gatewayClient";
import { exponentialDelay, isTransientError } from "../../sdk/http/request";
import type { ClusterState, ChangePlan } from "../../sdk/schemas";
import { claimCluster } from "./claims";
import { type ClientSettings, type Clients, clientsFor } from "./clients";
import { type ClusterScaleInputs, type DesiredLayout, type InputDefaults, checkInputs, containsUnknown, desiredLayout, requestUnknown } from "./inputs";
import {
    type ClusterScaleOutputs,
    type ClusterScaleSettings,
    type KnownChange,
    secretChanged,
    changedSettings,
    inFlightOutputs,
    outputsFrom,
    plannedChangesOf,
    settingsOf,
    withCredentials,
} from "./outputs";
import { type ClusterView, decideDiff, diffResult } from "./decision";
import { partialFailure } from "./interrupted";
import { type KubernetesRouteInput, describeRoute } from "../shared/kubernetesRouteInput";
import { availability, downRefusal, forceRemovalRefusal, notStartedNote, readLiveness, uncheckedForceRemoval } from "./liveness";
import { fingerprintOf, leftKnownLayout, runsKnownPlan } from "./ownership";
import { count, describeOperation, layoutLines, planLines, progressLine, subject } from "./messages";
import { recordedIntent, underReplicated } from "./replicas";
import {
    type LiveSnapshot,
    type PlanOutcome,
    intendedReplicationFactor,
    liveReplicationFactor,
    messageOf,
    planChange,
    removedBrokers,
    snapshotOf,
} from "./request";

/** Preview must never hang: one attempt per request, short time limit. */
const PREVIEW_TIMEOUT_MS = 10_000;
/** Apply-time rounds of "wait for the pending change, plan, send": a guard against a cluster that never settles. */
const MAX_APPLY_ROUNDS = 6;
/** Scale requests in a row whose answer left it unclear whether the cluster took them (503, 504, a reset). */
const MAX_UNCLEAR_SENDS = 3;

type Raw = Record<string, unknown>;

type Planned = Extract<PlanOutcome, { kind: "planned" }>;

/** A scale request whose answer does not tell whether the cluster took it. */
interface UnclearSend {
    /** What came back instead of an answer: a status, or what happened to the connection. */
    answer: string;
    retryAfterMs?: number;
}

/** Where the change this run waits for came from. */
type Ownership = "this run" | "an earlier run" | "elsewhere";

/** Poll answers that tell nothing about the change (a 500, a body that is not the API's) tolerated in a row. */
const MAX_UNEXPECTED_POLL_ANSWERS = 5;

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

export class ClusterScaleProvider implements pulumi.dynamic.ResourceProvider<Raw, ClusterScaleOutputs> {
    /** Stack config values read in configure (the whole stack config reaches dynamic providers). */
    private configured: Record<string, string | undefined> = {};

    async configure(request: pulumi.dynamic.ConfigureRequest): Promise<void> {
        this.configured = {
            "platform:managementUrl": request.config.get("platform:managementUrl"),
            "platform:gatewayUrl": request.config.get("platform:gatewayUrl"),
            // The Kubernetes provider's own setting, as @pulumi/kubernetes reads it: a fallback of the kubernetes route.
            "kubernetes:kubeconfig": request.config.get("kubernetes:kubeconfig"),
        };
    }

    async check(olds: Raw, news: Raw): Promise<pulumi.dynamic.CheckResult<Raw>> {
        const checked = checkInputs(olds, news, this.defaults());
        if (checked.failures.length > 0) return { failures: checked.failures };
        const inputs = checked.inputs;
        if (!containsUnknown([inputs.managementUrl, inputs.basePath, inputs.kubernetes])) {
            const holder = claimCluster(clusterIdOf(inputs), inputs.resourceName);
            if (holder !== undefined) {
                const reason = `${subject(holder)} already manages this cluster (${clusterIdOf(inputs)}): two resources on one cluster undo each other's layout on every up; declare it once`;
                return { failures: [{ property: "managementUrl", reason }] };
            }
        }
        // Preview calls nothing but check for a resource not in state: show the plan here, as diff does for the others.
        if (isEmpty(olds)) {
            if (checked.hasUnknowns) {
                say(inputs.resourceName, "some inputs are not known yet; the plan will be known at apply");
            } else {
                const failure = await this.previewNew(inputs);
                if (failure !== undefined) return { failures: [failure] };
            }
        }
        return { inputs: inputs as unknown as Raw };
    }

    async diff(_id: string, olds: ClusterScaleOutputs, news: Raw): Promise<pulumi.dynamic.DiffResult> {
        const inputs = checkedInputs(news);
        const name = inputs.resourceName;
        const brokerField = inputs.brokerCount !== undefined ? "brokerCount" : "brokers";
        if (requestUnknown(inputs)) {
            say(name, "some inputs are not known yet; the plan will be known at apply");
            return diffResult(decideDiff({ force: inputs.force === true, changedSettings: [] }), brokerField);
        }
        const settings = settingsOf(inputs);
        const changed = changedSettings(olds, settings);
        if (secretChanged(olds.auth, inputs.auth)) changed.push("auth");
        if (secretChanged(olds.tls, inputs.tls)) changed.push("tls");
        if (secretChanged(olds.kubernetes, inputs.kubernetes)) changed.push("kubernetes");
        const desired = desiredLayout(inputs, recordedIntent(olds));
        const recorded = recordedSnapshot(olds);
        const { cluster, gateway } = await this.clients(inputs, PREVIEW_TIMEOUT_MS);
        const outcome = await planChange(cluster, desired, recorded, { retry: false });
        const removes = (live: LiveSnapshot | undefined): boolean => live !== undefined && removedBrokers(desired, live).length > 0;
        const decided = (cluster: ClusterView) => decideDiff({ force: desired.force, changedSettings: changed, cluster });

        switch (outcome.kind) {
            case "rejected":
                throw new Error(`${subject(name)}: ${outcome.property}: ${outcome.reason}`);
            case "busy":
                say(name, `${pendingText(outcome.pendingChangeId)} is in progress; up will wait for it, then apply this layout`);
                return diffResult(decided({ kind: "busy", removesBrokers: removes(recorded) }), brokerField);
            case "unreachable": {
                if (previewRequiresCluster()) throw new Error(`${subject(name)}: ${requiredClusterReason(outcome.reason)}`);
                const differs = recorded === undefined || differsFromRecorded(desired, olds, recorded);
                const decision = decided({ kind: "unreachable", differs, removesBrokers: removes(recorded) });
                say(
                    name,
                    `cannot reach the management API (${outcome.reason}); compared with the recorded layout: ${decision === "none" ? "no change" : "changes"}`,
                );
                return diffResult(decision, brokerField);
            }
            case "planned": {
                const shortfall = shortfallLine(desired, outcome);
                const decision = decided({ kind: "planned", empty: outcome.empty, removesBrokers: removes(outcome.live) });
                if (outcome.empty) {
                    if (shortfall !== undefined) say(name, shortfall);
                    if (decision !== "none") {
                        say(name, `settings changed (${changed.join(", ")}); the cluster already has this layout, nothing will be sent to it`);
                    }
                    return diffResult(decision, brokerField);
                }
                const refusal = await this.previewLiveness(name, desired, outcome, gateway);
                if (refusal !== undefined) throw new Error(`${subject(name)}: force: ${refusal}`);
                if (decision === "replace") {
                    // The engine checks the replacement as a new resource right after this, and that check prints the plan.
                    say(
                        name,
                        `force removal of broker(s) ${removedBrokers(desired, outcome.live).join(", ")} replaces this resource (force is never an in-place update)`,
                    );
                } else {
                    sayLines(planLines(name, outcome.plan, "up will apply"));
                }
                if (shortfall !== undefined) say(name, shortfall);
                return diffResult(decision, brokerField);
            }
        }
    }

    async create(news: Raw): Promise<pulumi.dynamic.CreateResult<ClusterScaleOutputs>> {
        const inputs = checkedInputs(news);
        const id = clusterIdOf(inputs);
        const outs = withCredentials(await this.apply(id, inputs, undefined, news.__provider), inputs);
        return { id, outs };
    }

    async update(id: string, olds: ClusterScaleOutputs, news: Raw): Promise<pulumi.dynamic.UpdateResult<ClusterScaleOutputs>> {
        const inputs = checkedInputs(news);
        return { outs: withCredentials(await this.apply(id, inputs, olds, news.__provider), inputs) };
    }

    async read(id: string, props?: ClusterScaleOutputs): Promise<pulumi.dynamic.ReadResult<ClusterScaleOutputs>> {
        if (props === undefined || typeof props.managementUrl !== "string") {
            throw new Error(`ClusterScale ${id}: nothing recorded to refresh from (no managementUrl in state)`);
        }
        if (props.lastChange?.status === "IN_PROGRESS") {
            // The id of the change in flight must survive until the next up resumes waiting for it; the live layout is
            // in motion anyway. So refresh keeps what the interrupted run recorded and sends nothing.
            say(props.resourceName, `${interruptedNote(props)} (refresh keeps the layout recorded then)`);
            return { id, props };
        }
        const { cluster } = await this.clients({ ...settingsOf(props), auth: props.auth, tls: props.tls, kubernetes: props.kubernetes });
        const state = await this.readForRefresh(cluster, props);
        // The live broker set becomes the inputs, in the form the program used when it still fits.
        const members = snapshotOf(state.brokers).members;
        const { brokers: _brokers, brokerCount: _brokerCount, ...rest } = settingsOf(props);
        const asCount = props.brokerCount !== undefined && members.every((member, index) => member === index);
        const settings: ClusterScaleSettings = asCount ? { ...rest, brokerCount: members.length } : { ...rest, brokers: members };
        const recorded = recordedChange(props);
        const outputs = outputsFrom(settings, state, leftTheirLayout([recorded], state), recordedIntent(props));
        // The credentials stay among the outputs (for the next refresh), not among the read inputs: the program gives those.
        const inputs = { ...settings, partitionCount: outputs.partitionCount, replicationFactor: outputs.replicationFactor };
        return { id, props: withCredentials(outputs, props), inputs: inputs as unknown as ClusterScaleOutputs };
    }

    async delete(_id: string, props: ClusterScaleOutputs): Promise<void> {
        const note = props.lastChange?.status === "IN_PROGRESS" ? `${interruptedNote(props)}; ` : "";
        say(props.resourceName ?? "cluster", `${note}removed from the stack only, nothing is sent to the cluster (a cluster layout cannot be deleted)`);
    }

    /** GET the cluster for refresh; when the credentials are refused, the error says which ones and what to do. */
    private async readForRefresh(cluster: ClusterClient, props: ClusterScaleOutputs): Promise<ClusterState> {
        try {
            return await cluster.getCluster();
        } catch (error) {
            if (!(error instanceof AuthError)) throw error;
            const advice =
                props.auth === undefined
                    ? "the state keeps no credentials for this resource (it was written before ClusterScale kept its auth input, or auth was not given): run up with auth once, then refresh"
                    : "the credentials kept from the last up were refused: run up with the current auth, then refresh";
            throw new Error(`${subject(props.resourceName ?? "cluster")}: refresh: ${messageOf(error)}; ${advice}`);
        }
    }

    /** The SDK clients; a kubeconfig that cannot be used fails naming the kubernetes input. */
    private async clients(settings: ClientSettings, timeoutMs?: number): Promise<Clients> {
        try {
            return await clientsFor(settings, timeoutMs, this.configured["kubernetes:kubeconfig"]);
        } catch (error) {
            throw new Error(`${subject(settings.resourceName)}: kubernetes: ${messageOf(error)}`);
        }
    }

    private defaults(): InputDefaults {
        const configured = this.configured;
        return { config: { get: (key) => configured[key] }, env: process.env };
    }

    /** The first preview of a resource not in state: the one dry run create would send, printed as a plan. */
    private async previewNew(inputs: ClusterScaleInputs): Promise<{ property: string; reason: string } | undefined> {
        const name = inputs.resourceName;
        let clients: Clients;
        try {
            clients = await this.clients(inputs, PREVIEW_TIMEOUT_MS);
        } catch (error) {
            return { property: "kubernetes", reason: messageOf(error).replace(`${subject(name)}: kubernetes: `, "") };
        }
        const { cluster, gateway } = clients;
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
                    const refusal = await this.previewLiveness(name, desired, outcome, gateway);
                    if (refusal !== undefined) return { property: "force", reason: refusal };
                    sayLines(planLines(name, outcome.plan, "up will apply"));
                }
                const shortfall = shortfallLine(desired, outcome);
                if (shortfall !== undefined) say(name, shortfall);
                return undefined;
            }
        }
    }

    /**
     * Preview's look at which brokers run, for a plan that changes something: the refusal of a force removal of a
     * running broker; for a change without force, the lines saying which brokers it needs are down or not started.
     */
    private async previewLiveness(name: string, desired: DesiredLayout, outcome: Planned, gateway: GatewayClient | undefined): Promise<string | undefined> {
        const liveness = await readLiveness(gateway, PREVIEW_TIMEOUT_MS);
        if (desired.force) {
            const removed = removedBrokers(desired, outcome.live);
            const refusal = forceRemovalRefusal(removed, liveness);
            if (refusal === undefined && !liveness.known && removed.length > 0) say(name, uncheckedForceRemoval(removed, liveness.reason));
            return refusal;
        }
        const state = availability(outcome.live.members, desired.brokers, liveness);
        const refusal = downRefusal(state);
        if (refusal !== undefined) say(name, `up will refuse this change until every broker it needs runs: ${refusal}`);
        const waiting = notStartedNote(state);
        if (waiting !== undefined) say(name, waiting);
        return undefined;
    }

    /**
     * Up's look at which brokers run, right before the request is sent: throws (nothing sent) when a force removal
     * would remove a running broker, or a change without force needs a broker that is down.
     */
    private async applyLiveness(name: string, desired: DesiredLayout, planned: Planned, gateway: GatewayClient | undefined): Promise<void> {
        const liveness = await readLiveness(gateway, PREVIEW_TIMEOUT_MS);
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
    private async apply(id: string, inputs: ClusterScaleInputs, olds: ClusterScaleOutputs | undefined, provider: unknown): Promise<ClusterScaleOutputs> {
        const name = inputs.resourceName;
        const settings = settingsOf(inputs);
        const { cluster, gateway } = await this.clients(inputs);
        const desired = desiredLayout(inputs, recordedIntent(olds));
        // The replication factor the outputs record as intended; on a create without the input, the most replicas
        // a partition has before the change (a force removal lowers only some partitions).
        let intended = desired.replicationFactor ?? desired.recordedReplicationFactor;
        const deadline = Date.now() + inputs.timeoutSeconds * 1000;
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
            let state: ClusterState | undefined;
            try {
                state = await cluster.getCluster();
            } catch (error) {
                const reason = `cannot read the cluster: ${messageOf(error).replace(/\.$/, "")}`;
                // A change of this resource may be running (sent with no clear answer, or left by an earlier run): keep its id.
                if (inFlight !== undefined)
                    fail(
                        inFlightOutputs(settings, undefined, inFlight, "IN_PROGRESS", intended),
                        `${reason}; change ${inFlight.changeId} may be running: the next up waits for it`,
                    );
                // Reading goes through the lowest broker, which a force removal may be removing because it is gone; the
                // force request itself goes to the lowest broker it keeps. So a force removal goes on from its dry run.
                if (!desired.force || !isTransientError(error)) throw new Error(`${subject(name)}: ${reason}${round === 1 ? ". Nothing was sent." : ""}`);
                say(name, `${reason}; a force removal is sent to the lowest broker it keeps, so it is planned from its own dry run`);
            }
            if (state?.pendingChange !== undefined) {
                const pendingId = state.pendingChange.id;
                const operations = [...state.pendingChange.completed, ...state.pendingChange.pending];
                if (inFlight?.changeId === pendingId && !runsKnownPlan(inFlight, operations)) {
                    say(
                        name,
                        `change ${pendingId} has the id of a change of this resource but another plan (a rebuilt cluster numbers its changes anew); it is treated as another client's change`,
                    );
                    inFlight = undefined;
                }
                if (inFlight?.changeId === pendingId && inFlight.plannedChanges.length === 0) {
                    // Its plan did not fit in the state of an earlier partial failure: the cluster still lists it.
                    inFlight = { ...inFlight, plannedChanges: plannedChangesOf(operations) };
                }
                const mine = inFlight?.changeId === pendingId ? inFlight : undefined;
                const ownership: Ownership = mine === undefined ? "elsewhere" : pendingId === earlier?.changeId ? "an earlier run" : "this run";
                if (mine === undefined) waited = { changeId: pendingId, plannedChanges: plannedChangesOf(operations) };
                // "Elsewhere" includes a run of this resource that was killed before it could record its change.
                const origin = ownership === "elsewhere" ? "outside this resource, or by an interrupted run" : `by ${ownership}`;
                say(name, `change ${pendingId} (started ${origin}) is in progress; waiting for it before planning`);
                const current = state;
                await this.waitFor({
                    name,
                    cluster,
                    changeId: pendingId,
                    deadline,
                    timeoutSeconds: inputs.timeoutSeconds,
                    ownership,
                    cancelOnTimeout: inputs.cancelOnTimeout,
                    onFailure: mine && ((reason, status, last) => fail(inFlightOutputs(settings, last ?? current, mine, status, intended), reason)),
                });
                continue;
            }

            const planned = await planChange(cluster, desired, state === undefined ? undefined : snapshotOf(state.brokers), {});
            if (planned.kind === "busy") {
                if (state === undefined)
                    throw new Error(
                        `${subject(name)}: ${pendingText(planned.pendingChangeId)} is in progress and the cluster cannot be read to wait for it. Nothing was sent.`,
                    );
                continue;
            }
            if (planned.kind === "unreachable") {
                if (round === MAX_APPLY_ROUNDS) throw new Error(`${subject(name)}: cannot plan the change: ${planned.reason}. Nothing was sent.`);
                // A dry run changes nothing, so asking again is safe.
                await pause(exponentialDelay(round, 200, 2_000));
                continue;
            }
            if (planned.kind === "rejected") throw new Error(`${subject(name)}: ${planned.property}: ${planned.reason}. Nothing was sent.`);
            intended ??= planned.live.mostReplicas > 0 ? planned.live.mostReplicas : undefined;
            if (planned.empty) {
                if (state === undefined)
                    throw new Error(`${subject(name)}: cannot read the cluster, and the force removal has nothing to remove. Nothing was sent.`);
                say(name, `the cluster has the requested layout (${describeLayout(state)}); nothing to send`);
                return outputsFrom(settings, state, leftTheirLayout([inFlight, waited, recorded], state), intended);
            }
            await this.applyLiveness(name, desired, planned, gateway);
            if (unclear.length >= MAX_UNCLEAR_SENDS) {
                throw new Error(
                    `${subject(name)}: the management API answered ${describeAnswers(unclear)}; nothing was applied (the cluster shows no change from these requests). Run up again when it answers.`,
                );
            }

            const accepted = await this.send(name, cluster, planned.request, planned.plan);
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
            const outcome = await this.waitFor({
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
    private async send(name: string, cluster: ClusterClient, request: LayoutRequest, dryRun: ChangePlan): Promise<ChangePlan | UnclearSend | "conflict"> {
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
    private async waitFor(options: WaitOptions): Promise<ChangeOutcome | undefined> {
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
            return this.waitEnded(options, error);
        }
    }

    /** A wait that ended without the change completing: plan again (undefined), or fail as the change's owner says. */
    private async waitEnded(options: WaitOptions, error: unknown): Promise<undefined> {
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
            const cancelled = options.cancelOnTimeout ? await this.cancel(name, cluster, changeId) : undefined;
            const advice = cancelled
                ? "it was cancelled (cancelOnTimeout); operations already applied stay applied, run up again to plan anew"
                : "it keeps running: the next up waits for it instead of sending a new request";
            const late = `change ${changeId} did not complete within timeoutSeconds (${options.timeoutSeconds} s)${describeProgress(error.progress)}`;
            return onFailure(`${late}; ${advice}`, cancelled ? "CANCELLED" : "IN_PROGRESS", cancelled ?? (await this.tryRead(cluster)));
        }
        if (error instanceof ChangeCancelledError || error instanceof ChangeFailedError) {
            return onFailure(
                `${messageOf(error)}; run up again to plan anew`,
                error instanceof ChangeCancelledError ? "CANCELLED" : error.changeStatus,
                await this.tryRead(cluster),
            );
        }
        // Whatever else went wrong, the change was started: keep its id so the next up waits for it.
        return onFailure(`waiting for change ${changeId} failed: ${messageOf(error)}; the next up waits for it again`, "IN_PROGRESS", undefined);
    }

    private async cancel(name: string, cluster: ClusterClient, changeId: number): Promise<ClusterState | undefined> {
        try {
            const state = await cluster.cancelChange(changeId);
            say(name, `change ${changeId} cancelled after the timeout (cancelOnTimeout)`);
            return state;
        } catch (error) {
            say(name, `could not cancel change ${changeId}: ${messageOf(error)}`);
            return undefined;
        }
    }

    private async tryRead(cluster: ClusterClient): Promise<ClusterState | undefined> {
        try {
            return await cluster.getCluster({ retry: false, timeoutMs: 5_000 });
        } catch {
            return undefined;
        }
    }
}

/** The provider object every ClusterScale of the host process shares. */
export const clusterScaleProvider = new ClusterScaleProvider();

/** The entry point the serialized shim requires (ENTRY_POINTS.clusterScale): a public contract, keep the name. */
export const provider = clusterScaleProvider;

/** diff, create and update get back exactly what check returned (plus __provider): the checked inputs. */
function checkedInputs(news: Raw): ClusterScaleInputs {
    return news as unknown as ClusterScaleInputs;
}

function isEmpty(olds: Raw): boolean {
    return Object.keys(olds).every((key) => key === "__provider");
}

/** What refresh and destroy say about a change this resource started that had not completed. */
function interruptedNote(props: ClusterScaleOutputs): string {
    return `change ${props.changeId} had not completed when last applied; run up to resume waiting for it`;
}

/** The last change as the old outputs record it (its plan cut to its first operations). */
function recordedChange(olds: ClusterScaleOutputs): KnownChange {
    return { changeId: olds.changeId, plannedChanges: olds.plannedChanges ?? [], operationCount: olds.plannedChangeCount, fingerprint: olds.changeFingerprint };
}

/** The layout recorded in old outputs, if any. */
function recordedSnapshot(olds: ClusterScaleOutputs): LiveSnapshot | undefined {
    if (!Array.isArray(olds.topology) || olds.topology.length === 0 || typeof olds.partitionCount !== "number") return undefined;
    return snapshotOf(olds.topology);
}

/** PLATFORM_PREVIEW_REQUIRE_CLUSTER: a preview (a pull request's) must show the cluster's own plan or fail. */
function previewRequiresCluster(): boolean {
    return ["true", "1", "yes"].includes((process.env.PLATFORM_PREVIEW_REQUIRE_CLUSTER ?? "").trim().toLowerCase());
}

function requiredClusterReason(reason: string): string {
    return `cannot reach the management API (${reason}), and PLATFORM_PREVIEW_REQUIRE_CLUSTER asks for the cluster's own plan: no preview without it`;
}

/** The resource's id: the cluster's management endpoint, by URL or by its Kubernetes service. */
function clusterIdOf(settings: { managementUrl: string; basePath: string; kubernetes?: KubernetesRouteInput }): string {
    return `${settings.kubernetes === undefined ? settings.managementUrl : describeRoute(settings.kubernetes)}${settings.basePath}`;
}

/** Known changes, less those with the cluster's last change id that did not leave the layout they planned (another cluster's). */
function leftTheirLayout(known: readonly (KnownChange | undefined)[], state: ClusterState): KnownChange[] {
    return known.filter(
        (change): change is KnownChange => change !== undefined && (change.changeId !== state.lastChange?.id || leftKnownLayout(change, state.brokers)),
    );
}

/** The line about partitions that run below the intended replication factor (after a force removal), if any do. */
function shortfallLine(desired: DesiredLayout, outcome: Planned): string | undefined {
    const intended = intendedReplicationFactor(desired, outcome.live);
    const shortfall = underReplicated(outcome.plan.currentTopology, intended);
    if (shortfall === undefined) return undefined;
    const which = `${shortfall.partitions.length === 1 ? "partition" : "partitions"} ${shortfall.partitions.join(", ")}`;
    const what = `${which} ${shortfall.partitions.length === 1 ? "runs" : "run"} with ${count(shortfall.fewest, "replica")}, below the intended replication factor ${intended}`;
    if (desired.force) return `${what}: set force back to false and up restores them`;
    return outcome.empty ? what : `${what}; this change restores them`;
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

function differsFromRecorded(desired: DesiredLayout, olds: ClusterScaleOutputs, recorded: LiveSnapshot): boolean {
    if (JSON.stringify(desired.brokers) !== JSON.stringify(recorded.members)) return true;
    if (desired.partitionCount !== undefined && desired.partitionCount !== recorded.partitionCount) return true;
    return desired.replicationFactor !== undefined && desired.replicationFactor !== olds.replicationFactor;
}

function describeLayout(state: ClusterState): string {
    const snapshot = snapshotOf(state.brokers);
    return `${count(snapshot.members.length, "broker")}, ${count(snapshot.partitionCount, "partition")}, replication factor ${liveReplicationFactor(state.brokers)}, configuration version ${state.version}`;
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

function pendingText(changeId: number | undefined): string {
    return changeId === undefined ? "another change" : `change ${changeId}`;
}

function say(resourceName: string, text: string): void {
    console.log(`${subject(resourceName)}: ${text}`);
}

/** One write, so a block is never interleaved with another resource's lines. */
function sayLines(lines: string[]): void {
    console.log(lines.join("\n"));
}
