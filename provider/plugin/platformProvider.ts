// The provider plugin `platform`: every resource served by the same dynamic provider a TypeScript program's resource
// uses (check, diff, create, read, update, delete), called the way the dynamic-provider host calls it, configured as
// the dynamic-provider host configures it: with the provider's settings (providerConfig.ts) where a TypeScript program
// has its stack config. What differs is only how the engine talks to a plugin: the resource's name comes from its
// URN; secrets arrive wrapped (unwrapped here, wrapped again in what goes back); and the engine says whether it runs a
// preview only in the Create or Update after a check and diff, so the plan lines wait for it (planLines.ts).
import type * as pulumi from "@pulumi/pulumi";
import type * as provider from "@pulumi/pulumi/provider";
import { CONFIG_NAMESPACE, readCredentialConfig } from "../shared/credentials";
import { cancelHost } from "../shared/hostLifetime";
import { SECRET_CONFIG_KEYS, asStackConfig, providerConfigFailures } from "./providerConfig";
import type { ServedProvider } from "./providerServer";
import { PlanLines } from "./planLines";
import { PACKAGE_NAME, SERVED_FUNCTIONS, SERVED_RESOURCES, type ServedResource } from "./resources";
import { secretProperties, unwrapSecrets, wrapSecrets } from "./secrets";

type Props = Record<string, unknown>;

export class PlatformProvider implements ServedProvider {
    private readonly loaded = new Map<string, Promise<pulumi.dynamic.ResourceProvider>>();
    /** The provider's settings as a TypeScript program's stack config holds them (Configure gives them). */
    private config: Record<string, string> = {};
    /** By type name: the properties the schema marks secret (inputs and outputs), kept secret in what goes back. */
    private readonly declaredSecrets: Map<string, string[]>;

    constructor(
        readonly version: string,
        readonly schema: string,
        /** Settles once the lines printed so far reached the engine: each call awaits it before it returns. */
        private readonly linesSent: () => Promise<void> = () => Promise.resolve(),
        private readonly plan: PlanLines = new PlanLines((line) => console.log(line), false),
    ) {
        this.declaredSecrets = secretsBySchema(schema);
        for (const method of ["check", "diff", "create", "read", "update", "delete", "invoke"] as const) {
            const call = this[method].bind(this) as (...args: unknown[]) => Promise<unknown>;
            (this as Record<string, unknown>)[method] = async (...args: unknown[]) => {
                try {
                    return await call(...args);
                } finally {
                    await this.linesSent();
                }
            };
        }
    }

    /** The provider's settings: each key's rule, secrets kept secret. */
    async checkConfig(_olds: Props, news: Props): Promise<provider.CheckResult> {
        const failures = providerConfigFailures(unwrapSecrets(news) as Props);
        if (failures.length > 0) return { failures };
        return { inputs: wrapSecrets(news, SECRET_CONFIG_KEYS) };
    }

