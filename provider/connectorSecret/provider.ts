// The dynamic provider behind ConnectorSecret: a named secret the cluster's connectors read. Its value changes in
// place (PUT); a new name or cluster replaces it, deleting the old one first. A name that exists already (made outside
// the stack) is refused unless the program says adoptExisting, with which create writes the value into it. The values
// are readable (GET …/secrets lists them), so refresh notices a value changed elsewhere, never printing it. Deleted
// secrets stay listed for a while (the API is eventually consistent): delete waits until the name is gone.
//
// Loaded in the provider host by the shim the state stores (see ../shared/providerShim.ts): `provider` below is a
// public entry point. A value reaches the outputs only (a Pulumi secret), never a line or an error.

import type * as pulumi from "@pulumi/pulumi";
import type { AdminApiClient } from "../../sdk/adminApiClient";
import { pollUntil } from "../../sdk/admin/pollUntil";
import { PlatformError } from "../../sdk/errors";
import { z } from "zod";
import { type AdminCredentials, checkAdminCredentials } from "../shared/adminCredentials";
import { AdminProvider, type Tell } from "../shared/adminProvider";
import { messageOf } from "../shared/messageOf";
import { hostSignal } from "../shared/hostLifetime";
import { isNew } from "../shared/passes";
import { asResourceFailures } from "../shared/checkFailures";
import { secretChanged } from "../shared/secretChanged";
import { UNKNOWN, containsUnknown } from "../shared/unknowns";

type Raw = Record<string, unknown>;

/** The API refuses names of 50 characters or more. */
const NAME_LIMIT = 50;
/** How long delete waits for a deleted secret to leave the list. */
const UNLISTED_WAIT_MS = 60_000;

export interface SecretInputs {
    resourceName: string;
    clusterId: string;
    secretName: string;
    value: string;
    adoptExisting: boolean;
    credentials: AdminCredentials;
}

export type SecretOutputs = Omit<SecretInputs, "adoptExisting">;

const schemas = {
    clusterId: z
        .string({ error: (issue) => (issue.input === undefined ? "clusterId is required" : "clusterId must be a string") })
        .trim()
        .min(1, "clusterId must not be empty"),
    secretName: z
        .string({ error: (issue) => (issue.input === undefined ? "secretName is required" : "secretName must be a string") })
        .min(1, "secretName must not be empty")
        .max(NAME_LIMIT - 1, `secretName must be shorter than ${NAME_LIMIT} characters`),
    value: z.string({ error: (issue) => (issue.input === undefined ? "value is required" : "value must be a string") }),
    adoptExisting: z.boolean({ error: "adoptExisting must be true or false" }).default(false),
};

export class ConnectorSecretProvider extends AdminProvider<SecretInputs, SecretOutputs> implements pulumi.dynamic.ResourceProvider<Raw, SecretOutputs> {
    protected readonly typeName = "ConnectorSecret";

    async check(olds: Raw, news: Raw): Promise<pulumi.dynamic.CheckResult<Raw>> {
        const failures: { property: string; reason: string }[] = [];
        const values: Record<string, unknown> = {};
        for (const [field, schema] of Object.entries(schemas)) {
            if (news[field] === UNKNOWN) values[field] = UNKNOWN;
            else {
                const checked = (schema as z.ZodType).safeParse(news[field] ?? undefined);
                if (checked.success) values[field] = checked.data;
                // The value is a secret: its failure never shows it, and neither does any other.
                else failures.push({ property: field, reason: checked.error.issues[0].message });
            }
        }
        const credentials = checkAdminCredentials(news.credentials, this.stackConfig, process.env, (property, reason) => failures.push({ property, reason }));
        if (failures.length > 0 || credentials === undefined) return { failures: asResourceFailures(failures) };
        const inputs = { resourceName: typeof news.resourceName === "string" ? news.resourceName : "(unnamed)", ...values, credentials } as SecretInputs;
        const dryRun = news.dryRun === true;
        this.passes.recordCheck(inputs.resourceName, dryRun);
        if (isNew(olds) && dryRun && containsUnknown([inputs.clusterId, inputs.secretName]))
            this.say(inputs.resourceName, `creates secret ${String(inputs.secretName)} once the cluster is known`);
        if (isNew(olds) && !containsUnknown([inputs.clusterId, inputs.secretName, inputs.adoptExisting, inputs.credentials])) {
            const existing = (await this.secrets(inputs))[inputs.secretName];
            if (existing !== undefined && !inputs.adoptExisting) {
                const reason = `secretName: cluster ${inputs.clusterId} has a secret named ${inputs.secretName} already (made outside the stack): set adoptExisting: true to write this value into it, or choose another name`;
                return { failures: asResourceFailures([{ property: "", reason }]) };
            }
            if (dryRun) {
                const valueNote =
                    inputs.value === UNKNOWN ? "its value is known at apply" : existing === inputs.value ? "its value is unchanged" : "its value changes";
                this.say(
                    inputs.resourceName,
                    existing === undefined
                        ? `creates secret ${inputs.secretName} in cluster ${inputs.clusterId}`
                        : `adopts existing secret ${inputs.secretName} (${valueNote})`,
                );
            }
        }
        return { inputs: inputs as unknown as Raw };
    }

