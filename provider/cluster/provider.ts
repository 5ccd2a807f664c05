// The dynamic provider behind Cluster: a hosted cluster of the organization. check resolves the creation parameters
// (GET /clusters/parameters, once per provider host) and, for a cluster not in the stack yet, makes sure none of the same
// name exists (a killed up leaves no id in the stack, only the cluster it created): one that does is refused, naming it
// and the input that takes it over (existingClusterId). create sends POST /clusters once and waits until the cluster
// is Healthy twice in a row; a cluster that ends in another state, or outlasts timeoutSeconds, stays in the stack (a
// partial failure) so that the next up waits for the same cluster. What up does to an existing cluster is decided in
// decision.ts from the cluster as read now.
//
// Loaded in the provider host by the shim the state stores (see ../shared/providerShim.ts): `provider` below is a
// public entry point.

import type * as pulumi from "@pulumi/pulumi";
import type { AdminApiClient, CreateClusterRequest } from "../../sdk/adminApiClient";
import type { Cluster } from "../../sdk/adminSchemas";
import { waitForClusterGone, waitForClusterHealthy } from "../../sdk/admin/clusterWaits";
import { HostedClusterStateError, PlatformError } from "../../sdk/errors";
import { AdminProvider, type Tell, partialFailure } from "../shared/adminProvider";
import { cancelledWhile, messageOf } from "../shared/messageOf";
import { hostSignal } from "../shared/hostLifetime";
import { isNew } from "../shared/passes";
import { asResourceFailures } from "../shared/checkFailures";
import { secretChanged } from "../shared/secretChanged";
import { containsUnknown } from "../shared/unknowns";
import { ClusterDecision, ClusterInputs, decideCluster, fixedChanges, stageOf } from "./decision";
import { checkClusterInputs } from "./inputs";
import { ClusterOutputs, clusterOutputs } from "./outputs";
import { resolveParameters } from "./resolve";

type Raw = Record<string, unknown>;

export class ClusterProvider extends AdminProvider<ClusterInputs, ClusterOutputs> implements pulumi.dynamic.ResourceProvider<Raw, ClusterOutputs> {
    protected readonly typeName = "Cluster";
    /** Clusters this host is replacing, by resource name: the replacement may share the old one's name. */
    private readonly replacing = new Map<string, string>();

    async check(olds: Raw, news: Raw): Promise<pulumi.dynamic.CheckResult<Raw>> {
        const { given, failures } = checkClusterInputs(news, this.stackConfig, process.env);
        if (given === undefined) return { failures: asResourceFailures(failures) };
        const name = given.resourceName;
        const dryRun = news.dryRun === true;
        this.passes.recordCheck(name, dryRun);
        if (containsUnknown(given)) {
            if (dryRun && isNew(olds)) this.say(name, "some inputs are not known yet; up will resolve them and create the cluster");
            return { inputs: given as unknown as Raw };
        }
        const api = this.api(name, given.credentials);
        const parameters = await this.call(name, "read the creation parameters (GET /clusters/parameters)", () => api.getClusterParameters());
        const resolved = resolveParameters(given, parameters);
        if (resolved.resolved === undefined) return { failures: asResourceFailures(resolved.failures) };
        const inputs: ClusterInputs = { ...given, ...resolved.resolved };
        if (isNew(olds)) {
            const plan = await this.planNew(inputs, api);
            if ("refusal" in plan) return { failures: asResourceFailures([{ property: "", reason: plan.refusal }]) };
            if (dryRun) this.say(name, plan.line);
        }
        return { inputs: inputs as unknown as Raw };
    }

    protected async changeDiff(inputs: ClusterInputs, olds: ClusterOutputs, tell: Tell): Promise<pulumi.dynamic.DiffResult> {
        const name = inputs.resourceName;
        if (containsUnknown(inputs)) {
            tell(name, "some inputs are not known yet; up will decide");
            return { changes: true };
        }
        const api = this.api(name, inputs.credentials);
        const live = await this.call(name, `read cluster ${olds.clusterId}`, () => api.findCluster(olds.clusterId));
        const decision = decideCluster(inputs, live, false, olds.stageLabel);
        const settingsChanged = secretChanged(olds.credentials, inputs.credentials) || olds.timeoutSeconds !== inputs.timeoutSeconds;
        switch (decision.kind) {
            case "gone":
                tell(name, `cluster ${olds.name} (${olds.clusterId}) no longer exists (deleted outside the stack): up creates it again`);
                this.replacing.set(name, olds.clusterId);
                return { changes: true, replaces: ["clusterId"] };
            case "replace":
                tell(
                    name,
                    `replacing deletes cluster ${olds.name} (${olds.clusterId}) and all its data (${decision.changes.join(", ")}): up creates the new cluster, then deletes this one`,
                );
                this.replacing.set(name, olds.clusterId);
                return { changes: true, replaces: replacedInputs(inputs, live!) };
            case "refuse":
                throw new Error(`${this.subject(name)}: ${decision.reason}`);
            case "update":
                tell(name, `updates cluster ${olds.clusterId}: ${decision.changes.join(", ")}`);
                return { changes: true };
            case "none":
                if (settingsChanged) tell(name, "credentials or timeoutSeconds changed: up records them, sending nothing to the cluster");
                return { changes: settingsChanged };
        }
    }

