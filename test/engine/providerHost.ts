// The stack's one dynamic-provider host process, configured when a run first needs it, as the engine loads the
// default `pulumi-nodejs` provider. The process itself can be spawned ahead (prestart) so its start-up overlaps
// the program's loading; nothing reaches it before Configure.
//
// What it is configured with is the default provider's inputs: in preview and up, the stack config of this run; in
// refresh and destroy, the inputs the state recorded for the provider at the last up (the engine loads providers of
// a refresh or a destroy from the snapshot: pkg/resource/deploy/providers/registry.go, Same).
import { DynamicHost, ProviderPlugin } from "./dynamicHost";
import { Display } from "./display";
import { InProcessHost } from "./inProcessHost";
import { Project, StackConfig } from "./project";
import { isSecret, makeSecret, PropertyMap, unwrapSecrets } from "./propertyValues";
import { DYNAMIC_PACKAGE } from "./urns";

/** Where the provider runs: the dynamic-provider host process, as the engine runs it, or this process (InProcessHost). */
export type HostKind = "process" | "in-process";

export class ProviderHost {
    private spawned?: Promise<ProviderPlugin>;
    private started?: Promise<ProviderPlugin>;

    constructor(
        private readonly project: Project,
        /** The default provider's inputs (see providerInputsFor). */
        private readonly inputs: PropertyMap,
        private readonly display: Display,
        private readonly kind: HostKind = "process",
    ) {}

    prestart(): void {
        this.spawn().catch(() => undefined); // a failed start is reported by get()
    }

    get(): Promise<ProviderPlugin> {
        this.started ??= this.start();
        return this.started;
    }

    async stop(): Promise<void> {
        const host = await this.spawned?.catch(() => undefined);
        await host?.stop();
    }

    private spawn(): Promise<ProviderPlugin> {
        const options = { cwd: this.project.dir, project: this.project.name, onLog: this.display.diagnostic.bind(this.display) };
        this.spawned ??= this.kind === "in-process" ? InProcessHost.start(options) : DynamicHost.start(options);
        return this.spawned;
    }

    private async start(): Promise<ProviderPlugin> {
        const host = await this.spawn();
        try {
            await host.configure(this.inputs, configureVariables(this.inputs));
        } catch (error) {
            await host.stop();
            throw error;
        }
        return host;
    }
}

/**
 * The default provider's inputs for the dynamic resources: the whole stack config, keys kept namespaced, secrets
 * marked (GetPackageConfig in pkg/resource/deploy/target.go passes everything to a dynamic provider).
 */
export function providerInputsFor(config: StackConfig): PropertyMap {
    const inputs: PropertyMap = {};
    for (const [key, { value, secret }] of Object.entries(config)) inputs[key] = secret ? makeSecret(value) : value;
    return inputs;
}

/**
 * The legacy `variables` map of ConfigureRequest, `<package>:config:<key>` in plain text, values that are not text as
 * JSON (Configure in sdk/go/common/resource/plugin/provider_plugin.go).
 */
export function configureVariables(inputs: PropertyMap): Record<string, string> {
    const variables: Record<string, string> = {};
    for (const [key, value] of Object.entries(inputs)) {
        const plain = isSecret(value) ? unwrapSecrets(value) : value;
        variables[`${DYNAMIC_PACKAGE}:config:${key}`] = typeof plain === "string" ? plain : JSON.stringify(plain);
    }
    return variables;
}
