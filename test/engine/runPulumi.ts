// The library entry for tests, benchmarks and the demo: runs one command in a child process (cli.ts under ts-node)
// so module and runtime state never leak between runs, and collects what it printed and produced.
//
// `inProcess: true` runs the same engine in this process instead: the program under the runtime's mocks, the provider
// loaded as the host loads it (InProcessHost, its modules anew for every pass), one run at a time. It costs
// milliseconds instead of several Node processes: for the cases of a matrix. What only the real host process, the
// gRPC marshalling or a process of its own shows needs the default.
import * as fs from "fs";
import * as path from "path";
import { cliArguments, OperationResult, runCommand } from "./cli";
import { Diagnostic, StepRecord } from "./display";
import { runEngineProcess } from "./engineProcess";
import { PassResult, ProgramRun } from "./operation";
import { PropertyMap } from "./propertyValues";
import { loadProject } from "./project";
import { defaultStateFile, emptyState, StackState, StateFile } from "./stateFile";
import { TYPESCRIPT_REQUIRE } from "../support/typescriptRequire";

export interface RunPulumiOptions extends ProgramRun {
    /** Added to this process's environment (e.g. PULUMI_CONFIG_PASSPHRASE). */
    env?: NodeJS.ProcessEnv;
    /** The child is killed after this long (default 120 s). */
    timeoutMs?: number;
    /** Each line the run prints, as it arrives (the demo's progress). */
    onLine?: (stream: "stdout" | "stderr", line: string) => void;
    /** Aborting kills the run at once (SIGKILL), as an interrupted CLI would be; its host goes with it. */
    signal?: AbortSignal;
    /** The engine, the program and the provider in this process (see above); no signal, no time limit. */
    inProcess?: boolean;
}

export interface RunPulumiResult {
    /** 0 on success; 1 when the operation failed; 2 for a usage error; 128+n when killed by signal n. */
    exitCode: number;
    stdout: string;
    stderr: string;
    /** stdout, line by line. */
    lines: string[];
    /** The passes the command made, in order: the preview pass first unless skipped (or the command is preview). */
    passes: PassResult[];
    /** The steps of the last pass that ran. */
    steps: StepRecord[];
    /** The provider hosts' stdout/stderr lines, every pass in order. */
    diagnostics: Diagnostic[];
    /** The errors of every pass. */
    errors: string[];
    /** Stack outputs of the last pass, in engine form: secrets wrapped (see unwrapSecrets), unknowns as UNKNOWN. */
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

export async function runPulumi(options: RunPulumiOptions): Promise<RunPulumiResult> {
    const programDir = path.resolve(options.programDir);
    const stateFile = options.stateFile ? path.resolve(options.stateFile) : defaultStateFile(loadProject(programDir).dir, options.stack);
    const env = { ...process.env, ...options.env };
    const out: string[] = [];
    const err: string[] = [];
    const onLine = (stream: "stdout" | "stderr", line: string) => {
        (stream === "stdout" ? out : err).push(line);
        options.onLine?.(stream, line);
    };
    const { exitCode, result } = options.inProcess
        ? await runInThisProcess({ ...options, programDir, stateFile }, onLine)
        : await runEngineProcess({
              entry: [...TYPESCRIPT_REQUIRE, engineEntry()],
              args: cliArguments({ ...options, programDir, stateFile }),
              cwd: REPOSITORY_ROOT,
              env,
              timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
              onLine,
              signal: options.signal,
          });
    const passes = result?.passes ?? [];
    const last = passes[passes.length - 1];
    const errors = passes.flatMap((pass) => pass.errors);
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
        passes,
        steps: last?.steps ?? [],
        diagnostics: passes.flatMap((pass) => pass.diagnostics),
        errors,
        outputs: last?.outputs ?? {},
        state,
    };
}

/** In-process runs one at a time: they share this process's environment, module cache and Pulumi runtime. */
let inProcessQueue: Promise<unknown> = Promise.resolve();

async function runInThisProcess(
    options: RunPulumiOptions & { programDir: string; stateFile: string },
    onLine: (stream: "stdout" | "stderr", line: string) => void,
): Promise<{ exitCode: number; result: OperationResult }> {
    if (options.signal) throw new Error("an in-process run cannot be interrupted: run it in a process of its own");
    const run = inProcessQueue.then(async () => {
        const saved = Object.fromEntries(Object.keys(options.env ?? {}).map((name) => [name, process.env[name]]));
        Object.assign(process.env, options.env);
        try {
            const result = await runCommand(
                {
                    command: options.command,
                    programDir: options.programDir,
                    stack: options.stack,
                    config: options.config ?? {},
                    secrets: options.secrets ?? {},
                    stateFile: options.stateFile,
                    ...(options.skipPreview ? { skipPreview: true } : {}),
                },
                {
                    passphrase: process.env.PULUMI_CONFIG_PASSPHRASE,
                    inProcess: true,
                    writeOut: (line) => onLine("stdout", line),
                    writeErr: (line) => onLine("stderr", line),
                },
            );
            return { exitCode: result.ok ? 0 : 1, result };
        } finally {
            for (const [name, value] of Object.entries(saved)) {
                if (value === undefined) delete process.env[name];
                else process.env[name] = value;
            }
        }
    });
    inProcessQueue = run.catch(() => undefined);
    return run;
}

/**
 * The compiled engine when it is newer than every source of test/engine it was compiled from, else cli.ts under
 * ts-node. Transpiling the engine's modules in every run costs more than the rest of a run's start-up. A source with no
 * compiled counterpart (demo.ts, a new module) is not part of it: a compiled source that starts to import one is newer.
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
    const compiledDir = path.dirname(COMPILED_CLI);
    const compiledSources = fs
        .readdirSync(__dirname)
        .filter((file) => file.endsWith(".ts") && !file.endsWith(".spec.ts"))
        .filter((file) => fs.existsSync(path.join(compiledDir, file.replace(/\.ts$/, ".js"))));
    return compiledSources.every((file) => fs.statSync(path.join(__dirname, file)).mtimeMs <= compiledAt) ? COMPILED_CLI : CLI;
}
