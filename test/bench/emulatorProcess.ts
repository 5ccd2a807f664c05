// The emulators the benchmarks measure against, in a child process of their own: the platform is a
// separate process in real life, and a server sharing the bench's event loop would blur every latency.
// Each emulator is steered through its control API over loopback.

import { ChildProcess, spawn } from "child_process";
import * as path from "path";
import * as readline from "readline";
import { request } from "undici";
import type { RequestLogEntry, ResetBody } from "../emulator";
import type { EmulatorUrls } from "../emulator/emulator";
import { TYPESCRIPT_REQUIRE } from "../support/typescriptRequire";

const FLEET_ENTRY = path.join(__dirname, "emulatorFleet.ts");
const START_TIMEOUT_MS = 60_000;

/** One emulated platform (token issuer, admin API, management API, gateway) and its control API. */
export class BenchEmulator {
    constructor(readonly urls: EmulatorUrls) {}

    /** Restores the start-up settings, then applies the layout and settings given. Clears the request log. */
    async reset(body: ResetBody): Promise<void> {
        await this.control("POST", "/reset", body);
    }

    async requests(): Promise<RequestLogEntry[]> {
        return (await this.control("GET", "/requests")) as RequestLogEntry[];
    }

    async clearRequests(): Promise<void> {
        await this.control("DELETE", "/requests");
    }

    private async control(method: "GET" | "POST" | "DELETE", pathname: string, body?: unknown): Promise<unknown> {
        const response = await request(`${this.urls.controlUrl}${pathname}`, {
            method,
            headers: body === undefined ? {} : { "content-type": "application/json" },
            body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await response.body.text();
        if (response.statusCode !== 200) throw new Error(`emulator control ${method} ${pathname} answered ${response.statusCode}: ${text}`);
        return JSON.parse(text) as unknown;
    }
}

export interface EmulatorProcess {
    emulators: BenchEmulator[];
    stop(): Promise<void>;
}

/** Starts `count` emulators in one child process (token rate limit off: the benchmarks count requests, they do not pace them). */
export async function startEmulatorProcess(count: number): Promise<EmulatorProcess> {
    const child = spawn(process.execPath, [...TYPESCRIPT_REQUIRE, FLEET_ENTRY, String(count)], {
        stdio: ["pipe", "pipe", "pipe"],
        env: { ...process.env, TS_NODE_PROJECT: path.resolve(__dirname, "..", "..", "tsconfig.json") },
    });
    const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
    const stderr: string[] = [];
    child.stderr!.on("data", (chunk: Buffer) => stderr.push(chunk.toString("utf8")));
    const urls = await firstLine(child).catch((error: Error) => {
        child.kill();
        throw new Error(`${error.message}\n${stderr.join("")}`);
    });
    const stop = async (): Promise<void> => {
        child.stdin!.end();
        const killer = setTimeout(() => child.kill("SIGKILL"), 5_000);
        await closed;
        clearTimeout(killer);
    };
    return { emulators: (JSON.parse(urls) as EmulatorUrls[]).map((u) => new BenchEmulator(u)), stop };
}

function firstLine(child: ChildProcess): Promise<string> {
    return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("the emulator process did not start in time")), START_TIMEOUT_MS);
        readline.createInterface({ input: child.stdout! }).once("line", (line) => {
            clearTimeout(timer);
            resolve(line);
        });
        child.once("exit", (code) => {
            clearTimeout(timer);
            reject(new Error(`the emulator process exited (${code}) before serving`));
        });
    });
}
