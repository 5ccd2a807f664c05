// The administration API client against the emulator.

import assert from "node:assert/strict";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inspect } from "node:util";
import { AdminApiClient } from "../../sdk/adminApiClient";
import { AuthError } from "../../sdk/errors";
import { clearTokenCache } from "../../sdk/auth/tokenClient";
import { DEMO, rejection, requestsTo, useEmulator, useTempDir } from "./support";

describe("sdk admin client", () => {
    const emulator = useEmulator();
    const tempDir = useTempDir();

    function admin(): AdminApiClient {
        return new AdminApiClient({ baseUrl: emulator().baseUrl, token: { ...DEMO, authUrl: emulator().authUrl, cacheDir: tempDir(), env: {} } });
    }

    it("lists the organization's members with one token for many calls", async () => {
        const members = [
            { name: "Margaret Hamilton", email: "margaret@example.com", roles: ["owner", "admin"], invitePending: false },
            { name: "Katherine Johnson", email: "katherine@example.com", roles: [], invitePending: true },
        ];
        emulator().control.updateSettings({ members });
        const client = admin();
        assert.deepEqual(await client.listMembers(), members);
        await Promise.all([client.listMembers(), admin().listMembers()]);
        assert.equal(requestsTo(emulator(), "admin", "GET").length, 3);
        assert.equal(requestsTo(emulator(), "auth").length, 1);
    });

    it("takes credentials from the environment and the audience from the base URL", async () => {
        const client = new AdminApiClient({
            baseUrl: emulator().baseUrl,
            token: {
                diskCache: false,
                env: {
                    PLATFORM_CONSOLE_CLIENT_ID: DEMO.clientId,
                    PLATFORM_CONSOLE_CLIENT_SECRET: DEMO.clientSecret,
                    PLATFORM_OAUTH_URL: emulator().authUrl,
                },
            },
        });
        assert.equal((await client.listMembers()).length, 3);
    });

    it("replaces a cached token the API refuses and asks once more", async () => {
        await admin().listMembers();
        // The cached token goes bad (as when the issuer's keys rotate): corrupt it on disk, then start over.
        const file = join(tempDir(), readdirSync(tempDir())[0]);
        const entry = JSON.parse(readFileSync(file, "utf8")) as { accessToken: string };
        writeFileSync(file, JSON.stringify({ ...entry, accessToken: `${entry.accessToken.slice(0, -4)}AAAA` }), { mode: 0o600 });
        clearTokenCache();

        assert.equal((await admin().listMembers()).length, 3);
        assert.deepEqual(
            requestsTo(emulator(), "admin").map((entry) => entry.status),
            [200, 401, 200],
        );
        assert.equal(requestsTo(emulator(), "auth").length, 2);
    });

    it("a token the API keeps refusing ends in an AuthError with the server's reason and without the token", async () => {
        const token = "not-a-valid-token-0123456789";
        let invalidated = 0;
        const client = new AdminApiClient({
            baseUrl: emulator().baseUrl,
            tokenProvider: { getToken: async () => token, invalidate: () => void invalidated++ },
        });
        const error = await rejection(client.listMembers());
        assert.ok(error instanceof AuthError);
        assert.equal(error.status, 401);
        assert.equal(error.serverMessage, "Unauthorized: malformed token");
        assert.deepEqual(error.request, { method: "GET", path: "/members" });
        assert.equal(invalidated, 1);
        assert.equal(requestsTo(emulator(), "admin").length, 2);
        for (const text of [error.message, JSON.stringify(error), inspect(error, { depth: 5 })]) assert.ok(!text.includes(token), text);
    });

    it("retries the GET through a 502", async () => {
        emulator().control.addFault({ interface: "admin", count: 1, status: 502 });
        assert.equal((await admin().listMembers({ retry: { baseDelayMs: 5 } })).length, 3);
        assert.deepEqual(
            requestsTo(emulator(), "admin").map((entry) => entry.status),
            [502, 200],
        );
    });
});