    /** A changed setting updates the provider and replaces nothing: the resources under it stay what they are. */
    async diffConfig(olds: Props, news: Props): Promise<provider.DiffResult> {
        const [before, after] = [unwrapSecrets(olds) as Props, unwrapSecrets(news) as Props];
        const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
        return { changes: [...keys].some((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key])), replaces: [] };
    }

    async configure(inputs: Props): Promise<void> {
        this.config = asStackConfig(unwrapSecrets(inputs) as Props);
    }

    async check(urn: string, olds: Props, news: Props): Promise<provider.CheckResult> {
        const { typeName, name } = parseUrn(urn);
        const dynamic = await this.dynamicOf(typeName);
        const given = { ...(unwrapSecrets(news) as Props), resourceName: name, dryRun: this.plan.dryRun };
        const result = await this.linesShownOnFailure(urn, () => this.plan.checking(urn, () => dynamic.check!(unwrapSecrets(olds), given)));
        if (result.failures && result.failures.length > 0) {
            this.plan.release(urn);
            return { failures: result.failures };
        }
        return { inputs: this.withSecrets(typeName, result.inputs as Props, news) };
    }

    async diff(id: string, urn: string, olds: Props, news: Props): Promise<provider.DiffResult> {
        const { typeName } = parseUrn(urn);
        const dynamic = await this.dynamicOf(typeName);
        const result = await this.linesShownOnFailure(urn, () => this.plan.diffing(urn, () => dynamic.diff!(id, unwrapSecrets(olds), unwrapSecrets(news))));
        // Unless the engine is told of a change, it calls nothing more for this resource.
        if (result.changes !== true) this.plan.release(urn);
        return result;
    }

    async create(urn: string, inputs: Props, preview = false): Promise<provider.CreateResult> {
        this.plan.applying(urn, preview);
        // A preview's create: the inputs stand for the outputs, as the engine has them without a provider's preview.
        if (preview) return { id: "", outs: inputs };
        const { typeName } = parseUrn(urn);
        const dynamic = await this.dynamicOf(typeName);
        try {
            const result = await dynamic.create(unwrapSecrets(inputs));
            return { id: result.id, outs: this.withSecrets(typeName, result.outs as Props, inputs) };
        } catch (error) {
            throw this.asKept(typeName, error, inputs);
        }
    }

    async read(id: string, urn: string, props: Props): Promise<provider.ReadResult> {
        const { typeName } = parseUrn(urn);
        const dynamic = await this.dynamicOf(typeName);
        if (dynamic.read === undefined) return { id, props };
        const result = await dynamic.read(id, unwrapSecrets(props));
        return { id: result.id, props: this.withSecrets(typeName, result.props as Props, props) };
    }

    async update(id: string, urn: string, olds: Props, news: Props, preview = false): Promise<provider.UpdateResult> {
        this.plan.applying(urn, preview);
        if (preview) return { outs: news };
        const { typeName } = parseUrn(urn);
        const dynamic = await this.dynamicOf(typeName);
        try {
            const result = await dynamic.update!(id, unwrapSecrets(olds), unwrapSecrets(news));
            return { outs: this.withSecrets(typeName, (result.outs ?? {}) as Props, news) };
        } catch (error) {
            throw this.asKept(typeName, error, news);
        }
    }

    async delete(id: string, urn: string, props: Props): Promise<void> {
        const { typeName } = parseUrn(urn);
        const dynamic = await this.dynamicOf(typeName);
        await dynamic.delete?.(id, unwrapSecrets(props));
    }

    /** The engine cancels the run (Ctrl-C): the steps in flight end, recording what they leave running. */
    async cancel(): Promise<void> {
        cancelHost();
    }

    /** A function, as a TypeScript program's call runs it; a failure is the call's failure, naming the function. */
    async invoke(token: string, inputs: Props): Promise<provider.InvokeResult> {
        const name = token.split(":").pop() ?? token;
        const served = SERVED_FUNCTIONS[name];
        if (served === undefined) throw new Error(`${PACKAGE_NAME}: unknown function ${token}`);
        const args = Object.fromEntries(Object.entries(unwrapSecrets(inputs) as Props).filter(([, value]) => value !== undefined && value !== null));
        const credentials = readCredentialConfig((name) => this.config[`${CONFIG_NAMESPACE}:${name}`]);
        return { outputs: await served.call(args, credentials, process.env) };
    }

    /** A check or diff of `urn`: a failure's lines are shown at once (nothing follows it). */
    private async linesShownOnFailure<T>(urn: string, work: () => Promise<T>): Promise<T> {
        try {
            return await work();
        } catch (error) {
            this.plan.release(urn);
            throw error;
        }
    }

    /**
     * A partial failure (the resource exists; its id and properties go into the state, with the reasons) as the engine
     * must get it from a plugin: plain JSON (no shim: a plugin's resources have none), secrets wrapped as in outputs.
     * Any other error as it is.
     */
    private asKept(typeName: string, error: unknown, given: Props): unknown {
        const failure = error as { id?: unknown; properties?: unknown };
        if (typeof failure?.id !== "string" || typeof failure.properties !== "object" || failure.properties === null) return error;
        const { __provider: _shim, ...properties } = JSON.parse(JSON.stringify(failure.properties)) as Props;
        failure.properties = this.withSecrets(typeName, properties, given);
        return error;
    }

    /** What the state keeps secret, in inputs and outputs: what the schema marks secret, and whatever came in as a secret. */
    private withSecrets(typeName: string, values: Props, given: Props): Props {
        return wrapSecrets(values, new Set([...(this.declaredSecrets.get(typeName) ?? []), ...secretProperties(given)]));
    }

    private dynamicOf(typeName: string): Promise<pulumi.dynamic.ResourceProvider> {
        const served: ServedResource | undefined = SERVED_RESOURCES[typeName];
        if (served === undefined) return Promise.reject(new Error(`${PACKAGE_NAME}: unknown resource type ${typeName}`));
        let loading = this.loaded.get(typeName);
        if (loading === undefined) {
            const config = this.config;
            loading = served.load().then(async (dynamic) => {
                await dynamic.configure?.({ config: { get: (key: string) => config[key] } as pulumi.dynamic.ConfigureRequest["config"] });
                return dynamic;
            });
            this.loaded.set(typeName, loading);
        }
        return loading;
    }
}

/** The secret properties of each resource of a package schema (its `properties` hold the inputs' marks too). */
function secretsBySchema(schema: string): Map<string, string[]> {
    const resources = (JSON.parse(schema) as { resources?: Record<string, { properties?: Record<string, { secret?: boolean }> }> }).resources ?? {};
    return new Map(
        Object.entries(resources).map(([token, resource]) => [
            token.split(":").pop() ?? token,
            Object.entries(resource.properties ?? {})
                .filter(([, property]) => property.secret === true)
                .map(([name]) => name),
        ]),
    );
}

/** `urn:pulumi:dev::project::platform:index:ClusterScale::layout` → ClusterScale, layout. */
export function parseUrn(urn: string): { typeName: string; name: string } {
    const parts = urn.split("::");
    const name = parts.slice(3).join("::");
    const type = parts[2]?.split("$").pop() ?? "";
    return { typeName: type.split(":").pop() ?? "", name };
}