    async create(news: Raw): Promise<pulumi.dynamic.CreateResult<ClusterOutputs>> {
        const inputs = news as unknown as ClusterInputs;
        const name = inputs.resourceName;
        const api = this.api(name, inputs.credentials);
        let clusterId: string;
        if (inputs.existingClusterId !== undefined) {
            clusterId = inputs.existingClusterId;
            const live = await this.call(name, `read cluster ${clusterId}`, () => api.findCluster(clusterId, { reread: true }));
            const decision = decideCluster(inputs, live, true);
            this.say(name, `taking over cluster ${clusterId} (${live?.name ?? "?"}, ${live?.status.ready ?? "?"})${changesText(decision)}`);
            await this.act(inputs, api, clusterId, decision, news.__provider);
        } else {
            clusterId = await this.createOnce(inputs, api);
        }
        return { id: clusterId, outs: await this.waitHealthy(inputs, api, clusterId, news.__provider, inputs.stageLabel) };
    }

    async update(id: string, olds: ClusterOutputs, news: Raw): Promise<pulumi.dynamic.UpdateResult<ClusterOutputs>> {
        const inputs = news as unknown as ClusterInputs;
        const name = inputs.resourceName;
        const api = this.api(name, inputs.credentials);
        const live = await this.call(name, `read cluster ${id}`, () => api.findCluster(id, { reread: true }));
        if (live === undefined)
            throw new Error(
                `${this.subject(name)}: cluster ${id} no longer exists (deleted outside the stack): refresh removes it from the stack, then up creates it again`,
            );
        const decision = decideCluster(inputs, live, false, olds.stageLabel);
        if (decision.kind === "update") this.say(name, `updating cluster ${id}: ${decision.changes.join(", ")}`);
        await this.act(inputs, api, id, decision, news.__provider);
        return { outs: await this.waitHealthy(inputs, api, id, news.__provider, inputs.stageLabel ?? olds.stageLabel) };
    }

    /** Refresh: every field read back; a cluster deleted elsewhere leaves the stack. */
    async read(id: string, props?: ClusterOutputs): Promise<pulumi.dynamic.ReadResult<ClusterOutputs>> {
        const { name, api, state } = this.recorded(id, props);
        const live = await this.call(name, `read cluster ${id}`, () => api.findCluster(id, { reread: true }));
        if (live === undefined) {
            this.say(name, `cluster ${state.name} (${id}) no longer exists: refresh removes it from the stack`);
            return { id: "", props: {} as ClusterOutputs };
        }
        if (state.stageLabel !== undefined && stageOf(live) === undefined) {
            this.say(
                name,
                `the administration API shows no stage label for cluster ${id}: refresh cannot see it, and keeps the one this stack set (${state.stageLabel})`,
            );
        }
        return { id, props: clusterOutputs(live, state, state.stageLabel) };
    }

    async delete(id: string, props: ClusterOutputs): Promise<void> {
        const { name, api } = this.recorded(id, props);
        const removal = await this.call(name, `delete cluster ${id}`, () => api.deleteCluster(id));
        if (removal === "absent") {
            this.say(name, `cluster ${props.name} (${id}) was already gone`);
            return;
        }
        this.say(name, `deleting cluster ${props.name} (${id}) and its data: waiting until it is gone (at most ${props.timeoutSeconds} s)`);
        await this.call(name, `see cluster ${id} gone`, () =>
            waitForClusterGone(api, id, {
                timeoutMs: props.timeoutSeconds * 1000,
                signal: hostSignal,
                onStatus: (status, ms) => this.say(name, `cluster ${id}: ${status} (${seconds(ms)})`),
            }),
        );
        this.say(name, `cluster ${props.name} (${id}) deleted`);
    }

