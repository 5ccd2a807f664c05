// A provider plugin in this process that does what the dynamic-provider host (@pulumi/pulumi's cmd/dynamic-provider)
// does with each call: it loads the provider from the serialized `__provider` text, configures it once with the stack
// config, and turns a create or update error that carries an `id` into a partial failure. Each instance stands for
// one host process: it loads the package's modules anew (a fresh token cache, claims and pass log, as a new process
// has), and what the provider prints during a call is its output.
//
// It is for the matrices of the suites (many cases, each a preview or an up): the real host process, the gRPC
// marshalling and the program's own process are what runs with the default engine (runPulumi without inProcess).
import { AsyncLocalStorage } from "async_hooks";
import * as path from "path";
import { format } from "util";
import type * as pulumi from "@pulumi/pulumi";
import type { CheckResult, DiffResult, HostStream, ProviderPlugin, ReadResult } from "./dynamicHost";
import { HostCallError } from "./dynamicHost";
import { forgetModules, PACKAGE_DIST } from "./moduleCache";
import { PropertyMap, unwrapSecrets } from "./propertyValues";

const PROVIDER_KEY = "__provider";
/** What the host sends for a value not known yet (rpc.unknownValue). */
const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

type Provider = pulumi.dynamic.ResourceProvider;
type ConfigClass = new (raw: Record<string, unknown>, project: string) => pulumi.dynamic.ConfigureRequest["config"];

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the host's own helpers, as it loads them
const requireFromString = require(require.resolve("require-from-string", { paths: [path.dirname(require.resolve("@pulumi/pulumi/package.json"))] })) as (
    code: string,
    filename: string,
) => { handler: () => Provider };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Config } = require("@pulumi/pulumi/cmd/dynamic-provider/config") as { Config: ConfigClass };

export interface InProcessHostOptions {
    /** The program directory: serialized providers resolve their `require`s from here, as from the host's cwd. */
    cwd: string;
    project: string;
    /** Every line the provider prints during a call. */
    onLog?: (stream: HostStream, line: string) => void;
}

export class InProcessHost implements ProviderPlugin {
    private config: Record<string, unknown> = {};
    private readonly providers = new Map<string | undefined, Promise<Provider>>();
    private loaded = false;

    private constructor(private readonly options: InProcessHostOptions) {}

    static async start(options: InProcessHostOptions): Promise<InProcessHost> {
        return new InProcessHost(options);
    }

