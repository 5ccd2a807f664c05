// A stack under the real `pulumi` CLI: the program copied into a folder of its own (with the project's node_modules
// linked in, as a user's project has them), a file backend, PULUMI_HOME and the passphrase secrets provider in that
// folder, nothing reaching outside the machine. Each command runs the CLI in a process group of its own (a kill reaches
// the CLI alone: it starts its plugins in groups of their own); commands that run the program connect it to the
// stack's programServer.ts, which runs the program anew for each of them, as the Automation API's inline programs run
// (a kill takes it down too, as the program dies with a killed CLI).
import { ChildProcess, spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as readline from "readline";
import { pulumiBin } from "./pulumiBin";
import { type ProcessEntry, processesWith } from "../support/processTable";
import { savedDeployment, savedState, stackOutputsOf } from "./savedState";
import { TYPESCRIPT_REQUIRE } from "../support/typescriptRequire";
import { policyHostBin } from "../tools/policyHost";

const REPOSITORY = path.resolve(__dirname, "..", "..");
const PROGRAM_SERVER = path.join(__dirname, "programServer.ts");
export const PASSPHRASE = "cli-suite-passphrase";

/**
 * How the program runs: a language runtime server of ours that the CLI connects to (`--client`), started as `command
 * args… programDir` and printing its port (programServer.ts for TypeScript, the default), or the CLI's own language
 * host found on PATH (`"host"`).
 */
export type ProgramRunner = { command: string; args: string[] } | "host";

const NODE_PROGRAM_SERVER: ProgramRunner = { command: process.execPath, args: [...TYPESCRIPT_REQUIRE, PROGRAM_SERVER] };

export interface CliRunOptions {
    /** Kills the CLI's process group at once (SIGKILL), as a pipeline's timeout would; the program server goes too. */
    signal?: AbortSignal;
    /** Sends SIGINT to the CLI's process group, as Ctrl-C in a terminal or a cancelled pipeline does. */
    interrupt?: AbortSignal;
    /** Each line the CLI prints, as it comes. */
    onLine?: (line: string) => void;
    env?: NodeJS.ProcessEnv;
}

export interface CliResult {
    command: string;
    exitCode: number;
    /** stdout and stderr, line by line in the order they came. */
    lines: string[];
    stdout: string;
    stderr: string;
    /** The engine's events (--event-log), for the commands that run an update. */
    events: EngineEvent[];
}

export interface EngineEvent {
    resourcePreEvent?: { metadata: StepMetadata };
    resOutputsEvent?: { metadata: StepMetadata };
    resOpFailedEvent?: { metadata: StepMetadata };
    diagnosticEvent?: { urn?: string; message: string; severity: string };
    summaryEvent?: { resourceChanges?: Record<string, number> };
}

export interface StepMetadata {
    op: string;
    urn: string;
    type: string;
}

/** Commands that run the program, and so take `--client`. */
const RUNS_PROGRAM = new Set(["preview", "up", "update", "refresh", "destroy"]);

export class CliStack {
    readonly workDir: string;
    readonly programDir: string;
    private readonly bin: string;
    private env: NodeJS.ProcessEnv;
    private server?: Promise<ProgramServer>;
    /** Plain config values set but not yet saved to the stack's config file (see setConfig). */
    private pendingConfig: Record<string, string> = {};
    private serverPid?: number;

    private constructor(
        readonly version: string,
        bin: string,
        example: string,
        readonly stack: string,
        env: NodeJS.ProcessEnv,
        private readonly runner: ProgramRunner,
    ) {
        this.bin = bin;
        this.workDir = fs.mkdtempSync(path.join(os.tmpdir(), "platform-cli-"));
        this.programDir = path.join(this.workDir, "project");
        fs.cpSync(example, this.programDir, {
            recursive: true,
            filter: (source) => !/Pulumi\.[^/]+\.yaml$/.test(path.basename(source)) || source.endsWith(`Pulumi.${stack}.yaml`),
        });
        fs.symlinkSync(path.join(REPOSITORY, "node_modules"), path.join(this.programDir, "node_modules"), "dir");
        for (const dir of ["backend", "home", "tokens", "events"]) fs.mkdirSync(path.join(this.workDir, dir));
        this.env = {
            ...process.env,
            PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}`,
            PULUMI_HOME: path.join(this.workDir, "home"),
            PULUMI_BACKEND_URL: `file://${path.join(this.workDir, "backend")}`,
            PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
            PULUMI_SKIP_UPDATE_CHECK: "true",
            PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
            PULUMI_DEBUG_COMMANDS: "true",
            PULUMI_SKIP_CONFIRMATIONS: "true",
            PULUMI_COPILOT: "false",
            NO_COLOR: "1",
            PLATFORM_TOKEN_CACHE_DIR: path.join(this.workDir, "tokens"),
            TS_NODE_PROJECT: path.join(REPOSITORY, "tsconfig.json"),
            ...env,
        };
    }

    /** The example (a folder with Pulumi.yaml) as a new stack: `stack init`, then the config and secret config given. */
    static async create(options: {
        example: string;
        /** A pinned version (see pulumiBin.ts), or `bin`: the folder of a `pulumi` of one's own. */
        version?: string;
        bin?: string;
        stack?: string;
        config?: Record<string, string>;
        secrets?: Record<string, string>;
        env?: NodeJS.ProcessEnv;
        runner?: ProgramRunner;
    }): Promise<CliStack> {
        const bin = options.bin ?? (await pulumiBin(options.version ?? ""));
        const stack = new CliStack(
            options.version ?? "",
            bin,
            options.example,
            options.stack ?? "dev",
            options.env ?? {},
            options.runner ?? NODE_PROGRAM_SERVER,
        );
        await stack.expect(["stack", "init", stack.stack]);
        await stack.setConfig(options.config ?? {}, options.secrets ?? {});
        return stack;
    }

    /**
     * Config for the commands from now on. Plain values go with the next command that runs the program, as its
     * `--config` (the CLI saves them to the stack's config file before it runs, as `config set` would): one CLI run, not
     * two, each of which derives the passphrase's key. Secrets, and plain values a command of another kind would need
     * first, are written by `pulumi config set-all` (one CLI run, however many values).
     */
    async setConfig(config: Record<string, string>, secrets: Record<string, string> = {}): Promise<void> {
        Object.assign(this.pendingConfig, config);
        if (Object.keys(secrets).length > 0) await this.saveConfig(secrets);
    }

    private async saveConfig(secrets: Record<string, string> = {}): Promise<void> {
        for (const key of Object.keys(secrets)) delete this.pendingConfig[key];
        const pairs = [
            ...Object.entries(this.pendingConfig).flatMap(([key, value]) => ["--plaintext", `${key}=${value}`]),
            ...Object.entries(secrets).flatMap(([key, value]) => ["--secret", `${key}=${value}`]),
        ];
        this.pendingConfig = {};
        if (pairs.length > 0) await this.expect(["config", "set-all", ...pairs]);
    }

    /** More environment for the commands from now on (a program's SDK path, say, known once the project is copied). */
    addEnv(env: NodeJS.ProcessEnv): void {
        this.env = { ...this.env, ...env };
    }

    /** What `--policy-pack` needs under this CLI, which has no Node language host (test/tools/policyHost.ts). */
    installPolicyHost(): void {
        this.addEnv({ PATH: `${policyHostBin(this.workDir)}${path.delimiter}${this.env.PATH ?? ""}` });
    }

    /** A policy pack's config file (`--policy-pack-config`) in the work folder: its path. */
    policyPackConfig(name: string, config: Record<string, unknown>): string {
        const file = path.join(this.workDir, `${name}.json`);
        fs.writeFileSync(file, JSON.stringify(config));
        return file;
    }

    /** The stack's config file as it is now, and a way to put it back (values set since and not yet saved are dropped). */
    async keepConfig(): Promise<() => void> {
        await this.saveConfig();
        const file = path.join(this.programDir, `Pulumi.${this.stack}.yaml`);
        const text = fs.readFileSync(file, "utf8");
        return () => {
            this.pendingConfig = {};
            fs.writeFileSync(file, text);
        };
    }

    preview(...extra: string[]): Promise<CliResult> {
        return this.run(["preview", ...extra]);
    }

    up(...extra: string[]): Promise<CliResult> {
        return this.run(["up", "--yes", ...extra]);
    }

    refresh(...extra: string[]): Promise<CliResult> {
        return this.run(["refresh", "--yes", ...extra]);
    }

    destroy(...extra: string[]): Promise<CliResult> {
        return this.run(["destroy", "--yes", ...extra]);
    }

    /** `pulumi stack export`: the deployment as the backend stores it. */
    async exportState(showSecrets = false): Promise<StackExport> {
        const result = await this.expect(["stack", "export", ...(showSecrets ? ["--show-secrets"] : [])]);
        return JSON.parse(result.stdout) as StackExport;
    }

    /** What `pulumi stack export --show-secrets` prints, read from the backend's file without a CLI run (savedState.ts). */
    savedState(): StackExport {
        return savedState(path.join(this.workDir, "backend"), this.stack, this.env.PULUMI_CONFIG_PASSPHRASE ?? PASSPHRASE);
    }

    /** What `pulumi stack output --json` prints, read from the backend's file without a CLI run. */
    savedOutputs(): Record<string, unknown> {
        return stackOutputsOf(savedDeployment(path.join(this.workDir, "backend"), this.stack).deployment);
    }

    /** `pulumi stack output --json`. */
    async outputs(showSecrets = false): Promise<Record<string, unknown>> {
        const result = await this.expect(["stack", "output", "--json", ...(showSecrets ? ["--show-secrets"] : [])]);
        return JSON.parse(result.stdout) as Record<string, unknown>;
    }

    /** Every file under the work folder (backend, home, project, token cache) as text, for the leak scan. */
    filesText(): { file: string; text: string }[] {
        const files: { file: string; text: string }[] = [];
        const walk = (dir: string) => {
            for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
                const full = path.join(dir, entry.name);
                if (entry.name === "node_modules" || entry.name === "tokens") continue;
                if (entry.isDirectory()) walk(full);
                else if (entry.isFile()) files.push({ file: path.relative(this.workDir, full), text: fs.readFileSync(full, "utf8") });
            }
        };
        walk(this.workDir);
        return files;
    }

    /** Every event the CLI logged so far but the debug diagnostics (see examples.spec.ts), as text. */
    eventsWithoutDebug(): string {
        const dir = path.join(this.workDir, "events");
        return fs
            .readdirSync(dir)
            .flatMap((file) => fs.readFileSync(path.join(dir, file), "utf8").split("\n"))
            .filter((line) => !line.includes('"severity":"debug"'))
            .join("\n");
    }

    /** The lock files of the backend (a killed CLI leaves its lock behind). */
    locks(): string[] {
        const dir = path.join(this.workDir, "backend", ".pulumi", "locks");
        if (!fs.existsSync(dir)) return [];
        return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((file) => file.endsWith(".json"));
    }

    /** A command that must succeed. */
    async expect(args: string[], options: CliRunOptions = {}): Promise<CliResult> {
        const result = await this.run(args, options);
        if (result.exitCode !== 0) throw new Error(`pulumi ${args.join(" ")} exited ${result.exitCode}:\n${result.lines.join("\n")}`);
        return result;
    }

    /** One CLI command in the project folder, on this stack, non-interactive. */
    async run(args: string[], options: CliRunOptions = {}): Promise<CliResult> {
        const [command] = args;
        const env = { ...this.env, ...options.env };
        const extra = ["--stack", this.stack, "--non-interactive"];
        if (RUNS_PROGRAM.has(command)) {
            extra.push(...Object.entries(this.pendingConfig).flatMap(([key, value]) => ["--config", `${key}=${value}`]));
            this.pendingConfig = {};
        } else if (command !== "config" && !(command === "stack" && args[1] === "init")) {
            await this.saveConfig();
        }
        const eventLog = path.join(this.workDir, "events", `${Date.now()}-${command}.json`);
        const runner = this.runner;
        if (RUNS_PROGRAM.has(command) && runner === "host") {
            extra.push("--event-log", eventLog);
        } else if (RUNS_PROGRAM.has(command) && runner !== "host") {
            this.server ??= ProgramServer.start(runner, this.programDir, this.env);
            const server = await this.server;
            this.serverPid = server.pid;
            extra.push(`--client=127.0.0.1:${server.port}`, "--exec-kind", "auto.inline", "--event-log", eventLog);
            options.signal?.addEventListener("abort", () => this.stopServer(), { once: true });
        }
        // `stack init` names its stack itself; `plugin` is about PULUMI_HOME, not a stack.
        const flags = (command === "stack" && args[1] === "init") || command === "plugin" ? ["--non-interactive"] : extra;
        // Flags go before a `--` (after it, everything is a value).
        const end = args.includes("--") ? args.indexOf("--") : args.length;
        const result = await runCli(this.bin, [...args.slice(0, end), ...flags, ...args.slice(end)], this.programDir, env, options);
        return { ...result, command: args.join(" "), events: readEvents(eventLog) };
    }

    /**
     * The processes of this stack's commands that are running: the CLI and the plugins it started. The program server
     * is the suite's own (it stands in for the CLI's language host, and serves every command of the stack).
     */
    processes(): ProcessEntry[] {
        return processesWith("PULUMI_HOME", path.join(this.workDir, "home")).filter((entry) => entry.pid !== this.serverPid);
    }

    dispose(): void {
        this.stopServer();
        fs.rmSync(this.workDir, { recursive: true, force: true });
    }

    private stopServer(): void {
        const server = this.server;
        this.server = undefined;
        void server?.then((running) => running.stop()).catch(() => undefined);
    }
}

