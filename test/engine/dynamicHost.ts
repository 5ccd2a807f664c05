// Drives the real dynamic-provider host of @pulumi/pulumi (cmd/dynamic-provider) over gRPC, as the engine does.
import { ChildProcess, spawn } from "child_process";
import * as readline from "readline";
import { credentials, Metadata, ServiceError } from "@grpc/grpc-js";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { ResourceProviderClient } from "@pulumi/pulumi/proto/provider_grpc_pb";
import {
    CheckRequest,
    CheckResponse,
    ConfigureRequest,
    ConfigureResponse,
    CreateRequest,
    CreateResponse,
    DeleteRequest,
    DiffRequest,
    DiffResponse,
    ErrorResourceInitFailed,
    ReadRequest,
    ReadResponse,
    UpdateRequest,
    UpdateResponse,
} from "@pulumi/pulumi/proto/provider_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Status } from "@pulumi/pulumi/proto/status_pb";
import { PropertyMap } from "./propertyValues";
import { urnName, urnType } from "./urns";

export type HostStream = "stdout" | "stderr";

export interface DynamicHostOptions {
    /** The program directory: the host resolves the serialized providers' `require`s from its cwd. */
    cwd: string;
    project: string;
    env?: NodeJS.ProcessEnv;
    /** Every stdout/stderr line of the host after its port line, as it arrives. */
    onLog?: (stream: HostStream, line: string) => void;
}

export interface CheckFailure {
    property: string;
    reason: string;
}

export interface CheckResult {
    inputs: PropertyMap;
    failures: CheckFailure[];
}

export type DiffChanges = "unknown" | "none" | "some";

export interface DiffResult {
    changes: DiffChanges;
    replaces: string[];
    deleteBeforeReplace: boolean;
}

export interface ReadResult {
    /** Empty when the resource no longer exists. */
    id: string;
    properties: PropertyMap;
    inputs?: PropertyMap;
}

export interface InitFailure {
    id: string;
    properties: PropertyMap;
    reasons: string[];
}

/** A failed call. `initFailure` is set for a partial failure (pulumirpc.ErrorResourceInitFailed). */
export class HostCallError extends Error {
    constructor(
        readonly method: string,
        readonly code: number,
        message: string,
        readonly initFailure?: InitFailure,
    ) {
        super(message);
        this.name = "HostCallError";
    }
}

/** The calls the engine makes of a provider plugin: the real host process (DynamicHost) or InProcessHost. */
export type ProviderPlugin = Pick<DynamicHost, "configure" | "check" | "diff" | "create" | "read" | "update" | "delete" | "stop">;

/** Any string works: the host checks that the engine address argument exists and never connects to it. */
const ENGINE_ADDRESS = "127.0.0.1:0";
const START_TIMEOUT_MS = 30_000;
const INIT_FAILED_TYPE = "pulumirpc.ErrorResourceInitFailed";

export class DynamicHost {
    private exited = false;
    private stopped = false;
    private readonly exitPromise: Promise<void>;

    private constructor(
        private readonly child: ChildProcess,
        private readonly client: ResourceProviderClient,
        exitPromise: Promise<void>,
    ) {
        this.exitPromise = exitPromise.then(() => {
            this.exited = true;
        });
    }

