// The one way the suites run a fixture program through the engine: a stack with its own state file and token disk
// cache, the stack's passphrase, and what the run produced (for the leak scan).
import * as fs from "fs";
import { Command, RunPulumiResult, maskSecrets, runPulumi } from "../engine";

export interface TestStack {
    programDir: string;
    /** The stack name (`test`, `dev`): part of every URN. */
    stack: string;
    stateFile: string;
    tokenCacheDir: string;
    passphrase: string;
}

/**
 * Where a fixture's runs go: "process" runs the engine as the CLI does (the program and the dynamic-provider host in
 * processes of their own), for the suites that tell one story of what a user runs; "in-process" runs the same engine
 * and provider code in the test's process (runPulumi's inProcess), for the suites that try many cases of one behaviour.
 */
export type FixtureEngine = "process" | "in-process";

export interface StackRunOptions {
    config?: Record<string, string>;
    secrets?: Record<string, string>;
    /** Added to the run's environment (proxies, PLATFORM_TLS_CA_FILE, ...). */
    env?: NodeJS.ProcessEnv;
    onLine?: (line: string) => void;
    signal?: AbortSignal;
    /** `--skip-preview`: no preview pass before up, refresh or destroy. */
    skipPreview?: boolean;
    /** The engine in this process (runPulumi's inProcess): for the cases of a matrix. */
    inProcess?: boolean;
}

/**
 * Runs one operation of the stack's program (in processes of its own unless inProcess). A run killed through `signal`
 * leaves the stack locked, as the CLI's does: `pulumi cancel` follows it here, as it must in a pipeline (test/engine's
 * failures.spec.ts shows the refusal without it).
 */
export async function runStack(stack: TestStack, command: Command, options: StackRunOptions = {}): Promise<RunPulumiResult> {
    const result = await run(stack, command, options);
    if (options.signal?.aborted && result.exitCode === 128 + 9) {
        const cancel = await run(stack, "cancel", { inProcess: true });
        if (cancel.exitCode !== 0) throw new Error(`pulumi cancel after the killed ${command} failed: ${cancel.stderr}`);
    }
    return result;
}

function run(stack: TestStack, command: Command, options: StackRunOptions): Promise<RunPulumiResult> {
    return runPulumi({
        command,
        programDir: stack.programDir,
        stack: stack.stack,
        stateFile: stack.stateFile,
        config: options.config,
        secrets: options.secrets,
        env: { PLATFORM_TOKEN_CACHE_DIR: stack.tokenCacheDir, PULUMI_CONFIG_PASSPHRASE: stack.passphrase, ...options.env },
        onLine: options.onLine && ((_stream, line) => options.onLine!(line)),
        signal: options.signal,
        skipPreview: options.skipPreview,
        inProcess: options.inProcess,
    });
}

/** Everything a run produced that a user or a file could see: what it printed, its errors, outputs and the state file. */
export function producedTexts(result: RunPulumiResult, stateFile: string): Record<string, string> {
    return {
        stdout: result.stdout,
        stderr: result.stderr,
        errors: result.errors.join("\n"),
        // As `pulumi stack output` shows them: a secret output is no leak, its plaintext anywhere else is.
        outputs: JSON.stringify(maskSecrets(result.outputs)),
        state: fs.existsSync(stateFile) ? fs.readFileSync(stateFile, "utf8") : "",
    };
}
