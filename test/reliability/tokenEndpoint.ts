// 5. The token endpoint: a storm of 429s and a real block period of the issuer's rate limit. A run never sends more
// than one token request per second (measured on the emulator's arrival times), honours the block, and succeeds
// once it ends. Credentials the issuer rejects cost one token request for fifty resources.
import * as assert from "assert";
import type { RequestLogEntry, RunningEmulator } from "../emulator";
import { CLIENT, Lab, Scenario, Section, adminUrn, failed, once, requestLine, succeeded, tokenRequests, until } from "./support";

/** The issuer allows about one request per second: the client spaces them by at least this much (end to start). */
const TOKEN_INTERVAL_MS = 1_000;

export function tokenEndpoint(lab: Lab): Section {
    const emulatorOnce = once(() => lab.emulator());
    const admin = (emulator: RunningEmulator): Record<string, unknown> => ({
        clientId: CLIENT.clientId,
        oauthUrl: emulator.authUrl,
        baseUrl: emulator.baseUrl,
    });
    const scenarios: Scenario[] = [];

    scenarios.push({
        name: "a storm of 429s: at most one token request per second, then success with one token for every resource",
        run: async () => {
            const emulator = await emulatorOnce();
            emulator.control.reset({ rateLimitBlockSeconds: 0 });
            emulator.control.addFault({ interface: "auth", count: 3, status: 429 });
            const run = await lab.run(emulator, lab.stack("429 storm"), {
                command: "up",
                admin: admin(emulator),
                adminCount: 3,
                adminSecret: CLIENT.clientSecret,
            });
            succeeded(run);
            const tokens = tokenRequests(run.requests);
            assert.deepStrictEqual(
                tokens.map((entry) => entry.status),
                [429, 429, 429, 200],
            );
            assertSpaced(tokens);
            assert.deepStrictEqual(
                memberRequests(run.requests).map((entry) => entry.status),
                [200, 200, 200],
            );
        },
    });

    scenarios.push({
        name: "a block period: the run waits for it to end (no request in between), then succeeds",
        run: async () => {
            const emulator = await emulatorOnce();
            const blockSeconds = 2;
            emulator.control.reset({ rateLimitBlockSeconds: blockSeconds });
            // Hold the run's first token request while this test makes the issuer block the address (two requests
            // within a second, from the same loopback address). The held request then meets the block.
            emulator.control.addFault({ interface: "auth", count: 1, delayMs: 3_000 });
            let ended = false;
            const provoked = (async () => {
                await until(
                    () => ((emulator.control.state() as { faults: unknown[] }).faults.length === 0 ? true : undefined),
                    () => ended,
                );
                const logged = tokenRequests(emulator.control.requests()).length;
                const statuses = [await requestToken(emulator, lab), await requestToken(emulator, lab)];
                return { logged, statuses };
            })();
            provoked.catch(() => undefined);
            const run = await lab.run(emulator, lab.stack("block period"), {
                command: "up",
                admin: admin(emulator),
                adminCount: 2,
                adminSecret: CLIENT.clientSecret,
            });
            ended = true;
            const { logged, statuses } = await provoked;
            assert.deepStrictEqual(statuses, [200, 429], "the test could not make the issuer block the address");
            succeeded(run);

            // The test's own two requests were logged as they were answered, while the run's first one was held.
            const all = tokenRequests(run.requests);
            const provoking = all.slice(logged, logged + 2);
            assert.deepStrictEqual(
                provoking.map((entry) => entry.status),
                [200, 429],
            );
            const blockedUntil = Date.parse(provoking[1].at) + blockSeconds * 1000;
            const runs = [...all.slice(0, logged), ...all.slice(logged + 2)];
            assert.deepStrictEqual(
                runs.map((entry) => entry.status),
                [429, 200],
                all.map(requestLine).join(", "),
            );
            assertSpaced(runs);
            assert.ok(Date.parse(runs[1].at) >= blockedUntil, "the run asked again before the block ended");
            assert.deepStrictEqual(
                memberRequests(run.requests).map((entry) => entry.status),
                [200, 200],
            );
        },
    });

    scenarios.push({
        name: "credentials the issuer rejects: one token request for fifty resources, and a clear error",
        run: async () => {
            const emulator = await emulatorOnce();
            emulator.control.reset({ rateLimitBlockSeconds: 10 });
            const wrong = `${CLIENT.clientSecret}-rotated-away`;
            lab.ledger.addSecret("rejected client secret", wrong);
            const run = await lab.run(emulator, lab.stack("bad credentials x50"), {
                command: "up",
                admin: admin(emulator),
                adminCount: 50,
                adminSecret: wrong,
            });
            const errors = failed(run);
            assert.deepStrictEqual(
                tokenRequests(run.requests).map((entry) => entry.status),
                [401],
            );
            assert.deepStrictEqual(memberRequests(run.requests), []);
            assert.match(errors, new RegExp(`The token issuer ${escape(emulator.authUrl)} rejected the credentials of client '${CLIENT.clientId}'`));
            assert.ok(!Object.keys(run.result.state.resources).includes(adminUrn(0)), "a failed AdminClient is in the state");
        },
    });
    return { number: 5, title: "token endpoint: 429 storms, a block period, bad credentials", scenarios };
}

/** Consecutive token requests arrived at least a second apart. */
function assertSpaced(entries: readonly RequestLogEntry[]): void {
    for (let i = 1; i < entries.length; i++) {
        const gap = Date.parse(entries[i].at) - Date.parse(entries[i - 1].at);
        assert.ok(gap >= TOKEN_INTERVAL_MS, `token requests ${i} and ${i + 1} arrived ${gap} ms apart`);
    }
}

function memberRequests(requests: readonly RequestLogEntry[]): RequestLogEntry[] {
    return requests.filter((entry) => entry.interface === "admin" && entry.path === "/members");
}

/** One token request from this process (the same loopback address as the provider host); returns its status. */
async function requestToken(emulator: RunningEmulator, lab: Lab): Promise<number> {
    const response = await fetch(emulator.authUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
            grant_type: "client_credentials",
            audience: CLIENT.audience,
            client_id: CLIENT.clientId,
            client_secret: CLIENT.clientSecret,
        }),
    });
    const body = (await response.json()) as { access_token?: unknown };
    if (typeof body.access_token === "string") lab.ledger.addToken(body.access_token);
    return response.status;
}

function escape(text: string): string {
    return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
