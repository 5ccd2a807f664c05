// Runs a Pulumi program in this process under the Pulumi runtime's mocks, the way the Node.js language host runs
// it (inside the root stack resource), and hands each resource registration to the engine.
//
// Runtime state is process-wide: the engine runs one program per process (cli.ts). The in-process engine (for the
// suites' matrices) runs one program at a time, each from a fresh load of its modules.
import { RegisterResourceOutputsRequest, RegisterResourceRequest } from "@pulumi/pulumi/proto/resource_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { Project, StackConfig } from "./project";
import { isObject, PropertyMap, PropertyValue, UNKNOWN } from "./propertyValues";
import { Registration, RegistrationResult } from "./deployment";
import { capturePrinted } from "./inProcessHost";
import { forgetModules, PACKAGE_DIST } from "./moduleCache";
import { engineUrn } from "./urns";

type Pulumi = typeof import("@pulumi/pulumi");
type Callback = (error: Error | null, response?: unknown) => void;

/** The parts of the runtime's MockMonitor this runner hooks into. */
interface MockMonitorHooks {
    newUrn(parent: string, type: string, name: string): string;
    registerResource(request: RegisterResourceRequest, callback: Callback): unknown;
    registerResourceOutputs(request: RegisterResourceOutputsRequest, callback: Callback): unknown;
}

export interface RegistrationHandler {
    register(registration: Registration): Promise<RegistrationResult>;
    registerOutputs(urn: string, outputs: PropertyMap): void;
}

export interface ProgramRunOptions {
    project: Project;
    stack: string;
    config: StackConfig;
    preview: boolean;
    handler: RegistrationHandler;
    /** In the test's process: the working directory stays, and the program's modules are loaded anew. */
    inProcess?: boolean;
    /** Where what the program prints goes, in-process. */
    print?: (stream: "stdout" | "stderr", text: string) => void;
}

export interface ProgramRunResult {
    /**
     * Errors of the program itself (thrown, or rejected and never handled). Rejections the runtime reports late
     * keep arriving here after the run: the process-wide listener stays, so none of them can crash the process.
     */
    errors: unknown[];
}

/** The errors of the program running now; rejections that arrive after it ended have nowhere to go and are dropped. */
let programErrors: unknown[] = [];
let listening = false;

export function runProgram(options: ProgramRunOptions): Promise<ProgramRunResult> {
    // In the test's process, what the program and the runtime print is the run's output (a process's stdout otherwise).
    const print = options.print;
    return options.inProcess && print ? capturePrinted(print, () => run(options)) : run(options);
}

async function run(options: ProgramRunOptions): Promise<ProgramRunResult> {
    const { project, stack, config, preview, handler } = options;
    const errors: unknown[] = [];
    programErrors = errors;
    if (!listening) {
        process.on("unhandledRejection", (reason: unknown) => programErrors.push(reason));
        listening = true;
    }
    try {
        if (options.inProcess) {
            forgetModules(project.dir, PACKAGE_DIST);
        } else {
            process.chdir(project.dir);
        }
        // The program's own copy of the SDK (the one its `import "@pulumi/pulumi"` loads) is the one to mock.
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- a module found at run time, by path
        const pulumi = require(require.resolve("@pulumi/pulumi", { paths: [project.dir] })) as Pulumi;
        const plain: Record<string, string> = {};
        for (const [key, { value }] of Object.entries(config)) plain[key] = value;
        const secretKeys = Object.keys(config).filter((key) => config[key].secret);
        pulumi.runtime.setAllConfig(plain, secretKeys);

        // MockMonitor.registerResource calls mocks.newResource synchronously, so the request it was given is
        // handed over through `pending`; it carries what the mock arguments lack (parent, dependencies, options).
        let pending: RegisterResourceRequest | undefined;
        const mocks = {
            newResource: async (args: { type: string; name: string; inputs: Record<string, unknown>; id?: string }) => {
                const request = pending;
                pending = undefined;
                if (!request || request.getType() !== args.type || request.getName() !== args.name) {
                    throw new Error(`reading existing resources (get/import of ${args.type} ${args.name}) is not supported by the test engine`);
                }
                const registration = toRegistration(pulumi, stack, project.name, request, args.inputs);
                const result = await handler.register(registration);
                return { id: result.id, state: result.outputs };
            },
            call: (args: { token: string }): Record<string, unknown> => {
                throw new Error(`invoke ${args.token} is not supported by the test engine`);
            },
        };
        await pulumi.runtime.setMocks(mocks, project.name, stack, preview);
        const monitor = pulumi.runtime.getMonitor() as unknown as MockMonitorHooks;
        monitor.newUrn = (parent, type, name) => engineUrn(stack, project.name, parent, type, name);
        const registerResource = monitor.registerResource.bind(monitor);
        monitor.registerResource = (request, callback) => {
            pending = request;
            try {
                return registerResource(request, callback);
            } finally {
                pending = undefined;
            }
        };
        const registerResourceOutputs = monitor.registerResourceOutputs.bind(monitor);
        monitor.registerResourceOutputs = (request, callback) => {
            handler.registerOutputs(request.getUrn(), structToMap(request.getOutputs()));
            return registerResourceOutputs(request, callback);
        };

        try {
            await pulumi.runtime.runInPulumiStack(async () => {
                // As the language host: the module's exports are the stack outputs; an exported function is run.
                // eslint-disable-next-line @typescript-eslint/no-require-imports -- the program, found at run time
                const exported: unknown = require(project.entry);
                return exported instanceof Function ? exported() : exported;
            });
        } catch (error) {
            errors.push(error);
        }
        // Waits for every outstanding registration, as the language host does before it exits.
        await pulumi.runtime.disconnect();
        // Node reports unhandled rejections between macrotasks: let those of the program's last turn arrive.
        await new Promise((resolve) => setImmediate(resolve));
    } catch (error) {
        errors.push(error);
    }
    return { errors };
}