    /**
     * For a cluster not in the stack: a refusal, or what up will do. Without existingClusterId no cluster of the same
     * name may exist (except the one this host is replacing); with it, the cluster must exist and match what only
     * creation sets.
     */
    private async planNew(inputs: ClusterInputs, api: AdminApiClient): Promise<{ refusal: string } | { line: string }> {
        const name = inputs.resourceName;
        if (inputs.existingClusterId !== undefined) {
            const live = await this.call(name, `read cluster ${inputs.existingClusterId}`, () => api.findCluster(inputs.existingClusterId!));
            const decision = decideCluster(inputs, live, true);
            if (decision.kind === "refuse") return { refusal: decision.reason };
            return { line: `takes over cluster ${live!.uuid} (${live!.name}, ${live!.status.ready})${changesText(decision)}; up waits until it is Healthy` };
        }
        const same = await this.sameName(inputs, api, false);
        if (same !== undefined) return { refusal: sameNameRefusal(inputs, same) };
        return {
            line: `creates cluster ${inputs.name} (${inputs.planTypeName} in ${inputs.regionName}, channel ${inputs.channelName}, ${inputs.generationName}); up waits until it is Healthy (at most ${inputs.timeoutSeconds} s)`,
        };
    }

    /** Another cluster of the organization with this name (not the one being replaced), if any. */
    private async sameName(inputs: ClusterInputs, api: AdminApiClient, reread: boolean): Promise<Cluster | undefined> {
        const replaced = this.replacing.get(inputs.resourceName);
        const clusters = await this.call(inputs.resourceName, "list the clusters", () => api.listClusters({ reread }));
        return clusters.find((cluster) => cluster.name === inputs.name && cluster.uuid !== replaced);
    }

    /**
     * POST /clusters, sent once. After an answer that leaves open whether the cluster was made (a reset, a timeout, a
     * 5xx), the list is read: a cluster of this name that was not there before is the one this request made.
     */
    private async createOnce(inputs: ClusterInputs, api: AdminApiClient): Promise<string> {
        const name = inputs.resourceName;
        const before = await this.sameName(inputs, api, true);
        if (before !== undefined) throw new Error(`${this.subject(name)}: ${sameNameRefusal(inputs, before)}`);
        const request: CreateClusterRequest = {
            name: inputs.name,
            channelId: inputs.channelId,
            generationId: inputs.generationId,
            planTypeId: inputs.planTypeId,
            regionId: inputs.regionId,
            ...(inputs.autoUpdate !== undefined && { autoUpdate: inputs.autoUpdate }),
            ...(inputs.description !== undefined && { description: inputs.description }),
            ...(inputs.stageLabel !== undefined && { stageLabel: inputs.stageLabel }),
        };
        try {
            const clusterId = await api.createCluster(request);
            this.say(name, `creating cluster ${inputs.name} (${clusterId})`);
            return clusterId;
        } catch (error) {
            if (error instanceof PlatformError && error.status !== undefined && error.status < 500) {
                throw new Error(`${this.subject(name)}: cannot create cluster ${inputs.name}: ${error.message}`);
            }
            const made = await this.sameName(inputs, api, true);
            if (made === undefined) {
                throw new Error(
                    `${this.subject(name)}: cannot create cluster ${inputs.name}: ${messageOf(error)}; no cluster of that name exists, so nothing was created: run up again`,
                );
            }
            this.say(name, `the answer to the create was lost (${messageOf(error)}), but cluster ${made.uuid} of that name now exists: it is this up's`);
            return made.uuid;
        }
    }

    /** The PATCH and the upgrade a decision asks for (an upgrade answered 412, the cluster not ready, waits for it first). */
    private async act(inputs: ClusterInputs, api: AdminApiClient, clusterId: string, decision: ClusterDecision, provider: unknown): Promise<void> {
        const name = inputs.resourceName;
        if (decision.kind === "refuse") throw new Error(`${this.subject(name)}: ${decision.reason}`);
        if (decision.kind === "gone" || decision.kind === "replace")
            throw new Error(`${this.subject(name)}: cluster ${clusterId} must be replaced; run up again to see the preview of it`);
        if (decision.kind !== "update") return;
        if (Object.keys(decision.patch).length > 0) await this.call(name, `update cluster ${clusterId}`, () => api.updateCluster(clusterId, decision.patch));
        if (decision.upgrade === undefined) return;
        const what = `upgrade cluster ${clusterId} (${decision.upgrade.from} → ${decision.upgrade.to})`;
        try {
            await api.upgradeCluster(clusterId);
        } catch (error) {
            if (!(error instanceof PlatformError) || error.status !== 412) throw new Error(`${this.subject(name)}: cannot ${what}: ${messageOf(error)}`);
            this.say(name, `cluster ${clusterId} is not ready for the upgrade (412): waiting until it is Healthy`);
            await this.waitHealthy(inputs, api, clusterId, provider, inputs.stageLabel);
            await this.call(name, what, () => api.upgradeCluster(clusterId));
        }
        this.say(name, `upgrading cluster ${clusterId}: ${decision.upgrade.from} → ${decision.upgrade.to}`);
    }

