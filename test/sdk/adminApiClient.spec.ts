// The administration API client against the emulator.

import assert from "node:assert/strict";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inspect } from "node:util";
import { AdminApiClient } from "../../sdk/adminApiClient";
import { AuthError } from "../../sdk/errors";
import { clearTokenCache } from "../../sdk/auth/tokenClient";
import { forgetSharedList } from "../../sdk/sharedList";
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

    it("members: the upsert and the removal encode the email in the path; a removal of someone not there is absent", async () => {
        const client = admin();
        const email = "ops+on-call#1@example.com";
        await client.upsertMember(email, ["developer"]);
        assert.ok(
            emulator()
                .control.members()
                .some((member) => member.email === email && member.invitePending),
        );
        assert.equal(await client.removeMember(email), "removed");
        assert.equal(await client.removeMember(email), "absent");
        assert.deepEqual(
            requestsTo(emulator(), "admin").map((entry) => `${entry.method} ${entry.path} ${entry.status}`),
            [
                `POST /members/${encodeURIComponent(email)} 204`,
                `DELETE /members/${encodeURIComponent(email)} 204`,
                `DELETE /members/${encodeURIComponent(email)} 404`,
            ],
        );
    });

    it("replay rules: a 429 is retried for any write, after Retry-After and with a notice; a 503 or a reset only for an idempotent one", async () => {
        const notices: string[] = [];
        const onRetry = (notice: { method: string; path: string; status?: number; delayMs: number }) =>
            notices.push(`${notice.method} ${notice.path} ${notice.status ?? "failed"} ${notice.delayMs >= 1000 ? "≥1s" : "<1s"}`);
        emulator().control.addFault({ interface: "admin", method: "POST", count: 1, status: 429, retryAfter: "1" });
        await admin().upsertMember("grace@example.com", ["admin"], { onRetry });
        emulator().control.addFault({ interface: "admin", method: "DELETE", count: 1, reset: true });
        await admin().removeMember("grace@example.com", { onRetry, retry: { baseDelayMs: 5 } });
        assert.deepEqual(notices, ["POST /members/grace%40example.com 429 ≥1s", "DELETE /members/grace%40example.com failed <1s"]);
        assert.deepEqual(
            requestsTo(emulator(), "admin").map((entry) => `${entry.method} ${entry.status}`),
            ["POST 429", "POST 204", "DELETE 0", "DELETE 204"],
        );
    });

    it("a shared list is read once by concurrent callers, kept, and patched by the callers' own writes", async () => {
        forgetSharedList();
        const shared = () =>
            new AdminApiClient({
                baseUrl: emulator().baseUrl,
                shareListsAs: "demo",
                token: { ...DEMO, authUrl: emulator().authUrl, cacheDir: tempDir(), env: {} },
            });
        const lists = await Promise.all(Array.from({ length: 10 }, () => shared().listMembers()));
        assert.ok(lists.every((list) => list.length === 3));
        await shared().upsertMember("katherine@example.com", ["analyst"]);
        await shared().upsertMember("grace@example.com", ["visitor"]);
        await shared().removeMember("alan@example.com");
        const after = await shared().listMembers();
        assert.deepEqual(
            after.map((member) => `${member.email} ${member.roles.join("+")} ${member.invitePending}`),
            ["ada@example.com owner false", "grace@example.com visitor false", "katherine@example.com analyst true"],
        );
        assert.deepEqual(after, emulator().control.members());
        assert.equal(requestsTo(emulator(), "admin", "GET").length, 1);
        // Another identity reads its own list.
        await new AdminApiClient({
            baseUrl: emulator().baseUrl,
            shareListsAs: "other",
            token: { ...DEMO, authUrl: emulator().authUrl, cacheDir: tempDir(), env: {} },
        }).listMembers();
        assert.equal(requestsTo(emulator(), "admin", "GET").length, 2);
        forgetSharedList();
    });

    it("a shared list whose read failed is not kept", async () => {
        forgetSharedList();
        const shared = new AdminApiClient({
            baseUrl: emulator().baseUrl,
            shareListsAs: "demo",
            token: { ...DEMO, authUrl: emulator().authUrl, cacheDir: tempDir(), env: {} },
        });
        emulator().control.addFault({ interface: "admin", count: 1, status: 500 });
        await rejection(shared.listMembers());
        assert.equal((await shared.listMembers()).length, 3);
        forgetSharedList();
    });

    it("a create is sent again after a 429 only: a 503 leaves open whether it was made, so it is not replayed", async () => {
        const body = { name: "orders", channelId: "channel-stable", generationId: "gen-8-8-5", planTypeId: "plan-basic", regionId: "region-bel" };
        emulator().control.addFault({ interface: "admin", method: "POST", pathPrefix: "/clusters", count: 1, status: 429, retryAfter: "0" });
        const id = await admin().createCluster(body);
        assert.ok(id.length > 0);
        emulator().control.addFault({ interface: "admin", method: "POST", pathPrefix: "/clusters", count: 1, status: 503, afterProcessing: true });
        const unclear = await rejection(admin().createCluster(body));
        assert.equal((unclear as { status?: number }).status, 503);
        assert.deepEqual(
            requestsTo(emulator(), "admin", "POST").map((entry) => entry.status),
            [429, 200, 503],
        );
        // The unclear one was made: the list tells.
        assert.equal((await admin().listClusters()).filter((cluster) => cluster.name === "orders").length, 2);
    });

    it("a connector secret's value never shows in an error, even when the server echoes it", async () => {
        const id = await admin().createCluster({
            name: "orders",
            channelId: "channel-stable",
            generationId: "gen-8-8-5",
            planTypeId: "plan-basic",
            regionId: "region-bel",
        });
        const value = "value-the-server-echoes-0123456789";
        emulator().control.addFault({
            interface: "admin",
            method: "POST",
            pathPrefix: `/clusters/${id}/secrets`,
            count: 1,
            status: 400,
            body: JSON.stringify({ message: `bad value ${value}` }),
        });
        const error = await rejection(admin().createConnectorSecret(id, "KEY", value));
        for (const text of [error.message, JSON.stringify(error), inspect(error, { depth: 5 })]) assert.ok(!text.includes(value.slice(0, 12)), text);
    });
});
