// 12. A fleet: N stacks run side by side as a pipeline runs them, each a process of its own driving the real CLI through
// the Automation API (programs/fleetStack/deploy.ts: a ClusterScale, three members, a client of a hosted cluster;
// preview then up), all started together with a cold token cache they share, against one emulated organization and
// cluster. One stack's cluster answers slowly (its management API delays every answer). Measured against one stack run
// alone: token requests reaching the issuer (goal: one per set of credentials), the issuer's 429s (goal 0), the
// administration API's reads per stack, CPU seconds and peak RSS per stack (each stack's process tree, from its
// rusage: goal at most 1.3 times the lone stack's), the fleet's wall time, and when the slow stack ended against the
// others. Needs the CLI (`npm run tools:pulumi`).
import { execFileSync, spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { RequestLogEntry } from "../emulator";
import { type RunningEmulator, startEmulator } from "../emulator";
import { DEMO_CLIENT } from "../emulator/settings";
import { pulumiBin } from "../cli/pulumiBin";
import { PULUMI_SDK_MATCH } from "../tools/pulumi";
import { type Figure, type SectionResult, figure } from "./figures";
import { median, round } from "./stats";
import { TYPESCRIPT_REQUIRE } from "../support/typescriptRequire";

export interface FleetOptions {
    /** Stacks run side by side. */
    stacks: number;
    /** How long the slow cluster takes to answer each request of the management API. */
    slowAnswerMs: number;
}

export const DEFAULT_FLEET: FleetOptions = { stacks: 20, slowAnswerMs: 1_500 };
export const TARGET_PER_STACK_RATIO = 1.3;

const REPOSITORY = path.resolve(__dirname, "..", "..");
const DRIVER = path.join(__dirname, "programs", "fleetStack");

export interface StackRun {
    stack: string;
    passed: boolean;
    error?: string;
    wallSeconds: number;
    cpuSeconds: number;
    peakRssMB: number;
}

export interface FleetRun {
    runs: StackRun[];
    wallSeconds: number;
    requests: RequestLogEntry[];
}

interface Platform {
    emulator: RunningEmulator;
    slow: RunningEmulator;
    clusterId: string;
    bin: string;
    dir: string;
}

/** Runs `names` side by side (the first against the slow cluster when `slowFirst`), with one cold token cache. */
async function runFleet(platform: Platform, names: string[], slowFirst: boolean): Promise<FleetRun> {
    const { emulator } = platform;
    const cache = fs.mkdtempSync(path.join(platform.dir, "tokens-"));
    emulator.control.clearRequests();
    const started = Date.now();
    const runs = await Promise.all(names.map((name, index) => runStack(platform, name, cache, slowFirst && index === 0)));
    return { runs, wallSeconds: (Date.now() - started) / 1000, requests: emulator.control.requests() };
}

/** One stack's driver under /usr/bin/time: its wall time, and the CPU and peak RSS of its whole process tree. */
async function runStack(platform: Platform, name: string, tokenCache: string, slow: boolean): Promise<StackRun> {
    const workDir = path.join(platform.dir, name);
    fs.mkdirSync(workDir);
    for (const file of ["Pulumi.yaml", "deploy.ts"]) fs.copyFileSync(path.join(DRIVER, file), path.join(workDir, file));
    fs.symlinkSync(path.join(REPOSITORY, "node_modules"), path.join(workDir, "node_modules"), "dir");
    const usageFile = path.join(workDir, "usage");
    const management = slow ? platform.slow : platform.emulator;
    const started = Date.now();
    const output = await new Promise<string>((resolve, reject) => {
        const child = spawn("/usr/bin/time", ["-f", "%U %S %M", "-o", usageFile, process.execPath, ...TYPESCRIPT_REQUIRE, "deploy.ts"], {
            cwd: workDir,
            env: {
                ...process.env,
                FLEET_STACK: name,
                FLEET_CLUSTER_ID: platform.clusterId,
                PULUMI_CLI_ROOT: path.dirname(platform.bin),
                PATH: `${platform.bin}${path.delimiter}${process.env.PATH ?? ""}`,
                PULUMI_BACKEND_URL: `file://${path.join(platform.dir, "backend")}`,
                PULUMI_HOME: path.join(platform.dir, "home"),
                PULUMI_CONFIG_PASSPHRASE: "fleet-passphrase",
                PULUMI_SKIP_UPDATE_CHECK: "true",
                PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
                TS_NODE_PROJECT: path.join(REPOSITORY, "tsconfig.json"),
                PLATFORM_MANAGEMENT_URL: management.managementUrl,
                PLATFORM_CONSOLE_CLIENT_ID: DEMO_CLIENT.clientId,
                PLATFORM_CONSOLE_CLIENT_SECRET: DEMO_CLIENT.clientSecret,
                PLATFORM_OAUTH_URL: platform.emulator.authUrl,
                PLATFORM_CONSOLE_BASE_URL: platform.emulator.baseUrl,
                PLATFORM_TOKEN_CACHE_DIR: tokenCache,
            },
            stdio: ["ignore", "pipe", "pipe"],
        });
        let text = "";
        child.stdout.on("data", (chunk: Buffer) => (text += chunk.toString()));
        child.stderr.on("data", (chunk: Buffer) => (text += chunk.toString()));
        child.on("error", reject);
        child.on("close", () => resolve(text));
    });
    const wallSeconds = (Date.now() - started) / 1000;
    const [user, system, maxKB] = fs.readFileSync(usageFile, "utf8").trim().split(/\s+/).slice(-3).map(Number);
    const result = output
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => line.startsWith("{") && line.includes('"stack"'))
        .map((line) => JSON.parse(line) as { preview: { passed: boolean; error?: string }; up?: { passed: boolean; error?: string } })
        .pop();
    const passed = result?.preview.passed === true && result.up?.passed === true;
    return {
        stack: name,
        passed,
        ...(passed ? {} : { error: result?.up?.error ?? result?.preview.error ?? output.slice(-2000) }),
        wallSeconds,
        cpuSeconds: user + system,
        peakRssMB: maxKB / 1024,
    };
}

