// What every administration resource's provider shares: the stack config it resolves credentials from, the pass log
// (what a preview says is said once, in the preview pass), the API client of a resource's credentials, lines that
// name the resource, and failures that say what the resource was doing. Each resource's provider extends it.

import type * as pulumi from "@pulumi/pulumi";
import type { AdminApiClient } from "../../sdk/adminApiClient";
import { type AdminCredentials, adminApiFor, retryText } from "./adminCredentials";
import { CONFIG_NAMESPACE, StackCredentialConfig, readCredentialConfig } from "./credentials";
import { attachToDynamicProviderHost } from "./hostLifetime";
import { messageOf } from "./messageOf";
import { PassLog } from "./passes";

/** Says a line of a resource (in the preview pass only, when a teller). */
export type Tell = (resourceName: string, message: string) => void;

export abstract class AdminProvider<Inputs extends { resourceName: string }, Outputs> {
    protected stackConfig: StackCredentialConfig = {};
    protected readonly passes = new PassLog();

    /** The resource type as lines name it: `OrganizationMember`, `Cluster`, … */
    protected abstract readonly typeName: string;

    async configure(request: pulumi.dynamic.ConfigureRequest): Promise<void> {
        attachToDynamicProviderHost();
        this.stackConfig = readCredentialConfig((name) => request.config.get(`${CONFIG_NAMESPACE}:${name}`));
    }

    /** `Cluster "orders"`: how every line and failure names the resource. */
    protected subject(resourceName: string): string {
        return `${this.typeName} "${resourceName}"`;
    }

    /** Provider lines reach the user unattached to any resource, so each one names its resource. */
    protected say(resourceName: string, message: string): void {
        console.log(`${this.subject(resourceName)}: ${message}`);
    }

    /** say in the preview pass only (the update after it decides again, silently). */
    protected teller(resourceName: string): Tell {
        return this.passes.passOf(resourceName) === "preview" ? (name, message) => this.say(name, message) : () => undefined;
    }

    /**
     * A diff this host's check did not precede is a refresh's: the engine compares the program's old inputs with what
     * the read found, so it reports drift (refreshDiff). Any other diff decides what up will do (changeDiff).
     */
    async diff(_id: string, olds: Outputs, news: Record<string, unknown>): Promise<pulumi.dynamic.DiffResult> {
        const inputs = news as unknown as Inputs;
        if (this.passes.passOf(inputs.resourceName) === "refresh") return this.refreshDiff(inputs, olds);
        return this.changeDiff(inputs, olds, this.teller(inputs.resourceName));
    }

    /** What refresh found that differs from the program, said in a line; changes when anything does. */
    protected abstract refreshDiff(program: Inputs, live: Outputs): pulumi.dynamic.DiffResult;

    /** What up will do to the resource, told (in the preview pass) through `tell`. */
    protected abstract changeDiff(inputs: Inputs, olds: Outputs, tell: Tell): Promise<pulumi.dynamic.DiffResult>;

    protected api(resourceName: string, credentials: AdminCredentials): AdminApiClient {
        return adminApiFor(credentials, this.stackConfig, process.env, this.subject(resourceName), (notice) => this.say(resourceName, retryText(notice)));
    }

    /** What refresh and delete work from: the resource's name and an API client of the credentials its state recorded. */
    protected recorded<P extends { resourceName?: string; credentials?: AdminCredentials }>(
        id: string,
        props: P | undefined,
    ): { name: string; api: AdminApiClient; state: P } {
        if (props?.credentials === undefined) throw new Error(`${this.typeName} ${id}: nothing recorded to work from (no credentials in the state)`);
        const name = props.resourceName ?? id;
        return { name, api: this.api(name, props.credentials), state: props };
    }

    /** Runs a request; its failure names the resource and what it was doing (the SDK's errors carry no secret). */
    protected async call<T>(resourceName: string, what: string, run: () => Promise<T>, explain: (error: unknown) => string = messageOf): Promise<T> {
        try {
            return await run();
        } catch (error) {
            throw new Error(`${this.subject(resourceName)}: cannot ${what}: ${explain(error)}`);
        }
    }
}

/**
 * The error the dynamic-provider host turns into a partial failure: the resource exists (its id and properties stay in
 * the state, with the reason as an init error), so the next up works on it instead of creating another.
 */
export function partialFailure(id: string, properties: Record<string, unknown>, message: string): Error {
    const error = new Error(message) as Error & { id: string; properties: Record<string, unknown>; reasons: string[] };
    error.id = id;
    error.properties = JSON.parse(JSON.stringify(properties)) as Record<string, unknown>;
    error.reasons = [message];
    return error;
}