    protected async changeDiff(inputs: SecretInputs, olds: SecretOutputs, tell: Tell): Promise<pulumi.dynamic.DiffResult> {
        const name = inputs.resourceName;
        const moved = (["clusterId", "secretName"] as const).filter((key) => inputs[key] !== olds[key]);
        if (moved.length > 0) {
            tell(name, `${moved.join(" and ")} changed: up deletes secret ${olds.secretName} of cluster ${olds.clusterId}, then creates the new one`);
            return { changes: true, replaces: [...moved], deleteBeforeReplace: true };
        }
        if (containsUnknown(inputs)) return { changes: true };
        const live = (await this.secrets(inputs))[inputs.secretName];
        if (live === undefined) {
            tell(name, `secret ${inputs.secretName} no longer exists (deleted outside the stack): up creates it again`);
            return { changes: true, replaces: ["secretName"], deleteBeforeReplace: true };
        }
        if (live !== inputs.value) {
            tell(
                name,
                olds.value === inputs.value
                    ? `the value of secret ${inputs.secretName} was changed outside the stack: up writes the program's`
                    : `changes the value of secret ${inputs.secretName}`,
            );
            return { changes: true };
        }
        const settingsChanged = secretChanged(olds.credentials, inputs.credentials) || olds.value !== inputs.value;
        return { changes: settingsChanged };
    }

    async create(news: Raw): Promise<pulumi.dynamic.CreateResult<SecretOutputs>> {
        const inputs = news as unknown as SecretInputs;
        const name = inputs.resourceName;
        const api = this.api(name, inputs.credentials);
        const existing = (await this.call(name, "list the secrets", () => api.listConnectorSecrets(inputs.clusterId, { reread: true })))[inputs.secretName];
        if (existing !== undefined) {
            if (!inputs.adoptExisting)
                throw new Error(
                    `${this.subject(name)}: secretName: cluster ${inputs.clusterId} has a secret named ${inputs.secretName} already: set adoptExisting: true to write this value into it`,
                );
            await this.call(name, `write secret ${inputs.secretName}`, () => api.updateConnectorSecret(inputs.clusterId, inputs.secretName, inputs.value));
            this.say(
                name,
                `adopted secret ${inputs.secretName} of cluster ${inputs.clusterId} (${existing === inputs.value ? "value unchanged" : "value written"})`,
            );
        } else {
            await this.createOnce(inputs, api);
        }
        return { id: `${inputs.clusterId}/${inputs.secretName}`, outs: outputsOf(inputs) };
    }

    async update(_id: string, _olds: SecretOutputs, news: Raw): Promise<pulumi.dynamic.UpdateResult<SecretOutputs>> {
        const inputs = news as unknown as SecretInputs;
        const api = this.api(inputs.resourceName, inputs.credentials);
        const live = (await this.call(inputs.resourceName, "list the secrets", () => api.listConnectorSecrets(inputs.clusterId)))[inputs.secretName];
        if (live !== inputs.value) {
            await this.call(inputs.resourceName, `change secret ${inputs.secretName}`, () =>
                api.updateConnectorSecret(inputs.clusterId, inputs.secretName, inputs.value),
            );
            this.say(inputs.resourceName, `changed the value of secret ${inputs.secretName}`);
        }
        return { outs: outputsOf(inputs) };
    }

