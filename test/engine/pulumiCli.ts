// The demo's path when the real `pulumi` CLI is installed: the same steps through the CLI, with a file
// backend and the stack's config in a temporary directory, and a passphrase set for the run.
import { spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import * as readline from "readline";
import type { Command } from "./operation";

export interface PulumiCliRun {
    cli: string;
    command: Command;
    /** `--skip-preview` for up, refresh and destroy. */
    skipPreview?: boolean;
    programDir: string;
    stack: string;
    config: Record<string, string>;
    env: NodeJS.ProcessEnv;
    /** Holds the backend and the stack config; removed by the caller. */
    workDir: string;
    print: (line: string) => void;
}

export function findPulumiCli(): string | undefined {
    for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
        const candidate = path.join(dir, "pulumi");
        if (dir && fs.existsSync(candidate)) return candidate;
    }
    return undefined;
}

const COMMAND_ARGS: Record<Command, string[]> = {
    preview: ["preview"],
    up: ["up", "--yes"],
    refresh: ["refresh", "--yes"],
    destroy: ["destroy", "--yes"],
};

export async function runWithPulumiCli(run: PulumiCliRun): Promise<number> {
    const configFile = path.join(run.workDir, `Pulumi.${run.stack}.yaml`);
    const env = {
        ...process.env,
        ...run.env,
        PULUMI_BACKEND_URL: `file://${path.join(run.workDir, "backend")}`,
        PULUMI_HOME: path.join(run.workDir, "home"),
        PULUMI_SKIP_UPDATE_CHECK: "true",
    };
    const common = ["--stack", run.stack, "--cwd", run.programDir, "--non-interactive"];
    const pulumi = (args: string[]) => spawnPrinting(run.cli, args, env, run.print);

    if (!fs.existsSync(configFile)) {
        fs.mkdirSync(path.join(run.workDir, "backend"), { recursive: true });
        const created = await pulumi(["stack", "init", run.stack, "--cwd", run.programDir, "--non-interactive"]);
        if (created !== 0) return created;
        // stack init writes Pulumi.<stack>.yaml beside the program; keep the checkout clean.
        fs.rmSync(path.join(run.programDir, `Pulumi.${run.stack}.yaml`), { force: true });
    }
    // Only what changed since the last run is set again (a later step may add a key).
    const setFile = path.join(run.workDir, "config-set.json");
    const alreadySet = fs.existsSync(setFile) ? (JSON.parse(fs.readFileSync(setFile, "utf8")) as Record<string, string>) : {};
    for (const [key, value] of Object.entries(run.config)) {
        if (alreadySet[key] === value) continue;
        const set = await pulumi(["config", "set", key, value, ...common, "--config-file", configFile]);
        if (set !== 0) return set;
        alreadySet[key] = value;
    }
    fs.writeFileSync(setFile, JSON.stringify(alreadySet), { mode: 0o600 });
    const skip = run.skipPreview && run.command !== "preview" ? ["--skip-preview"] : [];
    return pulumi([...COMMAND_ARGS[run.command], ...skip, ...common, "--config-file", configFile]);
}

function spawnPrinting(cli: string, args: string[], env: NodeJS.ProcessEnv, print: (line: string) => void): Promise<number> {
    return new Promise((resolve, reject) => {
        const child = spawn(cli, args, { env, stdio: ["ignore", "pipe", "pipe"] });
        readline.createInterface({ input: child.stdout! }).on("line", print);
        readline.createInterface({ input: child.stderr! }).on("line", print);
        child.on("error", reject);
        child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    });
}
