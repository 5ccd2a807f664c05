// Child-process entry for the SDK-level token benchmark: `count` administration-API clients, each with
// its own TokenClient, list the members at the same time, as that many resources of one run would.
// Credentials come from the PLATFORM_* environment variables, the disk cache from PLATFORM_TOKEN_CACHE_DIR.
// Usage: node -r ts-node/register/transpile-only tokenWorker.ts <count>. Prints {"listed": n}.

import { AdminApiClient } from "../../sdk";

async function main(): Promise<void> {
    const count = Number(process.argv[2]);
    const baseUrl = process.env.PLATFORM_CONSOLE_BASE_URL;
    if (!Number.isInteger(count) || count < 1 || baseUrl === undefined) throw new Error("usage: tokenWorker.ts <count> (with PLATFORM_* set)");
    const lists = await Promise.all(Array.from({ length: count }, () => new AdminApiClient({ baseUrl }).listMembers()));
    process.stdout.write(`${JSON.stringify({ listed: lists.length })}\n`);
}

main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
});
