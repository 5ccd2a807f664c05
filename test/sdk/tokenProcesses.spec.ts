// Token clients in processes that start together and share one token cache folder (a pipeline running its stacks side
// by side): the emulated issuer allows about one request per second per address and answers 429 beyond it. Each
// process is node with the built SDK, released by the test once all have loaded it. Counts from the request log.

import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import * as path from "node:path";
import * as readline from "node:readline";
import { DEMO, requestsTo, tokenFiles, useEmulator, useTempDir } from "./support";

const TOKEN_CLIENT = path.resolve(__dirname, "..", "..", "dist", "sdk", "auth", "tokenClient.js");
// Loads the SDK, says "ready", and on "go" asks for a token and prints it (or the error's message).
const CHILD = `
const { TokenClient } = require(process.env.TOKEN_CLIENT);
const client = new TokenClient(JSON.parse(process.env.TOKEN_OPTIONS));
console.log("ready");
require("readline").createInterface({ input: process.stdin }).once("line", () =>
    client.getToken().then((token) => console.log("token " + token), (error) => console.log("error " + error.message)),
);`;

interface TokenProcess {
    child: ChildProcess;
    ready: Promise<void>;
    answer: Promise<string>;
}

function tokenProcess(options: Record<string, unknown>): TokenProcess {
    const child = spawn(process.execPath, ["-e", CHILD], {
        env: { ...process.env, TOKEN_CLIENT, TOKEN_OPTIONS: JSON.stringify(options) },
        stdio: ["pipe", "pipe", "inherit"],
    });
    const lines = readline.createInterface({ input: child.stdout! });
    const ready = new Promise<void>((resolve) => lines.once("line", () => resolve()));
    const answer = ready.then(() => new Promise<string>((resolve) => lines.once("line", resolve)));
    return { child, ready, answer };
}

/** Releases the processes together once all are ready. */
async function release(all: TokenProcess[]): Promise<void> {
    await Promise.all(all.map((each) => each.ready));
    for (const each of all) each.child.stdin!.write("go\n");
}

/** Releases the processes together and returns their answers. */
async function together(all: TokenProcess[]): Promise<string[]> {
    await release(all);
    return Promise.all(all.map((each) => each.answer));
}

describe("sdk token client: processes that start together share one token cache", function () {
    this.timeout(60_000);
    const emulator = useEmulator();
    const tempDir = useTempDir();
    const options = (extra: Record<string, unknown> = {}) => ({ ...DEMO, authUrl: emulator().authUrl, cacheDir: tempDir(), env: {}, ...extra });
    const tokenRequests = () => requestsTo(emulator(), "auth", "POST");
    const started: ChildProcess[] = [];
    afterEach(() => {
        for (const child of started.splice(0)) child.kill("SIGKILL");
    });
    const start = (extra: Record<string, unknown> = {}) => {
        const each = tokenProcess(options(extra));
        started.push(each.child);
        return each;
    };

    it("eight cold processes with the same credentials: one token request, the same token for all, no 429", async () => {
        const answers = await together(Array.from({ length: 8 }, () => start()));
        assert.ok(
            answers.every((answer) => answer.startsWith("token ")),
            answers.join("\n"),
        );
        assert.equal(new Set(answers).size, 1, "the processes got different tokens");
        assert.deepEqual(
            tokenRequests().map((request) => request.status),
            [200],
        );
        assert.equal(tokenFiles(tempDir()).length, 1);
    });

    it("three cold processes with different credentials: one request each, spaced as the issuer allows, no 429", async () => {
        const clients = ["fleet-a", "fleet-b", "fleet-c"].map((clientId) => ({ clientId, clientSecret: `${clientId}-secret`, audience: "127.0.0.1" }));
        emulator().control.updateSettings({ clients: [DEMO, ...clients] });
        const answers = await together(clients.map((client) => start(client)));
        assert.ok(
            answers.every((answer) => answer.startsWith("token ")),
            answers.join("\n"),
        );
        const requests = tokenRequests();
        assert.deepEqual(
            requests.map((request) => request.status),
            [200, 200, 200],
        );
        for (let i = 1; i < requests.length; i++) assert.ok(Date.parse(requests[i].at) - Date.parse(requests[i - 1].at) >= 900, "two requests within a second");
    });

    /** A process whose token request the issuer holds (so it holds the lock), once the request has reached it. */
    const holderOfTheLock = async (): Promise<TokenProcess> => {
        emulator().control.addFault({ interface: "auth", count: 1, delayMs: 30_000 });
        const holder = start();
        await release([holder]);
        // The fault was taken: the request reached the issuer. The issuer has no event for it.
        const pendingFaults = () => (emulator().control.state() as { faults: unknown[] }).faults.length;
        while (pendingFaults() > 0) await new Promise((resolve) => setTimeout(resolve, 20));
        return holder;
    };

    it("a process killed while it asks the issuer leaves its lock: the next process takes it over at once", async () => {
        const killed = await holderOfTheLock();
        killed.child.kill("SIGKILL");
        await new Promise((resolve) => killed.child.once("exit", resolve));
        const [answer] = await together([start()]);
        assert.ok(answer.startsWith("token "), answer);
    });

    it("four processes waiting on the lock of one that is killed: one of them takes it over; one token request, one token for all", async () => {
        const killed = await holderOfTheLock();
        const waiting = Array.from({ length: 4 }, () => start());
        await release(waiting);
        killed.child.kill("SIGKILL");
        const answers = await Promise.all(waiting.map((each) => each.answer));
        assert.ok(
            answers.every((answer) => answer.startsWith("token ")),
            answers.join("\n"),
        );
        assert.equal(new Set(answers).size, 1, "the waiters got different tokens");
        // The killed process's request is logged only when its delayed answer would have gone, after the test.
        assert.equal(tokenRequests().length, 1);
    });
});