export async function startFleetPlatform(slowAnswerMs: number): Promise<Platform> {
    const bin = await pulumiBin(PULUMI_SDK_MATCH); // throws, naming the tool, when the CLI is not built
    const layout = { brokers: 3, partitions: 3, replicationFactor: 3, opMs: 10 };
    const emulator = await startEmulator(layout);
    const slow = await startEmulator(layout);
    slow.control.addFault({ interface: "management", count: 1_000_000, delayMs: slowAnswerMs });
    const clusterId = emulator.control.addHostedCluster({ name: "fleet" });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "platform-fleet-"));
    for (const folder of ["backend", "home"]) fs.mkdirSync(path.join(dir, folder));
    return { emulator, slow, clusterId, bin, dir };
}

async function stopFleetPlatform(platform: Platform): Promise<void> {
    await platform.emulator.close();
    await platform.slow.close();
    fs.rmSync(platform.dir, { recursive: true, force: true });
}

/** The lone stack, then the fleet. */
export async function runFleetCase(options: FleetOptions): Promise<{ lone: FleetRun; fleet: FleetRun }> {
    const platform = await startFleetPlatform(options.slowAnswerMs);
    try {
        const lone = await runFleet(platform, ["lone"], false);
        const names = Array.from({ length: options.stacks }, (_, index) => `fleet-${index}`);
        const fleet = await runFleet(platform, names, true);
        return { lone, fleet };
    } finally {
        await stopFleetPlatform(platform);
    }
}

