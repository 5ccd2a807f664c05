// The dynamic provider behind ClusterScale. Preview asks the cluster for its own plan (a dry run of exactly the
// request up would send) and prints it; up adopts the live cluster, sends that request once and waits for the
// change to complete; refresh reads the live layout back; destroy leaves the cluster as it is. The methods are
// thin: check's rules are in inputs.ts, diff's decision in decision.ts, what preview prints in preview.ts, and
// create and update in apply.ts.
//
// Passes: the engine checks and diffs every resource twice in an `up` (its preview pass first, then the update,
// each with hosts of its own), and diffs without checking in a refresh. What preview shows (the plan, the notes) is
// printed in the preview pass only, so an `up` reads: the plan once, then the update's own lines. A refresh's diff
// sends nothing and refuses nothing: it says where the cluster differs from the program (see passes.ts, drift.ts).
//
// Credentials: a given `auth` input is also output as `auth` (a secret in the state; see outputs.ts),
// because refresh and destroy receive only the old outputs. A changed `auth` is an update, so the outputs always
// keep the credentials the program gives now.
//
// Loaded in the provider host by the shim the state stores (see ../shared/providerShim.ts): `provider` below is a
// public entry point. The inputs' __provider, resourceName and auth never reach a request body or a log line.

import type * as pulumi from "@pulumi/pulumi";
import type { ClusterClient } from "../../sdk/cluster/clusterClient";
import { AuthError } from "../../sdk/errors";
import type { ChangePlan, ClusterState } from "../../sdk/schemas";
import { asResourceFailures } from "../shared/checkFailures";
import { claimOnce } from "../shared/claims";
import { type ClientSettings, type Clients, clientsFor } from "./clients";
import { type ClusterScaleInputs, type InputDefaults, checkInputs, containsUnknown, desiredLayout, requestUnknown } from "./inputs";
import { type ClusterScaleOutputs, type ClusterScaleSettings, changedSettings, outputsFrom, recordedChange, settingsOf, withCredentials } from "./outputs";
import { secretChanged } from "../shared/secretChanged";
import { type ClusterView, decideDiff, diffResult } from "./decision";
import { staleLine, staleRecord } from "./staleRecord";
import { driftLine, driftOf } from "./drift";
import { PassLog, isNew } from "../shared/passes";
import { type KubernetesRouteInput, describeRoute, serviceRoute } from "../shared/kubernetesRouteInput";
import { recordedIntent } from "./replicas";
import { type LiveSnapshot, planChange, removedBrokers, snapshotOf } from "./request";
import { messageOf } from "../shared/messageOf";
import { attachToDynamicProviderHost } from "../shared/hostLifetime";
import { reconcile } from "./reconcile";
import { previewRollout } from "./kubernetes/statefulSetPreview";
import { type Say, interruptedNote, pendingText, planLines, quiet, say, sayLines, subject } from "./messages";
import { leftTheirLayout } from "./ownership";
import { PREVIEW_TIMEOUT_MS, differsFromRecorded, previewLiveness, previewNew, previewRequiresCluster, requiredClusterReason, shortfallLine } from "./preview";

type Raw = Record<string, unknown>;

export class ClusterScaleProvider implements pulumi.dynamic.ResourceProvider<Raw, ClusterScaleOutputs> {
    /** Stack config values read in configure (the whole stack config reaches dynamic providers). */
    private configured: Record<string, string | undefined> = {};
    /** The resources this host checked, and in which pass. */
    private readonly passes = new PassLog();

    async configure(request: pulumi.dynamic.ConfigureRequest): Promise<void> {
        attachToDynamicProviderHost();
        this.configured = {
            "platform:managementUrl": request.config.get("platform:managementUrl"),
            "platform:gatewayUrl": request.config.get("platform:gatewayUrl"),
            // The Kubernetes provider's own setting, as @pulumi/kubernetes reads it: a fallback of the kubernetes route.
            "kubernetes:kubeconfig": request.config.get("kubernetes:kubeconfig"),
        };
    }

    async check(olds: Raw, news: Raw): Promise<pulumi.dynamic.CheckResult<Raw>> {
        const result = await this.checkNews(olds, news);
        return result.failures ? { ...result, failures: asResourceFailures(result.failures) } : result;
    }

