// getTokenInfo: the token with the expiry the client itself goes by, whatever the token's format.

import assert from "node:assert/strict";
import { Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { TokenClient, TokenClientOptions, clearTokenCache, jwtExpiry } from "../../sdk/auth/tokenClient";
import { DEMO, requestsTo, useEmulator, useTempDir } from "./support";

describe("sdk token client: getTokenInfo", () => {
    const emulator = useEmulator({ tokenLifetimeSeconds: 120 });
    const tempDir = useTempDir();
    const client = (options: TokenClientOptions = {}): TokenClient =>
        new TokenClient({ ...DEMO, authUrl: emulator().authUrl, cacheDir: tempDir(), env: {}, ...options });

    it("gives the token and its expiry (expires_in from the request), the same from the issuer, memory and disk", async () => {
        const before = Date.now();
        const fromIssuer = await client().getTokenInfo();
        const after = Date.now();
        // The JWT's exp is whole seconds, so it may end up to a second before requestedAt + expires_in.
        assert.ok(fromIssuer.expiresAt.getTime() >= before + 119_000 && fromIssuer.expiresAt.getTime() <= after + 120_000, fromIssuer.expiresAt.toISOString());
        assert.equal(await client().getToken(), fromIssuer.token);
        assert.deepEqual(await client().getTokenInfo(), fromIssuer, "from memory");
        clearTokenCache(); // a new process
        assert.deepEqual(await client().getTokenInfo(), fromIssuer, "from disk");
        assert.equal(requestsTo(emulator(), "auth", "POST").length, 1);
    });

    describe("an issuer whose tokens are not JWTs", () => {
        let issuer: Server;
        let tokenUrl: string;
        let issued = 0;

        // The emulator only issues JWTs: this loopback endpoint answers the grant with an opaque token.
        before(async () => {
            issuer = createServer((req, res) => {
                req.resume();
                req.on("end", () => {
                    issued++;
                    res.writeHead(200, { "content-type": "application/json" });
                    res.end(JSON.stringify({ access_token: `opaque-${issued}`, token_type: "Bearer", expires_in: 90 }));
                });
            });
            await new Promise<void>((resolve) => issuer.listen(0, "127.0.0.1", resolve));
            tokenUrl = `http://127.0.0.1:${(issuer.address() as AddressInfo).port}/oauth/token`;
        });
        after(async () => {
            await new Promise<void>((resolve) => issuer.close(() => resolve()));
        });

        it("still gives the expiry, from expires_in", async () => {
            const before = Date.now();
            const info = await client({ authUrl: tokenUrl, diskCache: false }).getTokenInfo();
            const after = Date.now();
            assert.equal(info.token, "opaque-1");
            assert.equal(jwtExpiry(info.token), undefined);
            assert.ok(info.expiresAt.getTime() >= before + 90_000 && info.expiresAt.getTime() <= after + 90_000, info.expiresAt.toISOString());
            assert.equal(issued, 1);
        });
    });
});