export function fleetFigures(lone: FleetRun, fleet: FleetRun): Figure[] {
    const stacks = fleet.runs.length;
    const count = (run: FleetRun, test: (entry: RequestLogEntry) => boolean) => run.requests.filter(test).length;
    const tokenRequests = count(fleet, (entry) => entry.interface === "auth" && entry.method === "POST");
    const limited = count(fleet, (entry) => entry.interface === "auth" && entry.status === 429);
    const adminReads = count(fleet, (entry) => entry.interface === "admin" && entry.method === "GET");
    const [loneRun] = lone.runs;
    const others = fleet.runs.slice(1);
    const cpu = median(fleet.runs.map((run) => run.cpuSeconds));
    const rss = median(fleet.runs.map((run) => run.peakRssMB));
    const ratio = { op: "<=" as const, value: TARGET_PER_STACK_RATIO };
    return [
        figure("fleet", "stacks", "stacks run side by side", stacks, "stacks"),
        figure("fleet", "passed", "stacks whose preview and up passed", fleet.runs.filter((run) => run.passed).length, "stacks", { op: "==", value: stacks }),
        figure("fleet", "tokenRequests", "token requests reaching the issuer, whole fleet (one set of credentials)", tokenRequests, "requests", {
            op: "<=",
            value: 1,
        }),
        figure("fleet", "tokenRateLimited", "the issuer's 429 answers", limited, "answers", { op: "==", value: 0 }),
        figure("fleet", "adminReadsPerStack", "administration API reads per stack (preview and up)", round(adminReads / stacks, 1), "requests"),
        figure("fleet", "lone.cpuSeconds", "CPU of a lone stack's preview and up (its whole process tree)", round(loneRun.cpuSeconds, 1), "s"),
        figure("fleet", "cpuSecondsPerStack", "CPU per stack in the fleet, median", round(cpu, 1), "s"),
        figure("fleet", "cpuRatio", "CPU per stack in the fleet / a lone stack's", round(cpu / loneRun.cpuSeconds, 2), "x", ratio),
        figure("fleet", "lone.peakRssMB", "peak RSS of a lone stack's largest process", round(loneRun.peakRssMB, 1), "MB"),
        figure("fleet", "peakRssMBPerStack", "peak RSS of a fleet stack's largest process, median", round(rss, 1), "MB"),
        figure("fleet", "peakRssRatio", "peak RSS per stack in the fleet / a lone stack's", round(rss / loneRun.peakRssMB, 2), "x", ratio),
        figure("fleet", "lone.wallSeconds", "wall time of a lone stack", round(loneRun.wallSeconds, 1), "s"),
        figure("fleet", "wallSeconds", "wall time of the whole fleet", round(fleet.wallSeconds, 1), "s"),
        figure("fleet", "slowStackWallSeconds", "wall time of the stack whose cluster answers slowly", round(fleet.runs[0].wallSeconds, 1), "s"),
        figure(
            "fleet",
            "othersMaxWallSeconds",
            "wall time of the slowest of the other stacks",
            round(Math.max(...others.map((run) => run.wallSeconds)), 1),
            "s",
        ),
        // Where the machine's cores are the bottleneck, every stack ends at about the same time, the slow one among
        // them: the test of the fleet's invariants (three stacks) holds this one to all of them.
        figure(
            "fleet",
            "othersFinishedFirst",
            "other stacks that finished before the slow one",
            others.filter((run) => run.wallSeconds < fleet.runs[0].wallSeconds).length,
            "stacks",
        ),
    ];
}

export async function benchFleet(options: FleetOptions = DEFAULT_FLEET): Promise<SectionResult> {
    execFileSync("/usr/bin/time", ["-f", "%U", "true"], { stdio: "ignore" }); // throws when the machine has no GNU time
    const { lone, fleet } = await runFleetCase(options);
    const failed = fleet.runs.filter((run) => !run.passed).map((run) => ({ stack: run.stack, error: run.error }));
    return {
        figures: fleetFigures(lone, fleet),
        details: { lone: lone.runs, fleet: fleet.runs.map(({ error: _error, ...run }) => run), failed, options },
    };
}
