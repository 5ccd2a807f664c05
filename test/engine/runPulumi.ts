// The library entry for tests, benchmarks and the demo: runs one operation in a child process (cli.ts under
// ts-node) so module and runtime state never leak between runs, and collects what it printed and produced.
import { spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import * as readline from "readline";
import type { CliResultMessage } from "./cli";
import { Diagnostic, StepRecord } from "./display";
import { OperationResult, ProgramRun } from "./operation";
import { PropertyMap } from "./propertyValues";
import { loadProject } from "./project";
import { defaultStateFile, emptyState, StackState, StateFile } from "./stateFile";

export interface RunPulumiOptions extends ProgramRun {
    /** Added to this process's environment (e.g. PULUMI_CONFIG_PASSPHRASE). */
    env?: NodeJS.ProcessEnv;
    /** The child is killed after this long (default 120 s). */
    timeoutMs?: number;
    /** Each line the run prints, as it arrives (the demo's progress). */
    onLine?: (stream: "stdout" | "stderr", line: string) => void;
    /** Aborting kills the run at once (SIGKILL), as an interrupted CLI would be; its host goes with it. */
    signal?: AbortSignal;
}

export interface RunPulumiResult {
    /** 0 on success; 1 when the operation failed; 2 for a usage error; 128+n when killed by signal n. */
    exitCode: number;
    stdout: string;
    stderr: string;
    /** stdout, line by line. */
    lines: string[];
    steps: StepRecord[];
    /** The provider host's stdout/stderr lines. */
    diagnostics: Diagnostic[];
    errors: string[];
    /** Stack outputs in engine form: secrets wrapped (see unwrapSecrets), unknowns as UNKNOWN. */
    outputs: PropertyMap;
    /** The state file after the run, secrets decrypted (still wrapped). */
    state: StackState;
}

const CLI = path.join(__dirname, "cli.ts");
/** cli.ts compiled by `npm run build:engine` (npm test, demo and bench run it first). */
const COMPILED_ENGINE = path.join(path.resolve(__dirname, "..", ".."), "build", "engine");
const COMPILED_CLI = path.join(COMPILED_ENGINE, "test", "engine", "cli.js");
const REPOSITORY_ROOT = path.resolve(__dirname, "..", "..");
const DEFAULT_TIMEOUT_MS = 120_000;

export function cliArguments(options: Pick<RunPulumiOptions, "command" | "programDir" | "stack" | "config" | "secrets" | "stateFile">): string[] {
    const args = [options.command, options.programDir, "--stack", options.stack];
    for (const [key, value] of Object.entries(options.config ?? {})) args.push("--config", `${key}=${value}`);
    for (const [key, value] of Object.entries(options.secrets ?? {})) args.push("--secret", `${key}=${value}`);
    if (options.stateFile) args.push("--state", options.stateFile);
    return args;
}

export async function runPulumi(options: RunPulumiOptions): Promise<RunPulumiResult> {
    const programDir = path.resolve(options.programDir);
    const stateFile = options.stateFile ? path.resolve(options.stateFile) : defaultStateFile(loadProject(programDir).dir, options.stack);
    const env = { ...process.env, ...options.env };
    // ts-node stays registered for the program's own TypeScript; the engine itself runs compiled when it can.
    const child = spawn(
        process.execPath,
        ["-r", require.resolve("ts-node/register/transpile-only"), engineEntry(), ...cliArguments({ ...options, programDir, stateFile })],
        { cwd: REPOSITORY_ROOT, env, stdio: ["ignore", "pipe", "pipe", "ipc"] },
    );
    const out: string[] = [];
    const err: string[] = [];
    readline.createInterface({ input: child.stdout! }).on("line", (line) => {
        out.push(line);
        options.onLine?.("stdout", line);
    });
    readline.createInterface({ input: child.stderr! }).on("line", (line) => {
        err.push(line);
        options.onLine?.("stderr", line);
    });
    let result: OperationResult | undefined;
    child.on("message", (message: CliResultMessage) => {
        if (message?.kind === "pulumi-engine-result") result = message.result;
    });
    const kill = () => child.kill("SIGKILL");
    const timer = setTimeout(kill, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    if (options.signal?.aborted) kill();
    options.signal?.addEventListener("abort", kill);
    const exitCode = await new Promise<number>((resolve, reject) => {
        child.once("error", reject);
        child.once("close", (code, signal) => resolve(code ?? 128 + signalNumber(signal)));
    }).finally(() => {
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", kill);
    });
    const errors = [...(result?.errors ?? [])];
    let state = emptyState();
    try {
        state = new StateFile(stateFile, env.PULUMI_CONFIG_PASSPHRASE).load();
    } catch (error) {
        errors.push(`cannot read the state file: ${error instanceof Error ? error.message : String(error)}`);
    }
    return {
        exitCode,
        stdout: out.map((line) => `${line}\n`).join(""),
        stderr: err.map((line) => `${line}\n`).join(""),
        lines: out,
        steps: result?.steps ?? [],
        diagnostics: result?.diagnostics ?? [],
        errors,
        outputs: result?.outputs ?? {},
        state,
    };
}

function signalNumber(signal: NodeJS.Signals | null): number {
    const numbers: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
    return (signal && numbers[signal]) || 0;
}

/**
 * The compiled engine when it is newer than every source of test/engine, else cli.ts under ts-node. Transpiling the
 * engine's modules in every run costs more than the rest of a run's start-up.
 */
function engineEntry(): string {
    let compiledAt: number;
    try {
        fs.statSync(COMPILED_CLI);
        // Rewritten by every build that emitted something.
        compiledAt = fs.statSync(path.join(COMPILED_ENGINE, ".tsbuildinfo")).mtimeMs;
    } catch {
        return CLI;
    }
    const sources = fs.readdirSync(__dirname).filter((file) => file.endsWith(".ts") && !file.endsWith(".spec.ts"));
    return sources.every((file) => fs.statSync(path.join(__dirname, file)).mtimeMs <= compiledAt) ? COMPILED_CLI : CLI;
}
