// Runs a TypeScript entry of the bench in a child node process (ts-node, transpile only) and returns
// the JSON its last stdout line holds. Used for measurements that need a process of their own.

import { spawn } from "child_process";
import * as path from "path";
import { TYPESCRIPT_REQUIRE } from "../support/typescriptRequire";

export interface TsChildOptions {
    /** Extra node flags, e.g. --expose-gc. */
    nodeFlags?: string[];
    env?: NodeJS.ProcessEnv;
    timeoutMs?: number;
}

const TSCONFIG = path.resolve(__dirname, "..", "..", "tsconfig.json");

export async function runTsChild<T>(entry: string, args: string[], options: TsChildOptions = {}): Promise<T> {
    const child = spawn(process.execPath, [...(options.nodeFlags ?? []), ...TYPESCRIPT_REQUIRE, entry, ...args], {
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, TS_NODE_PROJECT: TSCONFIG, ...options.env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 120_000);
    const code = await new Promise<number | null>((resolve, reject) => {
        child.once("error", reject);
        child.once("close", (exitCode) => resolve(exitCode));
    }).finally(() => clearTimeout(timer));
    const lines = stdout.trim().split("\n");
    if (code !== 0) throw new Error(`${path.basename(entry)} exited with ${code}: ${stderr.trim().split("\n").slice(-5).join("\n")}`);
    return JSON.parse(lines[lines.length - 1]) as T;
}