export interface StackExport {
    version: number;
    deployment: {
        resources?: { urn: string; type: string; id?: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown>; initErrors?: string[] }[];
        pending_operations?: { resource: { urn: string }; type: string }[];
        secrets_providers?: unknown;
    };
}

/**
 * The steps of a run as `op name`, one per step the engine began (its pre-events: a component's outputs are reported
 * twice in a preview), in the order it began them; a refresh step as what it ended as (`update`, `same`, `delete`;
 * still `refresh` when it failed). The stack's and the providers' steps are left out.
 */
export function stepsOf(result: CliResult): string[] {
    const ended = new Map<string, string>();
    for (const event of result.events) if (event.resOutputsEvent) ended.set(event.resOutputsEvent.metadata.urn, event.resOutputsEvent.metadata.op);
    return result.events
        .map((event) => event.resourcePreEvent?.metadata)
        .filter((metadata): metadata is StepMetadata => metadata !== undefined)
        .filter((metadata) => !metadata.type.startsWith("pulumi:"))
        .map((metadata) => `${metadata.op === "refresh" ? (ended.get(metadata.urn) ?? "refresh") : metadata.op} ${metadata.urn.split("::").pop()}`);
}

function readEvents(file: string): EngineEvent[] {
    if (!fs.existsSync(file)) return [];
    return fs
        .readFileSync(file, "utf8")
        .split("\n")
        .filter((line) => line.trim() !== "")
        .flatMap((line) => {
            try {
                return [JSON.parse(line) as EngineEvent];
            } catch {
                return []; // a line cut short by a kill
            }
        });
}