    /**
     * Until the cluster is Healthy twice in a row; its outputs then. Another state, or the time limit, fails the step
     * as a partial failure: the cluster stays in the stack (id and outputs), and the next up waits for the same one.
     */
    private async waitHealthy(
        inputs: ClusterInputs,
        api: AdminApiClient,
        clusterId: string,
        provider: unknown,
        sentStage: string | undefined,
    ): Promise<ClusterOutputs> {
        const name = inputs.resourceName;
        const settings = { resourceName: name, credentials: inputs.credentials, timeoutSeconds: inputs.timeoutSeconds };
        let lastStatus: string | undefined;
        try {
            const cluster = await waitForClusterHealthy(api, clusterId, {
                timeoutMs: inputs.timeoutSeconds * 1000,
                onStatus: (status, ms) => {
                    lastStatus = status;
                    this.say(name, `cluster ${clusterId} is ${status} (${seconds(ms)})`);
                },
                signal: hostSignal,
            });
            this.say(name, `cluster ${cluster.name} (${clusterId}) is Healthy`);
            return clusterOutputs(cluster, settings, sentStage);
        } catch (error) {
            if (hostSignal.aborted) {
                // Nothing more is sent (not even a read): the cluster stays in the stack as last seen.
                const message = `${this.subject(name)}: ${cancelledWhile(`cluster ${clusterId} was ${lastStatus ?? "not read yet"}`)}; it stays in the stack: the next up waits for the same cluster`;
                throw partialFailure(clusterId, { ...settings, clusterId, status: lastStatus ?? "Creating", __provider: provider }, message);
            }
            if (!(error instanceof HostedClusterStateError) || error.clusterStatus === undefined) throw new Error(`${this.subject(name)}: ${messageOf(error)}`);
            const live = await api.findCluster(clusterId, { reread: true }).catch(() => undefined);
            const outputs = live === undefined ? undefined : clusterOutputs(live, settings, sentStage);
            const advice = error.timedOut
                ? `the next up waits for the same cluster (raise timeoutSeconds if it needs longer than ${inputs.timeoutSeconds} s)`
                : `the next up waits for the same cluster once it is repaired (see the web console), or destroy removes it`;
            const message = `${this.subject(name)}: ${error.summary}; it stays in the stack: ${advice}`;
            throw partialFailure(clusterId, { ...(outputs ?? { ...settings, clusterId, status: error.clusterStatus }), __provider: provider }, message);
        }
    }

    /** A refresh's diff: the program against the cluster as read. */
    protected refreshDiff(program: ClusterInputs, live: ClusterOutputs): pulumi.dynamic.DiffResult {
        const drift: string[] = [];
        if (program.name !== live.name) drift.push(`name is ${live.name} (the program says ${program.name})`);
        if (program.description !== undefined && program.description !== (live.description ?? "")) drift.push("description differs");
        if (program.stageLabel !== undefined && program.stageLabel !== live.stageLabel)
            drift.push(`stageLabel is ${live.stageLabel ?? "none"} (the program says ${program.stageLabel})`);
        if (program.regionId !== live.regionId || program.channelId !== live.channelId || program.planTypeId !== live.planTypeId) {
            drift.push(`channel, region or plan type differ (${live.channel}, ${live.region}, ${live.planType})`);
        }
        if (program.generation !== undefined && !live.autoUpdate && program.generationId !== live.generationId)
            drift.push(`runs ${live.generation} (the program says ${program.generationName})`);
        if (drift.length > 0) this.say(program.resourceName, `the cluster differs from the program: ${drift.join("; ")}`);
        return { changes: drift.length > 0 };
    }
}

/** The provider object every Cluster of the host process shares. */
export const clusterProvider = new ClusterProvider();

/** The entry point the serialized shim requires (ENTRY_POINTS.cluster): a public contract, keep the name. */
export const provider = clusterProvider;

function sameNameRefusal(inputs: ClusterInputs, existing: Cluster): string {
    return (
        `name: a cluster named ${inputs.name} exists already (id ${existing.uuid}, ${existing.status.ready}, created ${existing.created}); ` +
        `to bring it under this stack set existingClusterId: "${existing.uuid}", or choose another name`
    );
}

/** The inputs whose change replaces the cluster. */
function replacedInputs(inputs: ClusterInputs, live: Cluster): string[] {
    const changed = fixedChanges(inputs, live).map((change) => change.split(" ")[0]);
    return changed.length > 0 ? changed : ["clusterId"];
}

function changesText(decision: ClusterDecision): string {
    return decision.kind === "update" ? ` and changes ${decision.changes.join(", ")}` : ", as it is";
}

function seconds(ms: number): string {
    return `${Math.round(ms / 1000)} s`;
}
