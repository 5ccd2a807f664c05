// Child-process entry: starts N emulators (each its own cluster on its own loopback ports), prints one
// JSON line with their URLs, and serves until its stdin closes (the bench ended or died).
// Usage: node -r ts-node/register/transpile-only test/bench/emulatorFleet.ts N

import { startEmulator, RunningEmulator } from "../emulator";
import { EmulatorUrls } from "../emulator/emulator";

async function main(): Promise<void> {
    const count = Number(process.argv[2] ?? "1");
    if (!Number.isInteger(count) || count < 1 || count > 32) throw new Error("the emulator count must be an integer from 1 to 32");
    const emulators: RunningEmulator[] = [];
    for (let i = 0; i < count; i++) emulators.push(await startEmulator({ rateLimitBlockSeconds: 0 }));
    const urls: EmulatorUrls[] = emulators.map(({ authUrl, baseUrl, managementUrl, gatewayUrl, controlUrl }) => ({
        authUrl,
        baseUrl,
        managementUrl,
        gatewayUrl,
        controlUrl,
    }));
    process.stdout.write(`${JSON.stringify(urls)}\n`);
    const stop = (): void => {
        void Promise.all(emulators.map((e) => e.close())).finally(() => process.exit(0));
    };
    process.stdin.on("end", stop);
    process.stdin.on("error", stop);
    process.stdin.resume();
    process.on("SIGTERM", stop);
}

main().catch((error: unknown) => {
    process.stderr.write(`emulators failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
});