    /** Refresh: the value as the cluster lists it (a change shows as drift, never printed); a secret gone leaves the stack. */
    async read(id: string, props?: SecretOutputs): Promise<pulumi.dynamic.ReadResult<SecretOutputs>> {
        const { name, api, state } = this.recorded(id, props);
        const live = (await this.call(name, "list the secrets", () => api.listConnectorSecrets(state.clusterId, { reread: true })))[state.secretName];
        if (live === undefined) {
            this.say(name, `secret ${state.secretName} no longer exists: refresh removes it from the stack`);
            return { id: "", props: {} as SecretOutputs };
        }
        return { id, props: { ...state, value: live } };
    }

    async delete(id: string, props: SecretOutputs): Promise<void> {
        const { name, api } = this.recorded(id, props);
        const removal = await this.call(name, `delete secret ${props.secretName}`, () => api.deleteConnectorSecret(props.clusterId, props.secretName));
        if (removal === "absent") {
            this.say(name, `secret ${props.secretName} was already gone`);
            return;
        }
        try {
            await pollUntil({
                read: () => api.listConnectorSecrets(props.clusterId, { reread: true }),
                decide: (secrets) => (secrets[props.secretName] === undefined ? { done: undefined } : { wait: "still listed" }),
                timeoutMs: UNLISTED_WAIT_MS,
                firstDelayMs: 100,
                maxDelayMs: 2_000,
                signal: hostSignal,
                timedOut: () => new Error("still listed"),
            });
            this.say(name, `deleted secret ${props.secretName} of cluster ${props.clusterId}`);
        } catch (error) {
            this.say(
                name,
                `deleted secret ${props.secretName}; the cluster still lists it after ${UNLISTED_WAIT_MS / 1000} s (${messageOf(error)}): the API is eventually consistent`,
            );
        }
    }

    private secrets(inputs: SecretInputs): Promise<Record<string, string>> {
        const api = this.api(inputs.resourceName, inputs.credentials);
        return this.call(inputs.resourceName, `list the secrets of cluster ${inputs.clusterId}`, () => api.listConnectorSecrets(inputs.clusterId));
    }

    /**
     * POST …/secrets, sent once. A 409 names adoptExisting. After an answer that leaves open whether it was made, the list
     * is read: listed, the secret is this request's (its value is written once more, in place); not listed, nothing was made.
     */
    private async createOnce(inputs: SecretInputs, api: AdminApiClient): Promise<void> {
        const name = inputs.resourceName;
        try {
            await api.createConnectorSecret(inputs.clusterId, inputs.secretName, inputs.value);
        } catch (error) {
            if (error instanceof PlatformError && error.status === 409) {
                throw new Error(
                    `${this.subject(name)}: secretName: cluster ${inputs.clusterId} has a secret named ${inputs.secretName} already (409): set adoptExisting: true to write this value into it`,
                );
            }
            if (error instanceof PlatformError && error.status !== undefined && error.status < 500)
                throw new Error(`${this.subject(name)}: cannot create secret ${inputs.secretName}: ${error.message}`);
            const listed = (await this.call(name, "list the secrets", () => api.listConnectorSecrets(inputs.clusterId, { reread: true })))[inputs.secretName];
            if (listed === undefined)
                throw new Error(
                    `${this.subject(name)}: cannot create secret ${inputs.secretName}: ${messageOf(error)}; it is not listed, so nothing was created: run up again`,
                );
            if (listed !== inputs.value)
                await this.call(name, `write secret ${inputs.secretName}`, () => api.updateConnectorSecret(inputs.clusterId, inputs.secretName, inputs.value));
        }
        this.say(name, `created secret ${inputs.secretName} in cluster ${inputs.clusterId}`);
    }

    /** A refresh's diff: the program's value against the one listed, never printed. */
    protected refreshDiff(program: SecretInputs, live: SecretOutputs): pulumi.dynamic.DiffResult {
        if (program.value === live.value) return { changes: false };
        this.say(program.resourceName, `the value of secret ${live.secretName} in the cluster differs from the program's`);
        return { changes: true };
    }
}

function outputsOf(inputs: SecretInputs): SecretOutputs {
    const { adoptExisting: _adopt, ...outputs } = inputs;
    return outputs;
}

/** The provider object every ConnectorSecret of the host process shares. */
export const connectorSecretProvider = new ConnectorSecretProvider();

/** The entry point the serialized shim requires (ENTRY_POINTS.connectorSecret): a public contract, keep the name. */
export const provider = connectorSecretProvider;
