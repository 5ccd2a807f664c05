// The dynamic provider behind IpAllowlist: the whole IP allowlist of a cluster, replaced at once with
// `PUT …/ipallowlist` (never the deprecated path). The API has no GET of its own for it: the list is a field of the
// cluster, shown only when the organization has the feature and the client may see it, so an absent field is a missing
// feature or permission, never an empty list. Delete sends an empty list, so no restriction is left behind. One
// resource per cluster: a second one in a stack is refused at preview.
//
// Loaded in the provider host by the shim the state stores (see ../shared/providerShim.ts): `provider` below is a
// public entry point.

import type * as pulumi from "@pulumi/pulumi";
import type { AdminApiClient } from "../../sdk/adminApiClient";
import type { IpAllowlistEntry } from "../../sdk/adminSchemas";
import { z } from "zod";
import { type AdminCredentials, checkAdminCredentials } from "../shared/adminCredentials";
import { AdminProvider, type Tell } from "../shared/adminProvider";
import { isNew } from "../shared/passes";
import { asResourceFailures } from "../shared/checkFailures";
import { claimOnce } from "../shared/claims";
import { secretChanged } from "../shared/secretChanged";
import { UNKNOWN, containsUnknown } from "../shared/unknowns";
import { checkEntries, entryChanges } from "./entries";

type Raw = Record<string, unknown>;

export interface AllowlistInputs {
    resourceName: string;
    clusterId: string;
    entries: IpAllowlistEntry[];
    credentials: AdminCredentials;
}

export type AllowlistOutputs = AllowlistInputs;

const clusterIdSchema = z
    .string({ error: (issue) => (issue.input === undefined ? "clusterId is required" : "clusterId must be a string") })
    .trim()
    .min(1, "clusterId must not be empty");

export class IpAllowlistProvider extends AdminProvider<AllowlistInputs, AllowlistOutputs> implements pulumi.dynamic.ResourceProvider<Raw, AllowlistOutputs> {
    protected readonly typeName = "IpAllowlist";

    async check(olds: Raw, news: Raw): Promise<pulumi.dynamic.CheckResult<Raw>> {
        const failures: { property: string; reason: string }[] = [];
        const fail = (property: string, reason: string) => failures.push({ property, reason });
        let clusterId = news.clusterId as string;
        if (clusterId !== UNKNOWN) {
            const checked = clusterIdSchema.safeParse(news.clusterId);
            if (checked.success) clusterId = checked.data;
            else fail("clusterId", checked.error.issues[0].message);
        }
        const entries = checkEntries(news.entries, fail);
        const credentials = checkAdminCredentials(news.credentials, this.stackConfig, process.env, fail);
        if (failures.length > 0 || entries === undefined || credentials === undefined) return { failures: asResourceFailures(failures) };
        const inputs: AllowlistInputs = {
            resourceName: typeof news.resourceName === "string" ? news.resourceName : "(unnamed)",
            clusterId,
            entries,
            credentials,
        };
        const name = inputs.resourceName;
        const dryRun = news.dryRun === true;
        this.passes.recordCheck(name, dryRun);
        if (clusterId !== UNKNOWN) {
            const holder = claimOnce("IP allowlist", clusterId, name);
            if (holder !== undefined) {
                const reason = `clusterId: IpAllowlist "${holder}" already manages the allowlist of cluster ${clusterId} in this stack: the list is replaced whole, so two resources would undo each other on every up; declare it once`;
                return { failures: asResourceFailures([{ property: "", reason }]) };
            }
        }
        // A create replaces the list the cluster has: preview shows what it adds and removes.
        if (dryRun && isNew(olds)) {
            if (containsUnknown(inputs)) this.say(name, "sets the allowlist once the cluster and entries are known");
            else this.say(name, changeText(await this.liveEntries(inputs, this.api(name, credentials)), entries, clusterId));
        }
        return { inputs: inputs as unknown as Raw };
    }

    protected async changeDiff(inputs: AllowlistInputs, olds: AllowlistOutputs, tell: Tell): Promise<pulumi.dynamic.DiffResult> {
        const name = inputs.resourceName;
        if (inputs.clusterId !== olds.clusterId) {
            tell(
                name,
                `clusterId changed: up sets the allowlist of cluster ${String(inputs.clusterId)}, then lifts every restriction of cluster ${olds.clusterId}`,
            );
            return { changes: true, replaces: ["clusterId"] };
        }
        if (containsUnknown(inputs)) return { changes: true };
        const live = await this.liveEntries(inputs, this.api(name, inputs.credentials));
        const { added, removed } = entryChanges(live, inputs.entries);
        if (added.length + removed.length > 0) tell(name, changeText(live, inputs.entries, inputs.clusterId));
        return { changes: added.length + removed.length > 0 || secretChanged(olds.credentials, inputs.credentials) };
    }

    async create(news: Raw): Promise<pulumi.dynamic.CreateResult<AllowlistOutputs>> {
        const inputs = news as unknown as AllowlistInputs;
        return { id: inputs.clusterId, outs: await this.set(inputs) };
    }

    async update(_id: string, _olds: AllowlistOutputs, news: Raw): Promise<pulumi.dynamic.UpdateResult<AllowlistOutputs>> {
        return { outs: await this.set(news as unknown as AllowlistInputs) };
    }

