// Runs cli.ts in a process of its own and collects what it printed and the result it sent back over IPC. runPulumi
// starts every operation this way, and cli.ts starts the preview pass of an `up` this way (the program runs once
// per process).
import { spawn } from "child_process";
import * as readline from "readline";
import type { CliResultMessage, OperationResult } from "./cli";

export interface EngineProcessOptions {
    /** Node's own arguments (e.g. `-r ts-node/register/transpile-only`), then cli.ts (or its compiled form). */
    entry: string[];
    /** cli.ts's arguments. */
    args: string[];
    cwd: string;
    env: NodeJS.ProcessEnv;
    timeoutMs: number;
    onLine: (stream: "stdout" | "stderr", line: string) => void;
    /** Aborting kills the run at once (SIGKILL), as an interrupted CLI would be; its host goes with it. */
    signal?: AbortSignal;
}

export interface EngineProcessResult {
    /** 0 on success; 1 when the operation failed; 2 for a usage error; 128+n when killed by signal n. */
    exitCode: number;
    /** Absent when the process ended before it could send one. */
    result?: OperationResult;
}

export async function runEngineProcess(options: EngineProcessOptions): Promise<EngineProcessResult> {
    const child = spawn(process.execPath, [...options.entry, ...options.args], {
        cwd: options.cwd,
        env: options.env,
        stdio: ["ignore", "pipe", "pipe", "ipc"],
    });
    readline.createInterface({ input: child.stdout! }).on("line", (line) => options.onLine("stdout", line));
    readline.createInterface({ input: child.stderr! }).on("line", (line) => options.onLine("stderr", line));
    let result: OperationResult | undefined;
    child.on("message", (message: CliResultMessage) => {
        if (message?.kind === "pulumi-engine-result") result = message.result;
    });
    const kill = () => child.kill("SIGKILL");
    const timer = setTimeout(kill, options.timeoutMs);
    if (options.signal?.aborted) kill();
    options.signal?.addEventListener("abort", kill);
    const exitCode = await new Promise<number>((resolve, reject) => {
        child.once("error", reject);
        child.once("close", (code, signal) => resolve(code ?? 128 + signalNumber(signal)));
    }).finally(() => {
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", kill);
    });
    return { exitCode, result };
}

function signalNumber(signal: NodeJS.Signals | null): number {
    const numbers: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
    return (signal && numbers[signal]) || 0;
}