    /** Spawns the host with the program directory as cwd and PULUMI_NODEJS_PROJECT set, as the engine does. */
    static async start(options: DynamicHostOptions): Promise<DynamicHost> {
        const script = require.resolve("@pulumi/pulumi/cmd/dynamic-provider", { paths: [options.cwd] });
        // As the CLI starts a plugin: stdin a pipe the engine holds (a host that watches it sees the engine go).
        const child = spawn(process.execPath, [script, ENGINE_ADDRESS], {
            cwd: options.cwd,
            env: {
                ...process.env,
                ...options.env,
                PULUMI_NODEJS_PROJECT: options.project,
                PULUMI_PROJECT: options.project,
            },
            stdio: ["pipe", "pipe", "pipe"],
        });
        // "close" comes after the output pipes are drained, so no log line is lost when the host stops.
        const exitPromise = new Promise<void>((resolve) => child.once("close", () => resolve()));
        const stderrLines: string[] = [];
        readline.createInterface({ input: child.stderr! }).on("line", (line) => {
            if (stderrLines.length < 50) stderrLines.push(line);
            options.onLog?.("stderr", line);
        });
        const port = await new Promise<string>((resolve, reject) => {
            let waitingForPort = true;
            const fail = (error: Error) => {
                if (!waitingForPort) return;
                waitingForPort = false;
                clearTimeout(timer);
                child.kill();
                reject(error);
            };
            const timer = setTimeout(() => fail(new Error("the dynamic provider host did not report a port")), START_TIMEOUT_MS);
            readline.createInterface({ input: child.stdout! }).on("line", (line) => {
                if (waitingForPort) {
                    waitingForPort = false;
                    clearTimeout(timer);
                    resolve(line.trim());
                } else {
                    options.onLog?.("stdout", line);
                }
            });
            child.once("error", fail);
            child.once("exit", (code, signal) => {
                fail(new Error(`the dynamic provider host exited (${signal ?? code}) before serving: ${stderrLines.join("\n")}`));
            });
        });
        if (!/^\d+$/.test(port)) {
            child.kill();
            throw new Error(`the dynamic provider host printed ${JSON.stringify(port)} instead of its port`);
        }
        const client = new ResourceProviderClient(`127.0.0.1:${port}`, credentials.createInsecure());
        return new DynamicHost(child, client, exitPromise);
    }

    /**
     * Configure with the stack config the way the engine sends it: `args` keeps secrets wrapped and the legacy
     * `variables` map carries every value as plaintext text.
     */
    async configure(args: PropertyMap, variables: Record<string, string> = {}): Promise<{ acceptSecrets: boolean }> {
        const request = new ConfigureRequest();
        request.setArgs(toStruct(args));
        for (const [key, value] of Object.entries(variables)) request.getVariablesMap().set(key, value);
        request.setAcceptsecrets(true);
        request.setAcceptresources(true);
        request.setSendsOldInputs(true);
        request.setSendsOldInputsToDelete(true);
        const response = await this.unary<ConfigureResponse>("Configure", (done) => this.client.configure(request, done));
        return { acceptSecrets: response.getAcceptsecrets() };
    }

    async check(urn: string, olds: PropertyMap, news: PropertyMap): Promise<CheckResult> {
        const request = new CheckRequest();
        request.setUrn(urn);
        request.setName(urnName(urn));
        request.setType(urnType(urn));
        request.setOlds(toStruct(olds));
        request.setNews(toStruct(news));
        const response = await this.unary<CheckResponse>("Check", (done) => this.client.check(request, done));
        return {
            inputs: fromStruct(response.getInputs()),
            failures: response.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
        };
    }

    async diff(urn: string, id: string, oldOutputs: PropertyMap, newInputs: PropertyMap, oldInputs: PropertyMap): Promise<DiffResult> {
        const request = new DiffRequest();
        request.setUrn(urn);
        request.setName(urnName(urn));
        request.setType(urnType(urn));
        request.setId(id);
        request.setOlds(toStruct(oldOutputs));
        request.setNews(toStruct(newInputs));
        request.setOldInputs(toStruct(oldInputs));
        const response = await this.unary<DiffResponse>("Diff", (done) => this.client.diff(request, done));
        const changes = response.getChanges();
        return {
            changes: changes === DiffResponse.DiffChanges.DIFF_SOME ? "some" : changes === DiffResponse.DiffChanges.DIFF_NONE ? "none" : "unknown",
            replaces: response.getReplacesList(),
            deleteBeforeReplace: response.getDeletebeforereplace(),
        };
    }

    async create(urn: string, properties: PropertyMap): Promise<{ id: string; properties: PropertyMap }> {
        const request = new CreateRequest();
        request.setUrn(urn);
        request.setName(urnName(urn));
        request.setType(urnType(urn));
        request.setProperties(toStruct(properties));
        const response = await this.unary<CreateResponse>("Create", (done) => this.client.create(request, done));
        return { id: response.getId(), properties: fromStruct(response.getProperties()) };
    }

