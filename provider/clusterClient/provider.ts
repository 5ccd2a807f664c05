// The dynamic provider behind ClusterClient: an API client of a cluster, whose secret the administration API shows only
// in the answer to its creation. Nothing of a client can be changed, so any change of its inputs replaces it (a new
// id and secret; the old one first when the name stays, since names are unique per cluster). Its connection details are
// read once the cluster is ready (412 until then, waited out within timeoutSeconds). One GET of the cluster's client
// list serves every ClusterClient of a provider host.
//
// Loaded in the provider host by the shim the state stores (see ../shared/providerShim.ts): `provider` below is a
// public entry point. The client secret reaches the outputs only (a Pulumi secret), never a line or an error.

import type * as pulumi from "@pulumi/pulumi";
import type { AdminApiClient } from "../../sdk/adminApiClient";
import type { ClusterApiClient, CreatedClusterApiClient } from "../../sdk/adminSchemas";
import { pollUntil } from "../../sdk/admin/pollUntil";
import { PlatformError } from "../../sdk/errors";
import type { AdminCredentials } from "../shared/adminCredentials";
import { AdminProvider, type Tell, partialFailure } from "../shared/adminProvider";
import { messageOf } from "../shared/messageOf";
import { hostSignal } from "../shared/hostLifetime";
import { isNew } from "../shared/passes";
import { asResourceFailures } from "../shared/checkFailures";
import { claimOnce } from "../shared/claims";
import { secretChanged } from "../shared/secretChanged";
import { containsUnknown } from "../shared/unknowns";
import { ClientInputs, checkClientInputs } from "./inputs";

type Raw = Record<string, unknown>;

export interface ClientOutputs {
    resourceName: string;
    credentials: AdminCredentials;
    clusterId: string;
    clientName: string;
    permissions: string[];
    triggers?: unknown;
    timeoutSeconds: number;
    clientId: string;
    /** From the create answer only: the API never shows it again. */
    clientSecret: string;
    zeebeAddress: string;
    authorizationServerUrl: string;
    audience: string;
}

export class ClusterClientProvider extends AdminProvider<ClientInputs, ClientOutputs> implements pulumi.dynamic.ResourceProvider<Raw, ClientOutputs> {
    protected readonly typeName = "ClusterClient";
    /** Clients this host is replacing, by resource name: their replacement may keep the name. */
    private readonly replacing = new Map<string, string>();

    async check(olds: Raw, news: Raw): Promise<pulumi.dynamic.CheckResult<Raw>> {
        const { inputs, failures } = checkClientInputs(news, this.stackConfig, process.env);
        if (inputs === undefined) return { failures: asResourceFailures(failures) };
        const name = inputs.resourceName;
        const dryRun = news.dryRun === true;
        this.passes.recordCheck(name, dryRun);
        if (!containsUnknown([inputs.clusterId, inputs.clientName])) {
            // Before replaceExisting may delete a client of this name: never one another resource of the stack holds.
            const holder = claimOnce("cluster client", `${inputs.credentials.baseUrl} ${inputs.clusterId} ${inputs.clientName}`, name);
            if (holder !== undefined) {
                const reason = `clientName: ClusterClient "${holder}" already declares client ${inputs.clientName} of cluster ${inputs.clusterId} in this stack: declare it once`;
                return { failures: asResourceFailures([{ property: "", reason }]) };
            }
        }
        if (isNew(olds)) {
            if (containsUnknown(inputs)) {
                if (dryRun) this.say(name, `creates client ${String(inputs.clientName)} once the cluster is known`);
            } else {
                const replaced = this.replacing.get(name);
                const taken = (await this.clients(inputs)).find((client) => client.name === inputs.clientName && client.clientId !== replaced);
                if (taken !== undefined && !inputs.replaceExisting)
                    return { failures: asResourceFailures([{ property: "", reason: takenReason(inputs, taken) }]) };
                if (dryRun && taken !== undefined) this.say(name, replacingExistingLine(inputs, taken));
                else if (dryRun)
                    this.say(
                        name,
                        `creates client ${inputs.clientName} of cluster ${inputs.clusterId} (${inputs.permissions.join(", ")}); its secret becomes a secret output`,
                    );
            }
        }
        return { inputs: inputs as unknown as Raw };
    }