    async configure(args: PropertyMap): Promise<{ acceptSecrets: boolean }> {
        const config: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(args)) if (key !== PROVIDER_KEY) config[key] = unwrapSecrets(value);
        this.config = config;
        return { acceptSecrets: false };
    }

    async check(_urn: string, olds: PropertyMap, news: PropertyMap): Promise<CheckResult> {
        return this.call("Check", true, async () => {
            const [o, n] = [wire(olds), wire(news)];
            const provider = await this.provider(n[PROVIDER_KEY] === UNKNOWN_VALUE ? o : n);
            const result = provider.check ? await provider.check(o, n) : { inputs: n };
            const inputs = (result.inputs ?? n) as Record<string, unknown>;
            inputs[PROVIDER_KEY] = n[PROVIDER_KEY];
            return { inputs: wire(inputs as PropertyMap), failures: (result.failures ?? []).map(({ property, reason }) => ({ property, reason })) };
        });
    }

    async diff(_urn: string, id: string, oldOutputs: PropertyMap, newInputs: PropertyMap): Promise<DiffResult> {
        return this.call("Diff", true, async () => {
            const [olds, news] = [wire(oldOutputs), wire(newInputs)];
            const provider = await this.provider(news[PROVIDER_KEY] === UNKNOWN_VALUE ? olds : news);
            if (!provider.diff) return { changes: "unknown", replaces: [], deleteBeforeReplace: false };
            const result = await provider.diff(id, olds, news);
            return {
                changes: result.changes === true ? "some" : result.changes === false ? "none" : "unknown",
                replaces: result.replaces ?? [],
                deleteBeforeReplace: result.deleteBeforeReplace === true,
            };
        });
    }

    async create(_urn: string, properties: PropertyMap): Promise<{ id: string; properties: PropertyMap }> {
        return this.call("Create", false, async () => {
            const props = wire(properties);
            const result = await (await this.provider(props)).create(props);
            return { id: result.id, properties: wire({ ...(result.outs ?? {}), [PROVIDER_KEY]: props[PROVIDER_KEY] }) };
        });
    }

    async read(_urn: string, id: string, properties: PropertyMap | undefined): Promise<ReadResult> {
        return this.call("Read", true, async () => {
            // A read without properties (an import's) reads as none, as in the host's process; loading the provider then fails.
            const props = wire(properties ?? {});
            const provider = await this.provider(props);
            if (!provider.read) return { id, properties: props };
            const result = await provider.read(id, props);
            const withProvider = (values: object | undefined) => wire({ ...(values ?? {}), [PROVIDER_KEY]: props[PROVIDER_KEY] } as PropertyMap);
            return { id: result.id ?? "", properties: withProvider(result.props), ...(result.inputs ? { inputs: withProvider(result.inputs) } : {}) };
        });
    }

    async update(_urn: string, id: string, oldOutputs: PropertyMap, newInputs: PropertyMap): Promise<{ properties: PropertyMap }> {
        return this.call("Update", false, async () => {
            const [olds, news] = [wire(oldOutputs), wire(newInputs)];
            const provider = await this.provider(news);
            const result = provider.update ? ((await provider.update(id, olds, news)) ?? {}) : {};
            return { properties: wire({ ...(result.outs ?? {}), [PROVIDER_KEY]: news[PROVIDER_KEY] }) };
        });
    }

    async delete(_urn: string, id: string, oldOutputs: PropertyMap): Promise<void> {
        return this.call("Delete", true, async () => {
            const props = wire(oldOutputs);
            const provider = await this.provider(props);
            if (provider.delete) await provider.delete(id, props);
        });
    }

    async stop(): Promise<void> {}

    /**
     * The serialized provider of these properties, loaded and configured once per text, as the host caches it. Without a
     * text (an import's read) the host's require-from-string fails (`code must be a string, not undefined`), and so does this.
     */
    private provider(props: Record<string, unknown>): Promise<Provider> {
        const text = props[PROVIDER_KEY] as string;
        let provider = this.providers.get(text);
        if (provider === undefined) {
            provider = this.load(text);
            this.providers.set(text, provider);
        }
        return provider;
    }

    private async load(text: string): Promise<Provider> {
        if (!this.loaded) {
            // A new host process: the package's modules (and their state) are loaded anew.
            forgetModules(PACKAGE_DIST);
            this.loaded = true;
        }
        const provider = requireFromString(text, path.join(this.options.cwd, "__provider.js")).handler();
        if (provider.configure) await provider.configure({ config: new Config(this.config, this.options.project) });
        return provider;
    }

    /**
     * Runs one call with what the provider prints routed to onLog. `plainErrors`: the host logs the error and fails
     * the call (check, diff, read, delete); create and update answer a partial failure for an error with an id.
     */
    private async call<T>(method: string, plainErrors: boolean, run: () => Promise<T>): Promise<T> {
        const log = (stream: HostStream, text: string) => text.split("\n").forEach((line) => this.options.onLog?.(stream, line));
        try {
            return await printed.run(log, run);
        } catch (error) {
            const e = error as Error & { id?: unknown; properties?: PropertyMap; reasons?: string[] };
            if (plainErrors) {
                log("stderr", `${String(e)}: ${e?.stack ?? ""}`);
                throw new HostCallError(method, 2, e?.message ?? String(error));
            }
            const initFailure = e?.id ? { id: String(e.id), properties: wire(e.properties ?? {}), reasons: e.reasons ?? [] } : undefined;
            throw new HostCallError(method, 2, e?.message ?? String(error), initFailure);
        }
    }
}

/** What a call prints goes to the host that runs it (console.* of a provider is its process's stdout and stderr). */
const printed = new AsyncLocalStorage<(stream: HostStream, text: string) => void>();

/** Runs `work` with what it prints (console.*, in this async context) sent to `sink`: a program's own output, in-process. */
export function capturePrinted<T>(sink: (stream: HostStream, text: string) => void, work: () => Promise<T>): Promise<T> {
    return printed.run(sink, work);
}

for (const [method, stream] of [
    ["log", "stdout"],
    ["info", "stdout"],
    ["error", "stderr"],
    ["warn", "stderr"],
] as const) {
    const original = console[method].bind(console);
    console[method] = (...args: unknown[]) => {
        const sink = printed.getStore();
        if (sink === undefined) return original(...args);
        sink(stream, format(...args));
    };
}

/** Properties as they travel between the engine and the host: JSON, so `undefined` drops out as in a Struct. */
function wire(map: PropertyMap | Record<string, unknown>): Record<string, unknown> & PropertyMap {
    return JSON.parse(JSON.stringify(map)) as Record<string, unknown> & PropertyMap;
}
