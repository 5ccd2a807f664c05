// Runs one Pulumi operation on a program through the real dynamic-provider host, without the Pulumi CLI:
//
//   npx ts-node test/engine/cli.ts <preview|up|refresh|destroy|cancel> <programDir> --stack NAME
//       [--config key=value ...] [--secret key=value ...] [--state FILE] [--skip-preview] [--preview-only]
//
// As the CLI does (PreviewThenPromptThenExecute in pkg/backend/apply.go), `up`, `refresh` and `destroy` first make a
// preview pass, with provider hosts of its own, and stop when it fails; `--skip-preview` leaves it out, and
// `--preview-only` (refresh and destroy) makes only that pass. The preview of an `up` runs the program, so it runs in
// a process of its own (the program runs once per process).
//
// Secret values in the state file are encrypted with PULUMI_CONFIG_PASSPHRASE. Exit code 0 on success, 1 when the
// operation failed, 2 for a usage error. When started with an IPC channel (runPulumi), the result is also sent to
// the parent.
import * as path from "path";
import { COMMANDS, Command, OperationOptions, PassResult, runPass } from "./operation";
import { runEngineProcess } from "./engineProcess";
import { loadProject } from "./project";
import { LOCKED_MESSAGE, StackLock } from "./stackLock";
import { defaultStateFile } from "./stateFile";

export interface CliArguments {
    command: Command;
    programDir: string;
    stack: string;
    config: Record<string, string>;
    secrets: Record<string, string>;
    stateFile?: string;
    skipPreview?: boolean;
    previewOnly?: boolean;
}

/** What one invocation did: its passes in order (a preview pass first, unless skipped). */
export interface OperationResult {
    ok: boolean;
    passes: PassResult[];
}

export const USAGE =
    "usage: cli.ts <preview|up|refresh|destroy> <programDir> --stack NAME [--config key=value ...] [--secret key=value ...] [--state FILE] [--skip-preview] [--preview-only]";

export function parseArguments(argv: readonly string[]): CliArguments {
    const positional: string[] = [];
    const config: Record<string, string> = {};
    const secrets: Record<string, string> = {};
    let stack: string | undefined;
    let stateFile: string | undefined;
    let skipPreview = false;
    let previewOnly = false;
    for (let i = 0; i < argv.length; i++) {
        const arg = argv[i];
        const value = () => {
            const next = argv[++i];
            if (next === undefined) throw new Error(`${arg} needs a value`);
            return next;
        };
        switch (arg) {
            case "--stack":
                stack = value();
                break;
            case "--state":
                stateFile = value();
                break;
            case "--skip-preview":
                skipPreview = true;
                break;
            case "--preview-only":
                previewOnly = true;
                break;
            case "--config":
            case "--secret": {
                const pair = value();
                const at = pair.indexOf("=");
                if (at <= 0) throw new Error(`${arg} takes key=value`);
                (arg === "--config" ? config : secrets)[pair.slice(0, at)] = pair.slice(at + 1);
                break;
            }
            default:
                if (arg.startsWith("--")) throw new Error(`unknown option ${arg}`);
                positional.push(arg);
        }
    }
    const [command, programDir, ...extra] = positional;
    if (!COMMANDS.includes(command as Command)) throw new Error(`unknown command ${JSON.stringify(command ?? "")}`);
    if (!programDir) throw new Error("the program directory is required");
    if (extra.length > 0) throw new Error(`unexpected arguments: ${extra.join(" ")}`);
    if (!stack) throw new Error("--stack is required");
    if (skipPreview && command === "preview") throw new Error("--skip-preview is not an option of preview");
    if (previewOnly && command !== "refresh" && command !== "destroy") throw new Error("--preview-only is an option of refresh and destroy");
    if (skipPreview && previewOnly) throw new Error("--skip-preview and --preview-only exclude each other");
    return {
        command: command as Command,
        programDir,
        stack,
        config,
        secrets,
        ...(stateFile ? { stateFile } : {}),
        ...(skipPreview ? { skipPreview } : {}),
        ...(previewOnly ? { previewOnly } : {}),
    };
}