    private async checkNews(olds: Raw, news: Raw): Promise<pulumi.dynamic.CheckResult<Raw>> {
        const checked = checkInputs(olds, news, this.defaults());
        if (checked.failures.length > 0) return { failures: checked.failures };
        const inputs = checked.inputs;
        if (!containsUnknown([inputs.managementUrl, inputs.basePath, inputs.kubernetes])) {
            const holder = claimOnce("cluster layout", clusterIdOf(inputs), inputs.resourceName);
            if (holder !== undefined) {
                const reason = `${subject(holder)} already manages this cluster (${clusterIdOf(inputs)}): two resources on one cluster undo each other's layout on every up; declare it once`;
                return { failures: [{ property: "managementUrl", reason }] };
            }
        }
        // The program says whether it runs a preview (the dryRun the resource passes); the checked inputs leave it out.
        const dryRun = news.dryRun === true;
        this.passes.recordCheck(passKey(inputs), dryRun);
        // Preview calls nothing but check for a resource not in state: show the plan here, as diff does for the others.
        // The update that follows a preview plans again when it creates the resource.
        if (isNew(olds) && dryRun) {
            if (checked.hasUnknowns) {
                say(inputs.resourceName, "some inputs are not known yet; the plan will be known at apply");
            } else {
                const failure = await previewNew(inputs, () => this.clients(inputs, PREVIEW_TIMEOUT_MS));
                if (failure !== undefined) return { failures: [failure] };
            }
        }
        return { inputs: inputs as unknown as Raw };
    }

    async diff(_id: string, olds: ClusterScaleOutputs, news: Raw): Promise<pulumi.dynamic.DiffResult> {
        const inputs = checkedInputs(news);
        const name = inputs.resourceName;
        const brokerField = inputs.brokerCount !== undefined ? "brokerCount" : "brokers";
        const pass = this.passes.passOf(passKey(inputs));
        if (pass === "refresh") return refreshDiff(inputs, olds);
        // The update after a preview decides again, silently: the preview showed the plan, the update shows its own lines.
        const preview = pass === "preview";
        const tell: Say = preview ? say : quiet;
        if (requestUnknown(inputs)) {
            tell(name, "some inputs are not known yet; the plan will be known at apply");
            return diffResult(decideDiff({ force: inputs.force === true, changedSettings: [] }), brokerField);
        }
        const settings = settingsOf(inputs);
        const changed = changedSettings(olds, settings);
        if (secretChanged(olds.auth, inputs.auth)) changed.push("auth");
        if (secretChanged(olds.tls, inputs.tls)) changed.push("tls");
        if (secretChanged(olds.kubernetes, inputs.kubernetes)) changed.push("kubernetes");
        const desired = desiredLayout(inputs, recordedIntent(olds));
        const recorded = recordedSnapshot(olds);
        const inFlight = olds.lastChange?.status === "IN_PROGRESS";
        const { cluster, gateway, statefulSet } = await this.clients(inputs, PREVIEW_TIMEOUT_MS);
        const outcome = await planChange(cluster, desired, recorded, { retry: false });
        const removes = (live: LiveSnapshot | undefined): boolean => live !== undefined && removedBrokers(desired, live).length > 0;
        // The StatefulSet's steps, shown after the plan (the preview's own lines) and deciding an update by themselves.
        let workloadPending = false;
        const showRollout = async (plan: ChangePlan) => {
            if (statefulSet === undefined) return;
            const workload = {
                delete: inputs.kubernetes?.volumesOfRemovedBrokers === "delete",
                recordedReplicas: olds.statefulSetReplicas,
                recordedUid: olds.statefulSetUid,
                gitOpsRecipes: inputs.kubernetes?.gitOpsRecipes ?? [],
            };
            workloadPending = (await previewRollout(tell, name, statefulSet, desired.brokers, plan.currentTopology, workload)).pending;
        };
        let stale: string[] = [];
        const decided = (cluster: ClusterView) =>
            decideDiff({ force: desired.force, changedSettings: changed, inFlight, workloadPending, staleRecord: stale.length > 0, cluster });

        switch (outcome.kind) {
            case "rejected":
                throw new Error(`${subject(name)}: ${outcome.property}: ${outcome.reason}`);
            case "busy":
                tell(name, `${pendingText(outcome.pendingChangeId)} is in progress; up will wait for it, then apply this layout`);
                return diffResult(decided({ kind: "busy", removesBrokers: removes(recorded) }), brokerField);
            case "unreachable": {
                if (previewRequiresCluster()) throw new Error(`${subject(name)}: ${requiredClusterReason(outcome.reason)}`);
                const differs = recorded === undefined || differsFromRecorded(desired, olds, recorded);
                const decision = decided({ kind: "unreachable", differs, removesBrokers: removes(recorded) });
                tell(
                    name,
                    `cannot reach the management API (${outcome.reason}); compared with the recorded layout: ${decision === "none" ? "no change" : "changes"}`,
                );
                return diffResult(decision, brokerField);
            }
            case "planned": {
                const shortfall = shortfallLine(desired, outcome);
                stale = staleRecord(olds, outcome.plan.currentTopology, desired);
                if (outcome.empty) await showRollout(outcome.plan);
                const decision = decided({ kind: "planned", empty: outcome.empty, removesBrokers: removes(outcome.live) });
                if (outcome.empty) {
                    if (shortfall !== undefined) tell(name, shortfall);
                    if (changed.length > 0) {
                        tell(name, `settings changed (${changed.join(", ")}); the cluster already has this layout, nothing will be sent to it`);
                    } else if (inFlight) {
                        tell(name, `change ${olds.changeId} is recorded as in progress (an earlier up timed out); up will record how it ended`);
                    } else if (stale.length > 0) {
                        tell(name, staleLine(stale));
                    }
                    return diffResult(decision, brokerField);
                }
                // The update refuses (or notes) the same itself, right before it sends.
                const refusal = preview ? await previewLiveness(tell, name, desired, outcome, gateway, statefulSet !== undefined) : undefined;
                if (refusal !== undefined) throw new Error(`${subject(name)}: force: ${refusal}`);
                if (decision === "replace") {
                    // The engine checks the replacement as a new resource right after this, and that check prints the plan.
                    tell(
                        name,
                        `force removal of broker(s) ${removedBrokers(desired, outcome.live).join(", ")} replaces this resource (force is never an in-place update)`,
                    );
                } else if (preview) {
                    sayLines(planLines(name, outcome.plan, "up will apply"));
                }
                if (!outcome.empty) await showRollout(outcome.plan);
                if (shortfall !== undefined) tell(name, shortfall);
                return diffResult(decision, brokerField);
            }
        }
    }