    protected async changeDiff(inputs: ClientInputs, olds: ClientOutputs, tell: Tell): Promise<pulumi.dynamic.DiffResult> {
        const name = inputs.resourceName;
        const replaced = (reason: string, properties: string[]): pulumi.dynamic.DiffResult => {
            const sameName = inputs.clientName === olds.clientName && inputs.clusterId === olds.clusterId;
            tell(
                name,
                `${reason}: up replaces client ${olds.clientName} (${olds.clientId})${sameName ? ", deleting it first (names are unique in a cluster)" : ""}; ` +
                    "the new client has a new id and secret, and the old secret stops working",
            );
            this.replacing.set(name, olds.clientId);
            return { changes: true, replaces: properties, deleteBeforeReplace: sameName };
        };
        const changed: string[] = (["clusterId", "clientName"] as const).filter((key) => inputs[key] !== olds[key]);
        if (!samePermissions(inputs.permissions, olds.permissions ?? [])) changed.push("permissions");
        if (secretChanged(olds.triggers, inputs.triggers)) changed.push("triggers");
        if (changed.length > 0) return replaced(`${changed.join(", ")} changed`, changed);
        if (containsUnknown(inputs)) return { changes: false };
        const live = (await this.clients(inputs)).find((client) => client.clientId === olds.clientId);
        if (live === undefined) return replaced(`client ${olds.clientName} no longer exists (deleted outside the stack)`, ["clientName"]);
        if (!samePermissions(live.permissions, inputs.permissions)) {
            return replaced(
                `its permissions in the cluster are ${live.permissions.join(", ") || "none"} (the program says ${inputs.permissions.join(", ")}), and a client cannot be changed`,
                ["permissions"],
            );
        }
        const settingsChanged = secretChanged(olds.credentials, inputs.credentials) || olds.timeoutSeconds !== inputs.timeoutSeconds;
        if (settingsChanged) tell(name, "credentials or timeoutSeconds changed: up records them, sending nothing");
        return { changes: settingsChanged };
    }

    async create(news: Raw): Promise<pulumi.dynamic.CreateResult<ClientOutputs>> {
        const inputs = news as unknown as ClientInputs;
        const api = this.api(inputs.resourceName, inputs.credentials);
        const created = await this.createOnce(inputs, api);
        const outputs = await this.withDetails(inputs, api, created, news.__provider);
        return { id: created.clientId, outs: outputs };
    }

    /** Only what sends nothing reaches update (credentials, the time limit), or a partial failure's details to read again. */
    async update(id: string, olds: ClientOutputs, news: Raw): Promise<pulumi.dynamic.UpdateResult<ClientOutputs>> {
        const inputs = news as unknown as ClientInputs;
        const api = this.api(inputs.resourceName, inputs.credentials);
        const created = { clientId: id, clientSecret: olds.clientSecret, name: olds.clientName, permissions: olds.permissions, audience: olds.audience };
        return { outs: await this.withDetails(inputs, api, created, news.__provider) };
    }

    /** Refresh: the client's permissions from the cluster's list; a client deleted elsewhere leaves the stack. */
    async read(id: string, props?: ClientOutputs): Promise<pulumi.dynamic.ReadResult<ClientOutputs>> {
        const { name, api, state } = this.recorded(id, props);
        const live = await this.call(name, `list the clients of cluster ${state.clusterId}`, () => api.listClusterClients(state.clusterId, { reread: true }));
        const found = live.find((client) => client.clientId === id);
        if (found === undefined) {
            this.say(name, `client ${state.clientName} (${id}) no longer exists: refresh removes it from the stack`);
            return { id: "", props: {} as ClientOutputs };
        }
        return { id, props: { ...state, clientName: found.name, permissions: [...found.permissions] } };
    }