function toRegistration(pulumi: Pulumi, stack: string, project: string, request: RegisterResourceRequest, inputs: Record<string, unknown>): Registration {
    const type = request.getType();
    const name = request.getName();
    const unsupported = unsupportedOptions(request);
    if (unsupported.length > 0) {
        throw new Error(`resource options not supported by the test engine: ${unsupported.join(", ")}`);
    }
    return {
        urn: engineUrn(stack, project, request.getParent(), type, name),
        type,
        name,
        custom: request.getCustom(),
        parent: request.getParent(),
        inputs: toPropertyMap(pulumi, inputs),
        dependencies: request.getDependenciesList(),
        ...(request.getDeletebeforereplacedefined() ? { deleteBeforeReplace: request.getDeletebeforereplace() } : {}),
        ...(request.getImportid() ? { importId: request.getImportid() } : {}),
        additionalSecretOutputs: request.getAdditionalsecretoutputsList(),
    };
}

/** Options that change what the engine does and that this engine does not implement: refuse rather than ignore. */
function unsupportedOptions(request: RegisterResourceRequest): string[] {
    const found: string[] = [];
    if (request.getProtect()) found.push("protect");
    if (request.getIgnorechangesList().length > 0) found.push("ignoreChanges");
    if (request.getReplaceonchangesList().length > 0) found.push("replaceOnChanges");
    if (request.getRetainondelete()) found.push("retainOnDelete");
    if (request.getDeletedwith()) found.push("deletedWith");
    if (request.getAliasesList().length > 0) found.push("aliases");
    return found;
}

/** Mock inputs to engine form: unknowns (preview) become the sentinel; secrets stay wrapped. */
function toPropertyMap(pulumi: Pulumi, inputs: Record<string, unknown>): PropertyMap {
    const convert = (value: unknown, path: string): PropertyValue | undefined => {
        if (pulumi.isUnknown(value)) return UNKNOWN;
        if (value === undefined) return undefined;
        if (value === null || typeof value === "string" || typeof value === "boolean") return value;
        if (typeof value === "number") return value;
        if (Array.isArray(value)) return value.map((v, i) => convert(v, `${path}[${i}]`) ?? null);
        if (isObject(value) && Object.getPrototypeOf(value) === Object.prototype) {
            const result: PropertyMap = {};
            for (const [key, v] of Object.entries(value)) {
                const converted = convert(v, `${path}.${key}`);
                if (converted !== undefined) result[key] = converted;
            }
            return result;
        }
        throw new Error(`input ${path}: values of this kind (assets, resource references) are not supported by the test engine`);
    };
    return (convert(inputs, "inputs") ?? {}) as PropertyMap;
}

function structToMap(struct: Struct | undefined): PropertyMap {
    return (struct?.toJavaScript() ?? {}) as PropertyMap;
}