function runCli(bin: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, options: CliRunOptions): Promise<Omit<CliResult, "command" | "events">> {
    return new Promise((resolve, reject) => {
        const child = spawn(path.join(bin, "pulumi"), args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
        const lines: string[] = [];
        const out: string[] = [];
        const err: string[] = [];
        const kill = () => signalGroup(child, "SIGKILL");
        const interrupt = () => signalGroup(child, "SIGINT");
        options.signal?.addEventListener("abort", kill, { once: true });
        if (options.signal?.aborted) kill();
        options.interrupt?.addEventListener("abort", interrupt, { once: true });
        const collect = (stream: NodeJS.ReadableStream, into: string[]) =>
            readline.createInterface({ input: stream }).on("line", (line) => {
                into.push(line);
                lines.push(line);
                options.onLine?.(line);
            });
        collect(child.stdout!, out);
        collect(child.stderr!, err);
        child.on("error", reject);
        child.on("close", (code, signal) => {
            options.signal?.removeEventListener("abort", kill);
            options.interrupt?.removeEventListener("abort", interrupt);
            resolve({ exitCode: code ?? (signal === "SIGKILL" ? 128 + 9 : 1), lines, stdout: out.join("\n"), stderr: err.join("\n") });
        });
    });
}

/** A signal to the CLI's process group: the CLI alone (it starts its plugins in process groups of their own). */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
    if (child.pid === undefined) return;
    try {
        process.kill(-child.pid, signal);
    } catch {
        // the group is gone already
    }
}

/** The stack's program server (programServer.ts for TypeScript). */
class ProgramServer {
    private constructor(
        private readonly child: ChildProcess,
        readonly port: number,
    ) {}

    static start(runner: Exclude<ProgramRunner, "host">, programDir: string, env: NodeJS.ProcessEnv): Promise<ProgramServer> {
        return new Promise((resolve, reject) => {
            const child = spawn(runner.command, [...runner.args, programDir], {
                cwd: programDir,
                env,
                stdio: ["ignore", "pipe", "pipe"],
            });
            let errors = "";
            child.stderr!.on("data", (chunk: Buffer) => (errors += chunk.toString()));
            readline.createInterface({ input: child.stdout! }).once("line", (line) => resolve(new ProgramServer(child, Number(line))));
            child.on("exit", (code) => reject(new Error(`the program server exited ${code}: ${errors}`)));
        });
    }

    get pid(): number | undefined {
        return this.child.pid;
    }

    stop(): void {
        this.child.kill("SIGKILL");
    }
}
