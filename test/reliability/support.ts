// The reliability suite's workbench: emulators, stacks (a state file and a token cache each, in one temporary
// directory for the whole suite), runs of the fixture program through test/engine, and what a run left in the
// emulator's request log. Every run goes through the leak scan (test/support/secretScan.ts) as it ends.
import * as assert from "assert";
import { randomBytes } from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { ClusterClient } from "../../sdk/cluster/clusterClient";
import { RequestLogEntry, ResetBody, RunningEmulator, startEmulator } from "../emulator";
import { Command, RunPulumiResult } from "../engine";
import type { ResourceState } from "../engine";
import { SecretLedger } from "../support/secretScan";
import { producedTexts, runStack } from "../support/stack";

export const PROGRAM = path.join(__dirname, "programs", "platform");
const PROJECT = "reliability-platform";
const PASSPHRASE = "reliability suite";

/** The credentials the emulators accept; the secret is random per run of the suite, so finding it anywhere is a leak. */
export const CLIENT = { clientId: "reliability-client", clientSecret: `rel-s3cret-${randomBytes(12).toString("hex")}`, audience: "127.0.0.1" };

export function clusterUrn(name = "cluster"): string {
    return urnOf("ClusterScale", name);
}

export function adminUrn(index: number): string {
    return urnOf("AdminClient", `admin-${index}`);
}

function urnOf(type: string, name: string): string {
    return `urn:pulumi:test::${PROJECT}::pulumi-nodejs:dynamic/platform:${type}::${name}`;
}

/** One stack: its own state file and token disk cache. */
export interface LabStack {
    label: string;
    stateFile: string;
    tokenDir: string;
}

export interface RunSpec {
    command: Command;
    /** ClusterScale arguments, as given (managementUrl defaults to the emulator's unless the key is present). */
    scale?: Record<string, unknown>;
    /** ClusterScale credentials (secret config). */
    auth?: Record<string, unknown>;
    /** AdminClient arguments, as given. */
    admin?: Record<string, unknown>;
    adminCount?: number;
    /** The AdminClients' secret (secret config). */
    adminSecret?: string;
    /** false: keep the emulator's request log as it is (concurrent runs); default: cleared before the run. */
    clearLog?: boolean;
    onLine?: (line: string) => void;
    /** Kills the run (in a process of its own). */
    signal?: AbortSignal;
    /** `--skip-preview`: no preview pass before up. */
    skipPreview?: boolean;
    /**
     * The engine in processes of its own, as the CLI runs: for runs at the same time. Default: in this process (one run
     * at a time, the same engine and provider code; see runPulumi's inProcess).
     */
    ownProcess?: boolean;
}

export interface LabRun {
    result: RunPulumiResult;
    /** Every request the emulator served since the run started (see RunSpec.clearLog). */
    requests: RequestLogEntry[];
    /** Lines the provider host printed. */
    hostLines: string[];
}

/** One story of the suite, told by one or more runs; its assertions throw. */
export interface Scenario {
    name: string;
    /** `worker`: which of the section's parallel workers runs it (0 when they run one after another). */
    run(worker: number): Promise<void>;
}

/** A numbered part of the suite (issue 8's points): its scenarios, one after another unless `parallel` says otherwise. */
export interface Section {
    number: number;
    title: string;
    scenarios: Scenario[];
    parallel?: number;
}

/** Engine runs at once across the whole suite: each is two processes (engine and provider host), on 2 shared cores. */
const RUNS_AT_ONCE = 3;

export class Lab {
    readonly ledger = new SecretLedger();
    readonly root: string;
    private readonly emulators: RunningEmulator[] = [];
    private stackNumber = 0;
    private running = 0;
    private readonly queue: (() => void)[] = [];

    constructor() {
        this.root = fs.mkdtempSync(path.join(os.tmpdir(), "reliability-"));
        this.ledger.addSecret("client secret", CLIENT.clientSecret);
    }

    /** An emulator that knows CLIENT, with short operations; closed by close(). */
    async emulator(settings: ResetBody = {}): Promise<RunningEmulator> {
        const emulator = await startEmulator({ ...defaultSettings(), ...settings });
        this.emulators.push(emulator);
        return emulator;
    }

    stack(label: string): LabStack {
        const dir = path.join(this.root, `${String(++this.stackNumber).padStart(3, "0")}-${label.replace(/[^A-Za-z0-9]+/g, "-").slice(0, 48)}`);
        fs.mkdirSync(dir, { recursive: true });
        const stack = { label, stateFile: path.join(dir, "state.json"), tokenDir: path.join(dir, "tokens") };
        this.ledger.watchTokenCache(stack.tokenDir);
        return stack;
    }

