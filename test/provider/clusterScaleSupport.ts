// Runs the cluster-scale fixture program through test/engine against one emulator, and reads what the emulator saw.
import * as assert from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { ClusterClient } from "../../sdk/cluster/clusterClient";
import type { BrokerState } from "../../sdk/schemas";
import { RequestLogEntry, ResetBody, RunningEmulator, startEmulator } from "../emulator";
import { Command, RunPulumiResult } from "../engine";
import { FixtureEngine, runStack } from "../support/stack";
import type { ResourceState } from "../engine";

export const PROGRAM = path.join(__dirname, "programs", "cluster-scale");
export const PROJECT = "fixture-cluster-scale";
export const STACK = "dev";
export const URN = `urn:pulumi:${STACK}::${PROJECT}::pulumi-nodejs:dynamic/platform:ClusterScale::cluster`;
const PASSPHRASE = "cluster-scale fixture";

/** The ClusterScale arguments a run declares (plain values; the program passes them through). */
export interface ScaleArgs {
    managementUrl?: string;
    gatewayUrl?: string;
    basePath?: string;
    brokers?: number[];
    brokerCount?: number;
    partitionCount?: number;
    replicationFactor?: number;
    force?: boolean;
    timeoutSeconds?: number;
    cancelOnTimeout?: boolean;
    maxBrokersRemoved?: number;
    kubernetes?: Record<string, unknown>;
}

export interface RunOptions {
    /** Extra stack config (platform:managementUrl is set unless given here as ""). */
    config?: Record<string, string>;
    secrets?: Record<string, string>;
    /** Extra environment of the run (proxies, PLATFORM_TLS_CA_FILE). */
    env?: Record<string, string>;
    onLine?: (line: string) => void;
    /** `--skip-preview`: no preview pass before up, refresh or destroy. */
    skipPreview?: boolean;
    /** The engine in this process (runPulumi's inProcess): for the cases of a matrix. */
    inProcess?: boolean;
    /** Kills the run (SIGKILL, as an interrupted CLI): it then runs in processes of its own. */
    signal?: AbortSignal;
}

export interface ScaleRun {
    result: RunPulumiResult;
    /** The management and gateway requests the emulator served during the run. */
    requests: RequestLogEntry[];
    /** Lines the provider printed. */
    hostLines: string[];
    /** The ClusterScale's record in the state after the run. */
    resource: ResourceState | undefined;
}

/** A layout without timestamps and versions, ordered by id: what "the same topology" means. */
export interface Layout {
    id: number;
    state: string;
    partitions: { id: number; priority: number; state: string }[];
}

export class ClusterScaleFixture {
    emulator!: RunningEmulator;
    private directory = "";
    private stateFile = "";
    private stateNumber = 0;

    constructor(private readonly engine: FixtureEngine = "process") {}

    async start(): Promise<void> {
        this.emulator = await startEmulator({ opMs: 10 });
        this.directory = fs.mkdtempSync(path.join(os.tmpdir(), "cluster-scale-"));
    }

    async stop(): Promise<void> {
        await this.emulator?.close();
        if (this.directory) fs.rmSync(this.directory, { recursive: true, force: true });
    }

    /** A fresh cluster (small operation time unless given) and an empty stack. */
    reset(body: ResetBody): void {
        this.emulator.control.reset({ opMs: 10, ...body });
        this.emulator.control.clearFaults();
        this.emulator.control.clearRequests();
        this.stateFile = path.join(this.directory, `state-${++this.stateNumber}.json`);
    }

    get stateText(): string {
        return fs.existsSync(this.stateFile) ? fs.readFileSync(this.stateFile, "utf8") : "";
    }

    /** One output of the ClusterScale as the state file records it (the resource's, not the stack's). */
    recordedOutput(name: string): unknown {
        const content = JSON.parse(this.stateText) as { resources: Record<string, { outputs: Record<string, unknown> }> };
        return content.resources[URN].outputs[name];
    }

    /** Removes one output of the ClusterScale from the state file, as a state written by an older version would lack it. */
    dropOutput(name: string): void {
        const content = JSON.parse(this.stateText) as { resources: Record<string, { outputs: Record<string, unknown> }> };
        delete content.resources[URN].outputs[name];
        fs.writeFileSync(this.stateFile, JSON.stringify(content, null, 2) + "\n", { mode: 0o600 });
    }

    cluster(): ClusterClient {
        return new ClusterClient({ managementUrl: this.emulator.managementUrl });
    }

    async run(command: Command, args: ScaleArgs, options: RunOptions = {}): Promise<ScaleRun> {
        this.emulator.control.clearRequests();
        const stack = {
            programDir: PROGRAM,
            stack: STACK,
            stateFile: this.stateFile,
            tokenCacheDir: path.join(this.directory, "tokens"),
            passphrase: PASSPHRASE,
        };
        // The route may hold a kubeconfig: it goes in as secret config, as a user sets it.
        const { kubernetes, ...scale } = args;
        const config = { "platform:managementUrl": this.emulator.managementUrl, scale: JSON.stringify(scale), ...options.config };
        const secrets = { ...(kubernetes === undefined ? {} : { kubernetes: JSON.stringify(kubernetes) }), ...options.secrets };
        const inProcess = options.signal === undefined && (options.inProcess ?? this.engine === "in-process");
        const result = await runStack(stack, command, { ...options, config, secrets, inProcess });
        const requests = this.emulator.control.requests().filter((entry) => entry.interface === "management" || entry.interface === "gateway");
        const hostLines = result.diagnostics.map((diagnostic) => diagnostic.line);
        return { result, requests, hostLines, resource: result.state.resources[URN] };
    }
}

export function succeeded(run: ScaleRun): void {
    assert.strictEqual(run.result.exitCode, 0, `exit ${run.result.exitCode}\n${run.result.stdout}\n${run.result.stderr}`);
}

export function failed(run: ScaleRun): string {
    assert.notStrictEqual(run.result.exitCode, 0, `expected a failure\n${run.result.stdout}`);
    return run.result.stderr;
}

export { dryRuns, mutating, requestLine } from "../support/requestLog";

export function layout(brokers: readonly { id: number; state: string; partitions: readonly { id: number; priority: number; state: string }[] }[]): Layout[] {
    return [...brokers]
        .sort((a, b) => a.id - b.id)
        .map((broker) => ({
            id: broker.id,
            state: broker.state,
            partitions: [...broker.partitions].sort((a, b) => a.id - b.id).map(({ id, priority, state }) => ({ id, priority, state })),
        }));
}

export function apiLayout(brokers: readonly BrokerState[]): Layout[] {
    return layout(brokers);
}

/** The run printed a line containing every fragment, in one line. */
export function printed(run: ScaleRun, ...fragments: string[]): boolean {
    return run.hostLines.some((line) => fragments.every((fragment) => line.includes(fragment)));
}

export function output<T>(run: ScaleRun, name: string): T {
    return run.result.outputs[name] as unknown as T;
}