    async delete(id: string, props: ClientOutputs): Promise<void> {
        const { name, api } = this.recorded(id, props);
        const removal = await this.call(name, `delete client ${id}`, () => api.deleteClusterClient(props.clusterId, id));
        this.say(name, removal === "removed" ? `deleted client ${props.clientName} (${id})` : `client ${props.clientName} (${id}) was already gone`);
    }

    private clients(inputs: ClientInputs): Promise<ClusterApiClient[]> {
        const api = this.api(inputs.resourceName, inputs.credentials);
        return this.call(inputs.resourceName, `list the clients of cluster ${inputs.clusterId}`, () => api.listClusterClients(inputs.clusterId));
    }

    /**
     * POST …/clients, sent once. After an answer that leaves open whether the client was made, the list is read: a client
     * of this name is the one this request made, and its secret never arrived, so it is deleted and made once more.
     */
    private async createOnce(inputs: ClientInputs, api: AdminApiClient): Promise<CreatedClusterApiClient> {
        const name = inputs.resourceName;
        const create = () => api.createClusterClient(inputs.clusterId, inputs.clientName, inputs.permissions);
        if (inputs.replaceExisting) await this.deleteExisting(inputs, api);
        try {
            const created = await create();
            this.say(name, `created client ${inputs.clientName} (${created.clientId}) of cluster ${inputs.clusterId}`);
            return created;
        } catch (error) {
            if (error instanceof PlatformError && error.status !== undefined && error.status < 500) {
                const taken =
                    error.status === 400
                        ? (await api.listClusterClients(inputs.clusterId, { reread: true }).catch(() => [])).find((c) => c.name === inputs.clientName)
                        : undefined;
                throw new Error(`${this.subject(name)}: cannot create client ${inputs.clientName}: ${taken ? takenReason(inputs, taken) : error.message}`);
            }
            const orphan = (await this.call(name, "list the clients", () => api.listClusterClients(inputs.clusterId, { reread: true }))).find(
                (c) => c.name === inputs.clientName,
            );
            if (orphan === undefined)
                throw new Error(
                    `${this.subject(name)}: cannot create client ${inputs.clientName}: ${messageOf(error)}; no client of that name exists, so nothing was created: run up again`,
                );
            this.say(
                name,
                `the answer to the create was lost (${messageOf(error)}) with the secret in it: deleting client ${orphan.clientId}, which nobody can use, and creating it once more`,
            );
            await this.call(name, `delete client ${orphan.clientId}`, () => api.deleteClusterClient(inputs.clusterId, orphan.clientId));
            const created = await this.call(name, `create client ${inputs.clientName}`, create);
            this.say(name, `created client ${inputs.clientName} (${created.clientId}) of cluster ${inputs.clusterId}`);
            return created;
        }
    }

    /** replaceExisting: the client of this name made outside the stack, if any, is deleted before the create. */
    private async deleteExisting(inputs: ClientInputs, api: AdminApiClient): Promise<void> {
        const name = inputs.resourceName;
        const replaced = this.replacing.get(name);
        const clients = await this.call(name, `list the clients of cluster ${inputs.clusterId}`, () =>
            api.listClusterClients(inputs.clusterId, { reread: true }),
        );
        const existing = clients.find((client) => client.name === inputs.clientName && client.clientId !== replaced);
        if (existing === undefined) return;
        await this.call(name, `delete client ${existing.clientId}`, () => api.deleteClusterClient(inputs.clusterId, existing.clientId));
        this.say(name, `deleted client ${inputs.clientName} (${existing.clientId}), made outside the stack (replaceExisting): its secret no longer works`);
    }

