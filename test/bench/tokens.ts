// 3. Tokens: 100 resources over 3 runs, each run a new process sharing one token disk cache, and the
// number of token requests the issuer receives (target: 1). Measured through the engine with 100
// AdminClient resources (up, refresh, refresh) when that works, else at the SDK level (100 concurrent
// clients in each of 3 processes); the JSON names the method used.

import { mkdtempSync, rmSync } from "fs";
import { tmpdir } from "os";
import * as path from "path";
import type { RequestLogEntry } from "../emulator";
import { DEMO_CLIENT } from "../emulator/settings";
import { runPulumi } from "../engine";
import type { Command } from "../engine";
import { BenchEmulator } from "./emulatorProcess";
import { Figure, SectionResult, figure } from "./figures";
import { runTsChild } from "./tsChild";

export const TARGET_TOKEN_REQUESTS = 1;
const PROGRAM = path.join(__dirname, "programs", "adminClients");
const RUN_COMMANDS: Command[] = ["up", "refresh", "refresh"];
const PASSPHRASE = "bench passphrase";

export type TokenMethod = "engine: AdminClient resources through runPulumi" | "sdk: AdminApiClient callers in separate processes";

export interface TokenRun {
    command: string;
    durationMs: number;
    tokenRequests: number;
    adminRequests: number;
}

export interface TokenOptions {
    resources: number;
    runs: number;
    /** "engine" falls back to "sdk" when the program cannot run. */
    method: "engine" | "sdk";
}

export const DEFAULT_TOKENS: TokenOptions = { resources: 100, runs: 3, method: "engine" };

interface Counts {
    token: number;
    admin: number;
    rateLimited: number;
}

function count(log: readonly RequestLogEntry[]): Counts {
    return {
        token: log.filter((e) => e.interface === "auth").length,
        admin: log.filter((e) => e.interface === "admin").length,
        rateLimited: log.filter((e) => e.interface === "auth" && e.status === 429).length,
    };
}

async function runEngine(emulator: BenchEmulator, options: TokenOptions, cacheDir: string, workDir: string): Promise<TokenRun[]> {
    const runs: TokenRun[] = [];
    let before = count(await emulator.requests());
    for (let i = 0; i < options.runs; i++) {
        const command = RUN_COMMANDS[Math.min(i, RUN_COMMANDS.length - 1)];
        const start = Date.now();
        const result = await runPulumi({
            command,
            programDir: PROGRAM,
            stack: "bench",
            stateFile: path.join(workDir, "bench.json"),
            config: {
                count: String(options.resources),
                "platform:clientId": DEMO_CLIENT.clientId,
                "platform:oauthUrl": emulator.urls.authUrl,
                "platform:baseUrl": emulator.urls.baseUrl,
            },
            secrets: { "platform:clientSecret": DEMO_CLIENT.clientSecret },
            env: { PULUMI_CONFIG_PASSPHRASE: PASSPHRASE, PLATFORM_TOKEN_CACHE_DIR: cacheDir },
            timeoutMs: 180_000,
        });
        if (result.exitCode !== 0) {
            throw new Error(`pulumi ${command} exited with ${result.exitCode}: ${[...result.errors, ...result.stderr.split("\n")].slice(0, 5).join("; ")}`);
        }
        const after = count(await emulator.requests());
        runs.push({ command, durationMs: Date.now() - start, tokenRequests: after.token - before.token, adminRequests: after.admin - before.admin });
        before = after;
    }
    return runs;
}

async function runSdk(emulator: BenchEmulator, options: TokenOptions, cacheDir: string): Promise<TokenRun[]> {
    const runs: TokenRun[] = [];
    let before = count(await emulator.requests());
    for (let i = 0; i < options.runs; i++) {
        const start = Date.now();
        await runTsChild(path.join(__dirname, "tokenWorker.ts"), [String(options.resources)], {
            env: {
                PLATFORM_CONSOLE_CLIENT_ID: DEMO_CLIENT.clientId,
                PLATFORM_CONSOLE_CLIENT_SECRET: DEMO_CLIENT.clientSecret,
                PLATFORM_OAUTH_URL: emulator.urls.authUrl,
                PLATFORM_CONSOLE_BASE_URL: emulator.urls.baseUrl,
                PLATFORM_TOKEN_CACHE_DIR: cacheDir,
            },
        });
        const after = count(await emulator.requests());
        runs.push({
            command: `process ${i + 1}`,
            durationMs: Date.now() - start,
            tokenRequests: after.token - before.token,
            adminRequests: after.admin - before.admin,
        });
        before = after;
    }
    return runs;
}

export async function benchTokens(emulator: BenchEmulator, options: TokenOptions = DEFAULT_TOKENS): Promise<SectionResult> {
    // The issuer's rate limit stays on, as in production: a client that asked too often would be blocked.
    await emulator.reset({ rateLimitBlockSeconds: 10 });
    const workDir = mkdtempSync(path.join(tmpdir(), "bench-tokens-"));
    const cacheDir = path.join(workDir, "token-cache");
    let method: TokenMethod = "engine: AdminClient resources through runPulumi";
    let engineFailure: string | undefined;
    try {
        let runs: TokenRun[];
        if (options.method === "engine") {
            try {
                runs = await runEngine(emulator, options, cacheDir, workDir);
            } catch (error) {
                engineFailure = error instanceof Error ? error.message : String(error);
                await emulator.reset({ rateLimitBlockSeconds: 10 });
                rmSync(cacheDir, { recursive: true, force: true });
                method = "sdk: AdminApiClient callers in separate processes";
                runs = await runSdk(emulator, options, cacheDir);
            }
        } else {
            method = "sdk: AdminApiClient callers in separate processes";
            runs = await runSdk(emulator, options, cacheDir);
        }
        const totals = count(await emulator.requests());
        return {
            figures: tokenFigures(runs, totals.rateLimited),
            details: { method, resources: options.resources, runs, ...(engineFailure ? { engineFailure } : {}) },
        };
    } finally {
        rmSync(workDir, { recursive: true, force: true });
    }
}

export function tokenFigures(runs: readonly TokenRun[], rateLimited: number): Figure[] {
    const tokenRequests = runs.reduce((sum, run) => sum + run.tokenRequests, 0);
    const adminRequests = runs.reduce((sum, run) => sum + run.adminRequests, 0);
    return [
        figure("tokens", "tokenRequests", `token requests for ${runs.length} runs`, tokenRequests, "requests", { op: "<=", value: TARGET_TOKEN_REQUESTS }),
        figure("tokens", "rateLimitedTokenRequests", "token requests answered 429", rateLimited, "requests", { op: "==", value: 0 }),
        figure("tokens", "adminRequests", `administration API requests for ${runs.length} runs`, adminRequests, "requests"),
    ];
}
