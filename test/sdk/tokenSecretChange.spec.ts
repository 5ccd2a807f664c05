// The token cache and a client secret that changes (a rotation, or a wrong new secret): a token is only
// served to the secret that obtained it, from memory and from disk alike.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AuthError } from "../../sdk/errors";
import { TokenClient, TokenClientOptions, clearTokenCache } from "../../sdk/auth/tokenClient";
import { DEMO, rejection, requestsTo, tokenFiles, useEmulator, useTempDir } from "./support";

const ROTATED = "demo-secret-rotated";
const WRONG = "demo-secret-wrong";

describe("sdk token client: a different secret for the same client", () => {
    // The issuer accepts both the old and the rotated secret, as during a rotation.
    const emulator = useEmulator({ clients: [DEMO, { ...DEMO, clientSecret: ROTATED }] });
    const tempDir = useTempDir();

    const client = (clientSecret: string, options: TokenClientOptions = {}): TokenClient =>
        new TokenClient({ ...DEMO, clientSecret, authUrl: emulator().authUrl, cacheDir: tempDir(), env: {}, ...options });
    const statuses = (): number[] => requestsTo(emulator(), "auth", "POST").map((entry) => entry.status);

    it("a wrong secret is not served the token another secret obtained in this process: the issuer refuses it", async () => {
        const token = await client(DEMO.clientSecret).getToken();
        const error = await rejection(client(WRONG).getToken());
        assert.ok(error instanceof AuthError, String(error));
        assert.equal(error.status, 401);
        assert.equal(await client(DEMO.clientSecret).getToken(), token, "the right secret keeps its token");
        assert.deepEqual(statuses(), [200, 401]);
    });

    it("each secret of a rotation gets one token for all its concurrent callers, and neither evicts the other", async () => {
        const callers = Array.from({ length: 20 }, (_, i) => client(i % 2 === 0 ? DEMO.clientSecret : ROTATED).getToken());
        const tokens = await Promise.all(callers);
        const [old, rotated] = [tokens.filter((_, i) => i % 2 === 0), tokens.filter((_, i) => i % 2 === 1)];
        assert.equal(new Set(old).size, 1);
        assert.equal(new Set(rotated).size, 1);
        assert.notEqual(old[0], rotated[0]);
        assert.equal(await client(DEMO.clientSecret).getToken(), old[0]);
        assert.equal(await client(ROTATED).getToken(), rotated[0]);
        assert.deepEqual(statuses(), [200, 200]);
    });

    it("within a process, a token taken from disk by one secret is not handed to another", async () => {
        const token = await client(DEMO.clientSecret).getToken();
        clearTokenCache(); // a new process
        assert.equal(await client(DEMO.clientSecret).getToken(), token, "served from disk");
        const error = await rejection(client(WRONG).getToken());
        assert.ok(error instanceof AuthError && error.status === 401, String(error));
        assert.deepEqual(statuses(), [200, 401]);
    });

    it("a new process serves the disk token to the secret that obtained it only; a wrong secret costs one refused request", async () => {
        const token = await client(DEMO.clientSecret).getToken();
        clearTokenCache(); // a new process
        const error = await rejection(client(WRONG).getToken());
        assert.ok(error instanceof AuthError && error.status === 401, String(error));
        clearTokenCache();
        assert.equal(await client(DEMO.clientSecret).getToken(), token, "the right secret is served from disk");
        assert.deepEqual(statuses(), [200, 401]);

        clearTokenCache();
        const verified = await client(ROTATED).getToken({ verifySecret: true });
        assert.notEqual(verified, token, "a verified token comes from the issuer");
        // Proven in this process: later calls, verifying or not, share it.
        assert.equal(await client(ROTATED).getToken({ verifySecret: true }), verified);
        assert.equal(await client(ROTATED).getToken(), verified);
        // verifySecret never takes a disk token, even the secret's own.
        clearTokenCache();
        assert.notEqual(await client(DEMO.clientSecret).getToken({ verifySecret: true }), token);
        assert.deepEqual(statuses(), [200, 401, 200, 200]);

        // One file per secret: the token and its times under a key derived from the credentials, never the secret.
        const files = tokenFiles(tempDir());
        assert.equal(files.length, 2);
        for (const file of files) {
            const text = readFileSync(join(tempDir(), file), "utf8");
            for (const secret of [DEMO.clientSecret, ROTATED, WRONG]) assert.ok(!text.includes(secret) && !file.includes(secret));
            const entry = JSON.parse(text) as Record<string, unknown>;
            assert.deepEqual(Object.keys(entry).sort(), ["accessToken", "expiresAt", "format", "key", "renewAt"]);
            assert.match(String(entry.key), /^[0-9a-f]{64}$/);
        }
    });
});