    async create(news: Raw): Promise<pulumi.dynamic.CreateResult<ClusterScaleOutputs>> {
        const inputs = checkedInputs(news);
        const id = clusterIdOf(inputs);
        const outs = withCredentials(await reconcile(await this.clients(inputs), id, inputs, undefined, news.__provider), inputs);
        return { id, outs };
    }

    async update(id: string, olds: ClusterScaleOutputs, news: Raw): Promise<pulumi.dynamic.UpdateResult<ClusterScaleOutputs>> {
        const inputs = checkedInputs(news);
        return { outs: withCredentials(await reconcile(await this.clients(inputs), id, inputs, olds, news.__provider), inputs) };
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
        // What this resource ran is not what refresh reads: a kill before the removed brokers' claims went leaves them owed.
        if (props.statefulSetReplicas !== undefined) outputs.statefulSetReplicas = props.statefulSetReplicas;
        if (props.statefulSetUid !== undefined) outputs.statefulSetUid = props.statefulSetUid;
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
}

/** The provider object every ClusterScale of the host process shares. */
export const clusterScaleProvider = new ClusterScaleProvider();

/** The entry point the serialized shim requires (ENTRY_POINTS.clusterScale): a public contract, keep the name. */
export const provider = clusterScaleProvider;

/** diff, create and update get back exactly what check returned (plus __provider): the checked inputs. */
function checkedInputs(news: Raw): ClusterScaleInputs {
    return news as unknown as ClusterScaleInputs;
}

/** How the pass log knows a resource: its name and its cluster. */
function passKey(inputs: ClusterScaleInputs): string {
    return `${inputs.resourceName} ${clusterIdOf(inputs)}`;
}

/**
 * A refresh's diff: the program's old inputs against the cluster as the read found it. Nothing is asked, nothing
 * refused (refresh never fails because the cluster differs from the program); the differences are shown.
 */
function refreshDiff(program: ClusterScaleInputs, live: ClusterScaleOutputs): pulumi.dynamic.DiffResult {
    const drift = driftOf(program, live);
    if (drift.length > 0) say(program.resourceName, driftLine(drift));
    return { changes: drift.length > 0 };
}

/** The layout recorded in old outputs, if any. */
function recordedSnapshot(olds: ClusterScaleOutputs): LiveSnapshot | undefined {
    if (!Array.isArray(olds.topology) || olds.topology.length === 0 || typeof olds.partitionCount !== "number") return undefined;
    return snapshotOf(olds.topology);
}

/** The resource's id: the cluster's management endpoint, by URL or by its Kubernetes service. */
function clusterIdOf(settings: { managementUrl: string; basePath: string; kubernetes?: KubernetesRouteInput }): string {
    const route = serviceRoute(settings.kubernetes);
    return `${route === undefined ? settings.managementUrl : describeRoute(route)}${settings.basePath}`;
}