    /**
     * The connection details (412 while the cluster is not ready, waited out within timeoutSeconds). A client whose
     * details never come stays in the stack with its secret (a partial failure): the next up reads them again.
     */
    private async withDetails(
        inputs: ClientInputs,
        api: AdminApiClient,
        created: Pick<CreatedClusterApiClient, "clientId" | "clientSecret" | "name" | "permissions" | "audience">,
        provider: unknown,
    ): Promise<ClientOutputs> {
        const name = inputs.resourceName;
        const outputs: ClientOutputs = {
            resourceName: name,
            credentials: inputs.credentials,
            clusterId: inputs.clusterId,
            clientName: created.name,
            permissions: [...created.permissions],
            timeoutSeconds: inputs.timeoutSeconds,
            clientId: created.clientId,
            clientSecret: created.clientSecret,
            zeebeAddress: "",
            authorizationServerUrl: "",
            audience: created.audience ?? "",
        };
        if (inputs.triggers !== undefined) outputs.triggers = inputs.triggers;
        try {
            const details = await pollUntil({
                read: () => api.getClusterClientDetails(inputs.clusterId, created.clientId),
                decide: (value) => ({ done: value }),
                waitOn: (error) => (error instanceof PlatformError && error.status === 412 ? "the cluster is not ready yet (412)" : undefined),
                onWaiting: (reason, ms) => this.say(name, `client ${created.clientId}: ${reason}; waiting (${Math.round(ms / 1000)} s)`),
                timeoutMs: inputs.timeoutSeconds * 1000,
                firstDelayMs: 250,
                maxDelayMs: 5_000,
                signal: hostSignal,
                timedOut: (reason, ms) =>
                    new Error(
                        `the connection details of client ${created.clientId} were not readable after ${Math.round(ms / 1000)} s (${reason ?? "no answer"})`,
                    ),
            });
            return { ...outputs, zeebeAddress: details.ZEEBE_ADDRESS, authorizationServerUrl: details.ZEEBE_AUTHORIZATION_SERVER_URL };
        } catch (error) {
            const message = `${this.subject(name)}: ${messageOf(error)}; the client and its secret stay in the stack: the next up reads its details again (raise timeoutSeconds if the cluster needs longer)`;
            throw partialFailure(created.clientId, { ...outputs, __provider: provider }, message);
        }
    }

    /** A refresh's diff: the program's permissions against the client's in the cluster. */
    protected refreshDiff(program: ClientInputs, live: ClientOutputs): pulumi.dynamic.DiffResult {
        if (samePermissions(program.permissions, live.permissions)) return { changes: false };
        this.say(
            program.resourceName,
            `client ${live.clientName} has permissions ${live.permissions.join(", ") || "none"} in the cluster; the program says ${program.permissions.join(", ")}`,
        );
        return { changes: true };
    }
}

/** The provider object every ClusterClient of the host process shares. */
export const clusterClientProvider = new ClusterClientProvider();

/** The entry point the serialized shim requires (ENTRY_POINTS.clusterClient): a public contract, keep the name. */
export const provider = clusterClientProvider;

function samePermissions(a: readonly string[], b: readonly string[]): boolean {
    const right = [...b].sort();
    return a.length === b.length && [...a].sort().every((permission, index) => permission === right[index]);
}

function takenReason(inputs: ClientInputs, taken: ClusterApiClient): string {
    return (
        `clientName: cluster ${inputs.clusterId} has a client named ${inputs.clientName} already (${taken.clientId}, made outside the stack, or by an up killed before it recorded it); ` +
        "a client's secret is shown only when it is created, so an existing client cannot be brought under a stack: set replaceExisting: true to delete it and " +
        "make it anew (whoever uses its secret loses access), or choose another name"
    );
}

function replacingExistingLine(inputs: ClientInputs, taken: ClusterApiClient): string {
    return (
        `replaces client ${inputs.clientName} (${taken.clientId}) of cluster ${inputs.clusterId}, made outside the stack (replaceExisting): ` +
        `up deletes it and creates it anew (${inputs.permissions.join(", ")}); the existing client's secret stops working, the new one becomes a secret output`
    );
}