    /** A new stack that starts from a copy of `stack`'s state file as it is now. */
    copyStack(stack: LabStack, label: string): LabStack {
        const copy = this.stack(label);
        if (fs.existsSync(stack.stateFile)) fs.copyFileSync(stack.stateFile, copy.stateFile);
        return copy;
    }

    /** Runs the fixture program once; scans what it produced for leaks (failing the test on any). */
    async run(emulator: RunningEmulator, stack: LabStack, spec: RunSpec): Promise<LabRun> {
        const config: Record<string, string> = {};
        const secrets: Record<string, string> = {};
        if (spec.scale !== undefined) {
            config.scale = JSON.stringify("managementUrl" in spec.scale ? spec.scale : { managementUrl: emulator.managementUrl, ...spec.scale });
        }
        if (spec.auth !== undefined) secrets.auth = JSON.stringify(spec.auth);
        if (spec.admin !== undefined) config.admin = JSON.stringify(spec.admin);
        if (spec.adminCount !== undefined) config.adminCount = String(spec.adminCount);
        if (spec.adminSecret !== undefined) secrets.adminSecret = spec.adminSecret;
        await this.acquire();
        let before = 0;
        let result: RunPulumiResult;
        try {
            if (spec.clearLog !== false) emulator.control.clearRequests();
            before = emulator.control.requests().length;
            const testStack = { programDir: PROGRAM, stack: "test", stateFile: stack.stateFile, tokenCacheDir: stack.tokenDir, passphrase: PASSPHRASE };
            result = await runStack(testStack, spec.command, {
                config,
                secrets,
                onLine: spec.onLine,
                signal: spec.signal,
                skipPreview: spec.skipPreview,
                inProcess: !spec.ownProcess && spec.signal === undefined,
            });
        } finally {
            this.release();
        }
        const requests = emulator.control.requests().slice(before);
        const run = { result, requests, hostLines: result.diagnostics.map((diagnostic) => diagnostic.line) };
        this.ledger.assertClean(`${stack.label} (${spec.command})`, producedTexts(result, stack.stateFile));
        return run;
    }

    /** Waits for one of the suite's engine-run slots (first come, first served). */
    private async acquire(): Promise<void> {
        if (this.running < RUNS_AT_ONCE) {
            this.running++;
            return;
        }
        await new Promise<void>((resolve) => this.queue.push(resolve));
    }

    private release(): void {
        const next = this.queue.shift();
        if (next) next();
        else this.running--;
    }

    async close(): Promise<void> {
        await Promise.all(this.emulators.map((emulator) => emulator.close()));
        fs.rmSync(this.root, { recursive: true, force: true });
    }
}

function defaultSettings(): ResetBody {
    return { opMs: 10, rateLimitBlockSeconds: 0, clients: [CLIENT] };
}

export function cluster(emulator: RunningEmulator): ClusterClient {
    return new ClusterClient({ managementUrl: emulator.managementUrl });
}

/** The ClusterScale (or another resource) as the run left it in the state. */
export function resourceOf(run: LabRun, urn = clusterUrn()): ResourceState | undefined {
    return run.result.state.resources[urn];
}

export { mutating, requestLine, scaleRequests, tokenRequests } from "../support/requestLog";

export function succeeded(run: LabRun): void {
    assert.strictEqual(run.result.exitCode, 0, `exit ${run.result.exitCode}\n${run.result.stdout}\n${run.result.stderr}`);
}

/** The run failed; returns its error lines. */
export function failed(run: LabRun): string {
    assert.notStrictEqual(run.result.exitCode, 0, `expected a failure\n${run.result.stdout}`);
    assert.ok(run.result.errors.length > 0, `a failure without an error message\n${run.result.stdout}\n${run.result.stderr}`);
    return run.result.errors.join("\n");
}

/** The run printed a line containing every fragment. */
export function printed(run: LabRun, ...fragments: string[]): boolean {
    return run.hostLines.some((line) => fragments.every((fragment) => line.includes(fragment)));
}

/** Polls `probe` until it returns a value (every 20 ms), or gives up once `stop` says so; the mocha timeout bounds it. */
export async function until<T>(probe: () => T | undefined | Promise<T | undefined>, stop: () => boolean = () => false): Promise<T> {
    for (;;) {
        const value = await probe();
        if (value !== undefined) return value;
        if (stop()) throw new Error("stopped waiting: the run it was waiting on has ended");
        await new Promise((resolve) => setTimeout(resolve, 20));
    }
}

/** The value of `make`, made on first use. */
export function once<T>(make: () => Promise<T>): () => Promise<T> {
    let made: Promise<T> | undefined;
    return () => (made ??= make());
}
