// Shared setup of the SDK suites: an emulator per suite, private temporary token-cache directories,
// and readers of the emulator's request log.

import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ResetBody, RunningEmulator } from "../emulator";
import { useEmulator as useSharedEmulator } from "../support/emulator";

export { requestsTo } from "../support/requestLog";
import { clearTokenCache } from "../../sdk/auth/tokenClient";

export const DEMO = { clientId: "demo-client", clientSecret: "demo-secret", audience: "127.0.0.1" };

/** One emulator for the enclosing describe block, reset before each test, with the process's tokens forgotten. */
export function useEmulator(reset: ResetBody = {}): () => RunningEmulator {
    return useSharedEmulator({ opMs: 10, rateLimitBlockSeconds: 1, ...reset }, { beforeEachTest: clearTokenCache });
}

/** A fresh temporary directory per test, removed afterwards. */
/** The token files of a disk cache folder (beside them: issuers/, the processes' lock on the issuer). */
export function tokenFiles(dir: string): string[] {
    return readdirSync(dir).filter((name) => name.endsWith(".json"));
}

export function useTempDir(): () => string {
    let dir: string | undefined;
    beforeEach(() => {
        dir = mkdtempSync(join(tmpdir(), "sdk-test-"));
    });
    afterEach(() => {
        if (dir) rmSync(dir, { recursive: true, force: true });
    });
    return () => {
        if (!dir) throw new Error("no temp dir");
        return dir;
    };
}

/** Starts brokers the emulator does not run yet (new brokers must run before they are named). */
export function startBrokers(emulator: RunningEmulator, ids: number[]): void {
    for (const id of ids) emulator.control.startBroker(id);
}

/** Resolves with the error a promise rejects with; fails the test if it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
    try {
        await promise;
    } catch (error) {
        if (error instanceof Error) return error;
        throw new Error(`rejected with a non-Error: ${String(error)}`);
    }
    throw new Error("expected a rejection, but the promise resolved");
}
