// The stack's one dynamic-provider host process, configured when a run first needs it, as the engine loads the
// default `pulumi-nodejs` provider. The process itself can be spawned ahead (prestart) so its start-up overlaps
// the program's loading; nothing reaches it before Configure.
import { DynamicHost } from "./dynamicHost";
import { Display } from "./display";
import { Project, StackConfig } from "./project";
import { makeSecret, PropertyMap } from "./propertyValues";

export class ProviderHost {
    private spawned?: Promise<DynamicHost>;
    private started?: Promise<DynamicHost>;

    constructor(
        private readonly project: Project,
        private readonly config: StackConfig,
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
            const { args, variables } = configureRequestFor(this.config);
            await host.configure(args, variables);
        } catch (error) {
            await host.stop();
            throw error;
        }
        return host;
    }
}

/**
 * What the engine sends to Configure for the `pulumi-nodejs` provider: the whole stack config, secrets wrapped
 * in `args`; the legacy `variables` map (`<package>:config:<key>`) holds plain text.
 */
export function configureRequestFor(config: StackConfig): { args: PropertyMap; variables: Record<string, string> } {
    const args: PropertyMap = {};
    const variables: Record<string, string> = {};
    for (const [key, { value, secret }] of Object.entries(config)) {
        args[key] = secret ? makeSecret(value) : value;
        variables[`pulumi-nodejs:config:${key}`] = value;
    }
    return { args, variables };
}
