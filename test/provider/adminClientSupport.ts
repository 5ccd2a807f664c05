// Shared setup of the AdminClient suites: an emulator that knows one client with a distinctive secret,
// a private work directory per test (token cache, state files), runs of the fixture programs with an
// environment that holds none of the caller's PLATFORM_* settings, and the leak scan.

import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { RequestLogEntry, RunningEmulator } from "../emulator";
import { useEmulator } from "../support/emulator";
import { SecretLedger } from "../support/secretScan";
import { FixtureEngine, producedTexts, runStack } from "../support/stack";
import { Command, RunPulumiResult } from "../engine";

export const PROGRAMS = join(__dirname, "programs");

/** Random per test process, so that finding it anywhere can only mean a leak. */
export const CLIENT = { clientId: "admin-test-client", clientSecret: `s3cret-${randomBytes(12).toString("hex")}`, audience: "127.0.0.1" };

/** A second secret the emulator also accepts for CLIENT (a rotation). */
export const ROTATED_SECRET = `r0tated-${randomBytes(12).toString("hex")}`;

/** A JSON Web Token, the emulator's token format. */
export { JWT_PATTERN as JWT } from "../support/secretScan";

const PASSPHRASE = "admin-client-tests";

/**
 * One emulator for the enclosing describe block, with the real token rate limit (a second token request
 * within a second would be refused and show in the log). `resetEach: false` keeps its state between the
 * tests of a block that tells one story.
 */
export function useAdminEmulator(options: { resetEach?: boolean } = {}): () => RunningEmulator {
    // No token rate limit: runs follow each other faster than the issuer's spacing (its limit has tests of its own).
    return useEmulator({ opMs: 10, rateLimitBlockSeconds: 0, clients: [CLIENT, { ...CLIENT, clientSecret: ROTATED_SECRET }] }, options);
}

/** A private directory for each test (or, with `perTest: false`, for the whole block), removed afterwards. */
export function useWorkDir(options: { perTest?: boolean } = {}): () => string {
    let dir: string | undefined;
    const make = () => {
        dir = mkdtempSync(join(tmpdir(), "admin-client-"));
    };
    const remove = () => {
        if (dir) rmSync(dir, { recursive: true, force: true });
    };
    if (options.perTest === false) {
        before(make);
        after(remove);
    } else {
        beforeEach(make);
        afterEach(remove);
    }
    return () => {
        if (!dir) throw new Error("no work directory");
        return dir;
    };
}

/** Stack config that points every setting at the emulator, the secret as secret config. */
export function platformConfig(emulator: RunningEmulator, secret = CLIENT.clientSecret): { config: Record<string, string>; secrets: Record<string, string> } {
    return {
        config: { "platform:clientId": CLIENT.clientId, "platform:oauthUrl": emulator.authUrl, "platform:baseUrl": emulator.baseUrl },
        secrets: { "platform:clientSecret": secret },
    };
}

export interface RunOptions {
    /** A fixture of PROGRAMS by name, or a program's directory (an example). */
    program?: string;
    config?: Record<string, string>;
    secrets?: Record<string, string>;
    env?: NodeJS.ProcessEnv;
    /** Each line the run prints (a run in processes of its own). */
    onLine?: (line: string) => void;
    /** Kills the run (a run in processes of its own). */
    signal?: AbortSignal;
    /** `--skip-preview`: no preview pass before the update. */
    skipPreview?: boolean;
}

export interface AdminRun {
    result: RunPulumiResult;
    /** What the emulator served during this run. */
    requests: RequestLogEntry[];
    tokenRequests: RequestLogEntry[];
    memberRequests: RequestLogEntry[];
}

/** A stack of one fixture program, its state and token cache in the work directory (stacks of one directory share the cache). */
export class AdminStack {
    constructor(
        private readonly emulator: () => RunningEmulator,
        private readonly workDir: () => string,
        private readonly stateName = "state.json",
        /** Where the runs go (see FixtureEngine): these suites try many cases of a behaviour, in the test's process. */
        private readonly engine: FixtureEngine = "in-process",
    ) {}

    get stateFile(): string {
        return join(this.workDir(), this.stateName);
    }

    get tokenCacheDir(): string {
        return join(this.workDir(), "tokens");
    }

    /** Runs one operation; the request log covers exactly this run. */
    async run(command: Command, options: RunOptions = {}): Promise<AdminRun> {
        this.emulator().control.clearRequests();
        const stack = {
            programDir: resolve(PROGRAMS, options.program ?? "admin-clients"),
            stack: "test",
            stateFile: this.stateFile,
            tokenCacheDir: this.tokenCacheDir,
            passphrase: PASSPHRASE,
        };
        const result = await runStack(stack, command, { ...options, inProcess: this.engine === "in-process" && options.signal === undefined });
        const requests = this.emulator().control.requests();
        return {
            result,
            requests,
            tokenRequests: requests.filter((entry) => entry.interface === "auth"),
            memberRequests: requests.filter((entry) => entry.interface === "admin" && entry.path === "/members"),
        };
    }

    /** The tokens in the disk cache (the only file allowed to hold one). */
    cachedTokens(): string[] {
        if (!existsSync(this.tokenCacheDir)) return [];
        return readdirSync(this.tokenCacheDir)
            .filter((name) => name.endsWith(".json"))
            .map((name) => (JSON.parse(readFileSync(join(this.tokenCacheDir, name), "utf8")) as { accessToken: string }).accessToken);
    }

    /** The expiry (epoch ms) of the one cached token. */
    cachedTokenExpiry(): number {
        const files = readdirSync(this.tokenCacheDir).filter((name) => name.endsWith(".json"));
        assert.equal(files.length, 1, `expected one cached token, found ${files.join(", ")}`);
        return (JSON.parse(readFileSync(join(this.tokenCacheDir, files[0]), "utf8")) as { expiresAt: number }).expiresAt;
    }

    /**
     * Neither a secret nor a token appears in what the run printed, its errors, its stack outputs or the
     * state file as stored: the secrets given, the tokens of the disk cache, and anything shaped like a JWT.
     */
    assertNoLeaks(run: AdminRun, secrets: string[] = [CLIENT.clientSecret, ROTATED_SECRET]): void {
        const texts = producedTexts(run.result, this.stateFile);
        const ledger = new SecretLedger();
        secrets.forEach((secret, index) => ledger.addSecret(`client secret #${index + 1}`, secret));
        ledger.watchTokenCache(this.tokenCacheDir);
        ledger.assertClean("the run", texts);
    }
}

export function succeeded(run: AdminRun): void {
    const { exitCode, stdout, stderr } = run.result;
    assert.equal(exitCode, 0, `exit ${exitCode}\n${stdout}\n${stderr}`);
}

/** The host lines of the run that name the given resource (of the given type). */
export function linesOf(run: AdminRun, name: string, type = "AdminClient"): string[] {
    const prefix = `${type} "${name}": `;
    return run.result.diagnostics.map((diagnostic) => diagnostic.line).filter((line) => line.startsWith(prefix));
}

export function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
}
