// The token cache and a client secret that changes (a rotation, or a wrong new secret): a token is only
// served to the secret that obtained it, except a token from the disk cache, which cannot tell.

import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { AuthError } from "../../sdk/errors";
import { TokenClient, TokenClientOptions, clearTokenCache } from "../../sdk/tokenClient";
import { DEMO, rejection, requestsTo, useEmulator, useTempDir } from "./support";

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

  it("a new process gets the disk token whatever its secret, unless it asks to verify the secret", async () => {
    const token = await client(DEMO.clientSecret).getToken();
    clearTokenCache();
    // Documented: the disk holds nothing derived from the secret, so it cannot tell a wrong one.
    assert.equal(await client(WRONG).getToken(), token);
    assert.deepEqual(statuses(), [200]);

    clearTokenCache();
    const error = await rejection(client(WRONG).getToken({ verifySecret: true }));
    assert.ok(error instanceof AuthError && error.status === 401, String(error));
    const verified = await client(ROTATED).getToken({ verifySecret: true });
    assert.notEqual(verified, token, "a verified token comes from the issuer, not from disk");
    // Proven in this process: later calls, verifying or not, share it.
    assert.equal(await client(ROTATED).getToken({ verifySecret: true }), verified);
    assert.equal(await client(ROTATED).getToken(), verified);
    assert.deepEqual(statuses(), [200, 401, 200]);

    // The disk file is as before: the token and its times, nothing about the secret.
    const files = readdirSync(tempDir());
    assert.equal(files.length, 1);
    const entry = JSON.parse(readFileSync(join(tempDir(), files[0]), "utf8")) as Record<string, unknown>;
    assert.deepEqual(Object.keys(entry).sort(), ["accessToken", "expiresAt", "format", "key", "renewAt"]);
    assert.equal(entry.accessToken, verified);
  });
});