    /** Refresh: the entries the cluster shows; a cluster gone takes the resource out of the stack. */
    async read(id: string, props?: AllowlistOutputs): Promise<pulumi.dynamic.ReadResult<AllowlistOutputs>> {
        const { name, api, state } = this.recorded(id, props);
        const cluster = await this.call(name, `read cluster ${state.clusterId}`, () => api.findCluster(state.clusterId, { reread: true }));
        if (cluster === undefined) {
            this.say(name, `cluster ${state.clusterId} no longer exists: refresh removes its allowlist from the stack`);
            return { id: "", props: {} as AllowlistOutputs };
        }
        return { id, props: { ...state, entries: this.entriesOf(state, cluster.ipallowlist ?? cluster.ipwhitelist) } };
    }

    /** An empty list: no restriction is left behind. */
    async delete(id: string, props: AllowlistOutputs): Promise<void> {
        const { name, api } = this.recorded(id, props);
        const cluster = await this.call(name, `read cluster ${props.clusterId}`, () => api.findCluster(props.clusterId, { reread: true }));
        if (cluster === undefined) {
            this.say(name, `cluster ${props.clusterId} no longer exists: nothing to lift`);
            return;
        }
        await this.call(name, `lift the allowlist of cluster ${props.clusterId}`, () => api.setIpAllowlist(props.clusterId, []));
        this.say(name, `lifted every restriction of cluster ${props.clusterId} (the allowlist is empty)`);
    }

    private async set(inputs: AllowlistInputs): Promise<AllowlistOutputs> {
        const api = this.api(inputs.resourceName, inputs.credentials);
        const live = await this.liveEntries(inputs, api);
        await this.call(inputs.resourceName, `set the allowlist of cluster ${inputs.clusterId}`, () => api.setIpAllowlist(inputs.clusterId, inputs.entries));
        this.say(inputs.resourceName, changeText(live, inputs.entries, inputs.clusterId, true));
        const cluster = await this.call(inputs.resourceName, `read cluster ${inputs.clusterId}`, () => api.findCluster(inputs.clusterId, { reread: true }));
        return { ...inputs, entries: this.entriesOf(inputs, cluster?.ipallowlist ?? cluster?.ipwhitelist) };
    }

    /** The entries the cluster shows now (one GET of the cluster per provider host). */
    private async liveEntries(inputs: AllowlistInputs, api: AdminApiClient): Promise<IpAllowlistEntry[]> {
        const cluster = await this.call(inputs.resourceName, `read cluster ${inputs.clusterId}`, () => api.findCluster(inputs.clusterId));
        if (cluster === undefined) throw new Error(`${this.subject(inputs.resourceName)}: clusterId: there is no cluster ${inputs.clusterId}`);
        return this.entriesOf(inputs, cluster.ipallowlist ?? cluster.ipwhitelist);
    }

    /** The entries a cluster shows; an absent list is a missing feature or permission, not an empty list. */
    private entriesOf(inputs: Pick<AllowlistInputs, "resourceName" | "clusterId">, entries: IpAllowlistEntry[] | undefined): IpAllowlistEntry[] {
        if (entries === undefined) {
            throw new Error(
                `${this.subject(inputs.resourceName)}: cluster ${inputs.clusterId} shows no ipallowlist: the organization lacks the IP allowlist feature, ` +
                    "or these credentials lack the IP allowlist permission (an absent list is not an empty one)",
            );
        }
        return entries.map(({ ip, description }) => ({ ip, description }));
    }

    /** A refresh's diff: the program's entries against the cluster's. */
    protected refreshDiff(program: AllowlistInputs, live: AllowlistOutputs): pulumi.dynamic.DiffResult {
        const { added, removed } = entryChanges(live.entries, program.entries);
        if (added.length + removed.length === 0) return { changes: false };
        this.say(
            program.resourceName,
            `the allowlist of cluster ${live.clusterId} differs from the program: ${changeText(live.entries, program.entries, live.clusterId)}`,
        );
        return { changes: true };
    }
}

/** "sets the allowlist of cluster X: adds a (office); removes b (old)" (done: "set …: added …"), or that nothing changes. */
function changeText(live: readonly IpAllowlistEntry[], desired: readonly IpAllowlistEntry[], clusterId: string, done = false): string {
    const { added, removed } = entryChanges(live, desired);
    if (added.length + removed.length === 0)
        return `the allowlist of cluster ${clusterId} has ${desired.length === 0 ? "no entries" : "these entries"} already`;
    const parts = [
        ...(added.length > 0 ? [`${done ? "added" : "adds"} ${added.join(", ")}`] : []),
        ...(removed.length > 0 ? [`${done ? "removed" : "removes"} ${removed.join(", ")}`] : []),
    ];
    const lifted = desired.length === 0 ? " (an empty list lifts every restriction)" : "";
    return `${done ? "set" : "sets"} the allowlist of cluster ${clusterId}: ${parts.join("; ")}${lifted}`;
}

/** The provider object every IpAllowlist of the host process shares. */
export const ipAllowlistProvider = new IpAllowlistProvider();

/** The entry point the serialized shim requires (ENTRY_POINTS.ipAllowlist): a public contract, keep the name. */
export const provider = ipAllowlistProvider;
