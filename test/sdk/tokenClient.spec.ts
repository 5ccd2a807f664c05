// The token client against the emulated issuer. Every count comes from the emulator's request log.

import assert from "node:assert/strict";
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inspect } from "node:util";
import { AuthError, RateLimitedError } from "../../sdk/errors";
import { send } from "../../sdk/http/request";
import { TokenClient, TokenClientOptions, clearTokenCache, jwtExpiry } from "../../sdk/auth/tokenClient";
import { DEMO, rejection, requestsTo, tokenFiles, useEmulator, useTempDir } from "./support";

describe("sdk token client", () => {
    const emulator = useEmulator();
    const tempDir = useTempDir();

    function client(options: TokenClientOptions = {}): TokenClient {
        return new TokenClient({ ...DEMO, authUrl: emulator().authUrl, cacheDir: tempDir(), env: {}, ...options });
    }
    const tokenRequests = (): { status: number; at: string }[] => requestsTo(emulator(), "auth", "POST");
    const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

    describe("memory cache", () => {
        it("gets a JWT with the client-credentials grant and reuses it", async () => {
            const tokens = client();
            const first = await tokens.getToken();
            const payload = JSON.parse(Buffer.from(first.split(".")[1], "base64url").toString("utf8")) as { sub: string; aud: string };
            assert.equal(payload.sub, "demo-client");
            assert.equal(payload.aud, "127.0.0.1");
            assert.equal(await tokens.getToken(), first);
            assert.equal(await client().getToken(), first, "another client object with the same key shares the cache");
            assert.deepEqual(
                tokenRequests().map((entry) => entry.status),
                [200],
            );
        });

        it("50 concurrent callers cause one token request", async () => {
            const tokens = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? client() : client({ diskCache: false })).getToken()));
            assert.equal(new Set(tokens).size, 1);
            assert.equal(tokenRequests().length, 1);
        });

        it("renews the token a safety margin before it expires", async () => {
            emulator().control.updateSettings({ tokenLifetimeSeconds: 2 });
            const tokens = client({ diskCache: false });
            const first = await tokens.getToken();
            assert.equal(await tokens.getToken(), first);
            const exp = jwtExpiry(first);
            assert.ok(exp !== undefined);
            // Past the renewal point (at most 2 s minus 20 %), still before exp: a new token.
            await sleep(Math.max(0, exp * 1000 - Date.now() - 150));
            const second = await tokens.getToken();
            assert.notEqual(second, first);
            assert.equal(tokenRequests().length, 2);
        });

        it("forgets a token the API refused (invalidate) and fetches another", async () => {
            const tokens = client();
            const first = await tokens.getToken();
            await tokens.invalidate(first);
            assert.deepEqual(tokenFiles(tempDir()), [], "the disk copy is removed too");
            const second = await tokens.getToken();
            assert.notEqual(second, first);
            assert.equal(tokenRequests().length, 2);
        });
    });

    describe("disk cache", () => {
        it("writes the token to a 0600 file in a 0700 directory, without the secret, and serves the next process from it", async () => {
            const dir = join(tempDir(), "nested", "tokens");
            const token = await client({ cacheDir: dir }).getToken();
            assert.equal(statSync(dir).mode & 0o777, 0o700);
            const files = tokenFiles(dir);
            assert.equal(files.length, 1);
            const file = join(dir, files[0]);
            assert.equal(statSync(file).mode & 0o777, 0o600);
            const content = readFileSync(file, "utf8");
            assert.ok(!content.includes(DEMO.clientSecret));
            assert.deepEqual(Object.keys(JSON.parse(content)).sort(), ["accessToken", "expiresAt", "format", "key", "renewAt"]);

            clearTokenCache(); // as if a new process started
            assert.equal(await client({ cacheDir: dir }).getToken(), token);
            assert.equal(tokenRequests().length, 1);
        });

        it("ignores and replaces a corrupt file", async () => {
            await client().getToken();
            const file = join(tempDir(), tokenFiles(tempDir())[0]);
            writeFileSync(file, "{not json", { mode: 0o600 });
            clearTokenCache();
            await client().getToken();
            assert.equal(tokenRequests().length, 2);
            assert.ok(JSON.parse(readFileSync(file, "utf8")).accessToken);
        });

        it("ignores a file of another key and a file others can read", async () => {
            const token = await client().getToken();
            const file = join(tempDir(), tokenFiles(tempDir())[0]);
            const entry = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;

            writeFileSync(file, JSON.stringify({ ...entry, key: "another-key" }), { mode: 0o600 });
            clearTokenCache();
            const second = await client().getToken();
            assert.notEqual(second, token);

            writeFileSync(file, JSON.stringify({ ...entry, accessToken: second }));
            chmodSync(file, 0o644);
            clearTokenCache();
            await client().getToken();
            assert.equal(tokenRequests().length, 3);
            assert.equal(statSync(file).mode & 0o777, 0o600, "replaced by a private file");
        });

        it("is off with diskCache: false or PLATFORM_TOKEN_DISK_CACHE=off, and follows PLATFORM_TOKEN_CACHE_DIR", async () => {
            await client({ diskCache: false }).getToken();
            clearTokenCache();
            await client({ cacheDir: undefined, env: { PLATFORM_TOKEN_DISK_CACHE: "off", PLATFORM_TOKEN_CACHE_DIR: tempDir() } }).getToken();
            assert.deepEqual(tokenFiles(tempDir()), []);
            clearTokenCache();
            const fromEnv = new TokenClient({ ...DEMO, authUrl: emulator().authUrl, env: { PLATFORM_TOKEN_CACHE_DIR: tempDir() } });
            assert.equal(fromEnv.cacheDir, tempDir());
            await fromEnv.getToken();
            assert.equal(tokenFiles(tempDir()).length, 1);
            assert.equal(tokenRequests().length, 3);
        });
    });

    describe("rate limit", () => {
        it("spaces token requests of different clients by at least a second, so the issuer never blocks us", async () => {
            emulator().control.updateSettings({
                clients: [DEMO, { clientId: "second-client", clientSecret: "second-secret", audience: "127.0.0.1" }],
            });
            const [a, b] = await Promise.all([client().getToken(), client({ clientId: "second-client", clientSecret: "second-secret" }).getToken()]);
            assert.notEqual(a, b);
            const [first, second] = tokenRequests();
            assert.deepEqual([first.status, second.status], [200, 200]);
            assert.ok(Date.parse(second.at) - Date.parse(first.at) >= 900);
        });

        it("on 429 waits for Retry-After, then succeeds", async () => {
            // Another program at this address asks for a token (a bad request, which counts too) just
            // before ours: the issuer blocks the address for 1 s. Our own limiter must be idle first.
            await sleep(1_000);
            await send({ method: "POST", url: emulator().authUrl, form: { grant_type: "client_credentials" } });
            const token = await client().getToken();
            assert.ok(token.length > 0);
            assert.deepEqual(
                tokenRequests().map((entry) => entry.status),
                [400, 429, 200],
            );
        });

        it("gives up with RateLimitedError after the allowed attempts", async () => {
            emulator().control.addFault({ interface: "auth", count: 5, status: 429 });
            const error = await rejection(client({ maxAttempts: 2 }).getToken());
            assert.ok(error instanceof RateLimitedError);
            assert.equal(error.retryAfterMs, 1_000);
            assert.equal(tokenRequests().length, 2);
        });

        it("retries a transient failure of the issuer (reset, 503) within the attempts", async () => {
            emulator().control.addFault({ interface: "auth", count: 1, reset: true });
            emulator().control.addFault({ interface: "auth", count: 1, status: 503 });
            await client().getToken();
            assert.deepEqual(
                tokenRequests().map((entry) => entry.status),
                [0, 503, 200],
            );
        });
    });

    describe("rejected credentials", () => {
        it("401: fails at once with an AuthError naming client and issuer, and never asks again with those credentials", async () => {
            const secret = "wrong-secret-value";
            const error = await rejection(client({ clientSecret: secret }).getToken());
            assert.ok(error instanceof AuthError);
            assert.equal(error.status, 401);
            assert.match(error.message, /demo-client/);
            assert.match(error.message, new RegExp(emulator().authUrl.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
            for (const text of [error.message, JSON.stringify(error), inspect(error, { depth: 5 }), String(error.stack)]) {
                assert.ok(!text.includes(secret), text);
            }

            const again = await rejection(client({ clientSecret: secret }).getToken());
            assert.ok(again instanceof AuthError);
            assert.equal(again.message, error.message);
            assert.equal(tokenRequests().length, 1, "no second request with the same credentials");

            await client().getToken(); // the right secret is another key: allowed
            assert.deepEqual(
                tokenRequests().map((entry) => entry.status),
                [401, 200],
            );
        });

        it("400: same fail-fast behaviour", async () => {
            emulator().control.addFault({ interface: "auth", count: 1, status: 400 });
            const error = await rejection(client().getToken());
            assert.ok(error instanceof AuthError);
            assert.equal(error.status, 400);
            assert.ok((await rejection(client().getToken())) instanceof AuthError);
            assert.equal(tokenRequests().length, 1);
        });

        it("a wrong audience is refused the same way", async () => {
            const error = await rejection(client({ audience: "other.example" }).getToken());
            assert.ok(error instanceof AuthError);
            assert.match(error.message, /other\.example/);
        });
    });

    describe("configuration", () => {
        it("reads the PLATFORM_* environment variables; the audience defaults to the admin API's host name", async () => {
            const tokens = new TokenClient({
                adminBaseUrl: emulator().baseUrl,
                diskCache: false,
                env: {
                    PLATFORM_CONSOLE_CLIENT_ID: DEMO.clientId,
                    PLATFORM_CONSOLE_CLIENT_SECRET: DEMO.clientSecret,
                    PLATFORM_OAUTH_URL: emulator().authUrl,
                },
            });
            assert.equal(tokens.audience, "127.0.0.1");
            assert.ok((await tokens.getToken()).length > 0);
            const explicit = new TokenClient({
                clientId: "arg-id",
                clientSecret: "s",
                authUrl: "http://127.0.0.1:1/t",
                audience: "a",
                env: { PLATFORM_CONSOLE_CLIENT_ID: "env-id" },
            });
            assert.equal(explicit.clientId, "arg-id", "arguments win over the environment");
        });

        it("names what is missing, without sending anything", () => {
            assert.throws(
                () => new TokenClient({ env: {} }),
                (error: unknown) => error instanceof AuthError && /PLATFORM_CONSOLE_CLIENT_ID/.test(error.message),
            );
            assert.throws(
                () => new TokenClient({ clientId: "x", clientSecret: "y", authUrl: "http://127.0.0.1:1/t", env: {} }),
                (error: unknown) => error instanceof AuthError && /PLATFORM_CONSOLE_OAUTH_AUDIENCE/.test(error.message),
            );
            assert.throws(() => new TokenClient({ clientId: "x", clientSecret: "y", authUrl: "not a url", audience: "a", env: {} }), AuthError);
        });

        it("never shows its secret when logged or serialized to JSON", () => {
            const tokens = client({ clientSecret: "very-secret-value" });
            assert.ok(!inspect(tokens, { depth: 5 }).includes("very-secret-value"));
            assert.ok(!JSON.stringify(tokens).includes("very-secret-value"));
            assert.ok(!JSON.stringify({ nested: [tokens] }).includes("very-secret-value"));
            assert.ok(existsSync(tempDir()));
        });
    });
});
