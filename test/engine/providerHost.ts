// The stack's one dynamic-provider host process, configured when a run first needs it, as the engine loads the
// default `pulumi-nodejs` provider. The process itself can be spawned ahead (prestart) so its start-up overlaps
// the program's loading; nothing reaches it before Configure.
//
// What it is configured with is the default provider's inputs: in preview and up, the stack config of this run; in
// refresh and destroy, the inputs the state recorded for the provider at the last up (the engine loads providers of
// a refresh or a destroy from the snapshot: pkg/resource/deploy/providers/registry.go, Same).
import { DynamicHost } from "./dynamicHost";
import { Display } from "./display";
import { Project, StackConfig } from "./project";
import { isSecret, makeSecret, PropertyMap, unwrapSecrets } from "./propertyValues";
import { DYNAMIC_PACKAGE } from "./urns";

export class ProviderHost {
    private spawned?: Promise<DynamicHost>;
    private started?: Promise<DynamicHost>;

    constructor(
        private readonly project: Project,
        /** The default provider's inputs (see providerInputsFor). */
        private readonly inputs: PropertyMap,
        private readonly display: Display,
    ) {}

    prestart(): void {
        this.spawn().catch(() => undefined); // a failed start is reported by get()
    }

    get(): Promise<DynamicHost> {
        this.started ??= this.start();
        return this.started;
    }

    async stop(): Promise<void> {
        const host = await this.spawned?.catch(() => undefined);
        await host?.stop();
    }

    private spawn(): Promise<DynamicHost> {
        this.spawned ??= DynamicHost.start({
            cwd: this.project.dir,
            project: this.project.name,
            onLog: (stream, line) => this.display.diagnostic(stream, line),
        });
        return this.spawned;
    }

    private async start(): Promise<DynamicHost> {
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