    /** `properties` undefined: a read with none at all, as the engine's ImportStep sends it. */
    async read(urn: string, id: string, properties: PropertyMap | undefined, inputs?: PropertyMap): Promise<ReadResult> {
        const request = new ReadRequest();
        request.setUrn(urn);
        request.setName(urnName(urn));
        request.setType(urnType(urn));
        request.setId(id);
        if (properties) request.setProperties(toStruct(properties));
        if (inputs) request.setInputs(toStruct(inputs));
        const response = await this.unary<ReadResponse>("Read", (done) => this.client.read(request, done));
        const liveInputs = response.getInputs();
        return {
            id: response.getId(),
            properties: fromStruct(response.getProperties()),
            ...(liveInputs ? { inputs: fromStruct(liveInputs) } : {}),
        };
    }

    async update(urn: string, id: string, oldOutputs: PropertyMap, newInputs: PropertyMap, oldInputs: PropertyMap): Promise<{ properties: PropertyMap }> {
        const request = new UpdateRequest();
        request.setUrn(urn);
        request.setName(urnName(urn));
        request.setType(urnType(urn));
        request.setId(id);
        request.setOlds(toStruct(oldOutputs));
        request.setNews(toStruct(newInputs));
        request.setOldInputs(toStruct(oldInputs));
        const response = await this.unary<UpdateResponse>("Update", (done) => this.client.update(request, done));
        return { properties: fromStruct(response.getProperties()) };
    }

    async delete(urn: string, id: string, oldOutputs: PropertyMap, oldInputs: PropertyMap): Promise<void> {
        const request = new DeleteRequest();
        request.setUrn(urn);
        request.setName(urnName(urn));
        request.setType(urnType(urn));
        request.setId(id);
        request.setProperties(toStruct(oldOutputs));
        request.setOldInputs(toStruct(oldInputs));
        await this.unary<Empty>("Delete", (done) => this.client.delete(request, done));
    }

    /** The engine's Cancel (the CLI sends it to every provider when a run is interrupted: Ctrl-C, SIGTERM). */
    async cancel(): Promise<void> {
        await this.unary<Empty>("Cancel", (done) => this.client.cancel(new Empty(), done));
    }

    /** As a killed engine leaves its plugins: its end of their stdin closed, their stdout and stderr no longer read. */
    abandon(): void {
        this.child.stdin?.destroy();
        this.child.stdout?.destroy();
        this.child.stderr?.destroy();
    }

    /** Resolves once the host process exited. */
    whenExited(): Promise<void> {
        return this.exitPromise;
    }

    /** The host's process id. */
    get pid(): number | undefined {
        return this.child.pid;
    }

    /** Closes the connection and ends the host process. */
    async stop(): Promise<void> {
        this.stopped = true;
        this.client.close();
        if (!this.exited) {
            this.child.stdin?.end();
            this.child.kill();
        }
        await this.exitPromise;
    }

    private unary<T>(method: string, invoke: (done: (error: ServiceError | null, response: T) => void) => void): Promise<T> {
        if (this.stopped) return Promise.reject(new HostCallError(method, 14, "the dynamic provider host is stopped"));
        return new Promise<T>((resolve, reject) => {
            invoke((error, response) => {
                if (error) reject(toHostCallError(method, error, this.exited));
                else resolve(response);
            });
        });
    }
}

function toHostCallError(method: string, error: ServiceError, hostExited: boolean): HostCallError {
    const message = hostExited ? `the dynamic provider host exited during ${method}` : error.details || error.message;
    return new HostCallError(method, error.code, message, initFailureOf(error.metadata));
}

/** The partial failure a failed call's metadata carries, if any. */
export function initFailureOf(metadata: Metadata | undefined): InitFailure | undefined {
    const raw = metadata?.get("grpc-status-details-bin")[0];
    if (!raw) return undefined;
    const status = Status.deserializeBinary(typeof raw === "string" ? Buffer.from(raw, "binary") : raw);
    for (const detail of status.getDetailsList()) {
        if (!detail.getTypeUrl().endsWith(INIT_FAILED_TYPE)) continue;
        const failure = ErrorResourceInitFailed.deserializeBinary(detail.getValue_asU8());
        return { id: failure.getId(), properties: fromStruct(failure.getProperties()), reasons: failure.getReasonsList() };
    }
    return undefined;
}

function toStruct(map: PropertyMap): Struct {
    // Struct.fromJavaScript rejects `undefined`; a JSON round trip drops such keys as the engine would.
    return Struct.fromJavaScript(JSON.parse(JSON.stringify(map)));
}

function fromStruct(struct: Struct | undefined): PropertyMap {
    return (struct?.toJavaScript() ?? {}) as PropertyMap;
}