/** The arguments of cli.ts for a run (the inverse of parseArguments). */
export function cliArguments(options: Omit<CliArguments, "config" | "secrets"> & Partial<Pick<CliArguments, "config" | "secrets">>): string[] {
    const args = [options.command, options.programDir, "--stack", options.stack];
    for (const [key, value] of Object.entries(options.config ?? {})) args.push("--config", `${key}=${value}`);
    for (const [key, value] of Object.entries(options.secrets ?? {})) args.push("--secret", `${key}=${value}`);
    if (options.stateFile) args.push("--state", options.stateFile);
    if (options.skipPreview) args.push("--skip-preview");
    if (options.previewOnly) args.push("--preview-only");
    return args;
}

/** The message runPulumi receives over IPC. */
export interface CliResultMessage {
    kind: "pulumi-engine-result";
    result: OperationResult;
}

/**
 * Every pass the command makes, each printed as it runs; the passes after a failed one do not run. An up, a refresh or
 * a destroy holds the stack's lock while it runs (a killed one leaves it: see stackLock.ts); cancel lifts it.
 */
export async function runCommand(args: CliArguments, base: Omit<OperationOptions, keyof CliArguments>): Promise<OperationResult> {
    const lock = new StackLock(path.resolve(args.stateFile ?? defaultStateFile(loadProject(args.programDir).dir, args.stack)));
    if (args.command === "cancel") {
        lock.release();
        base.writeOut(`The currently running update for '${args.stack}' has been canceled!`);
        return { ok: true, passes: [] };
    }
    if (args.command === "preview" || args.previewOnly) return runPasses(args, base);
    if (lock.held) {
        base.writeErr(`error: ${LOCKED_MESSAGE}`);
        return { ok: false, passes: [] };
    }
    lock.take();
    try {
        return await runPasses(args, base);
    } finally {
        lock.release();
    }
}

async function runPasses(args: CliArguments, base: Omit<OperationOptions, keyof CliArguments>): Promise<OperationResult> {
    const options: OperationOptions = { ...args, ...base };
    const passes: PassResult[] = [];
    const previewFirst = args.command !== "preview" && !args.skipPreview;
    if (previewFirst) {
        const ownProcess = args.command === "up" && !base.inProcess;
        const preview = ownProcess ? await previewInItsOwnProcess(args, base) : await runPass({ ...options, dryRun: true });
        passes.push(preview);
        if (!preview.ok || args.previewOnly) return { ok: preview.ok, passes };
        base.writeOut("");
    }
    passes.push(await runPass({ ...options, dryRun: false }));
    return { ok: passes.every((pass) => pass.ok), passes };
}

/** `pulumi preview` with the same arguments, in a child process; its lines are printed as they arrive. */
async function previewInItsOwnProcess(args: CliArguments, base: Omit<OperationOptions, keyof CliArguments>): Promise<PassResult> {
    const { exitCode, result } = await runEngineProcess({
        entry: [...process.execArgv, __filename],
        args: cliArguments({ ...args, command: "preview", skipPreview: undefined, previewOnly: undefined }),
        cwd: process.cwd(),
        env: process.env,
        timeoutMs: 2 ** 31 - 1,
        onLine: (stream, line) => (stream === "stdout" ? base.writeOut : base.writeErr)(line),
    });
    const pass = result?.passes[0];
    if (pass !== undefined) return pass;
    const error = `the preview ended without a result (exit ${exitCode})`;
    base.writeErr(`error: ${error}`);
    return { pass: "preview", ok: false, steps: [], diagnostics: [], errors: [error], outputs: {} };
}

async function main(): Promise<number> {
    let args: CliArguments;
    try {
        args = parseArguments(process.argv.slice(2));
    } catch (error) {
        process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
        return 2;
    }
    // A parent that died (a killed run) takes this process with it, as the CLI's plugins go with the CLI.
    process.on("disconnect", () => process.exit(128 + 9));
    const result = await runCommand(args, {
        passphrase: process.env.PULUMI_CONFIG_PASSPHRASE,
        writeOut: (line) => process.stdout.write(`${line}\n`),
        writeErr: (line) => process.stderr.write(`${line}\n`),
    });
    if (process.send) {
        const message: CliResultMessage = { kind: "pulumi-engine-result", result };
        await new Promise<void>((resolve) => process.send!(message, undefined, {}, () => resolve()));
    }
    return result.ok ? 0 : 1;
}

if (require.main === module) {
    void main().then((code) => {
        // The program may leave timers or handles behind; the operation is over once the output is flushed.
        process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
    });
}
