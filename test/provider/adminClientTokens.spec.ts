// AdminClient when the token is the problem: credentials the issuer rejects, and a cached token that expired.

import assert from "node:assert/strict";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { unwrapSecrets } from "../engine";
import { AdminStack, CLIENT, platformConfig, succeeded, sleep, useAdminEmulator, useWorkDir } from "./adminClientSupport";

const TYPE = "pulumi-nodejs:dynamic/platform:AdminClient";

describe("AdminClient: token failures and expiry", function () {
    const emulator = useAdminEmulator();
    const workDir = useWorkDir();
    const stack = new AdminStack(emulator, workDir);

    it("a wrong secret costs one token request for 20 resources; each failing resource says which client and issuer", async () => {
        const wrongSecret = `wr0ng-${CLIENT.clientSecret}`;
        const { config, secrets } = platformConfig(emulator(), wrongSecret);
        const up = await stack.run("up", { config: { ...config, count: "20" }, secrets });
        assert.equal(up.result.exitCode, 1, up.result.stdout);
        assert.deepEqual(
            up.tokenRequests.map((entry) => entry.status),
            [401],
        );
        assert.deepEqual(up.memberRequests, []);
        // The engine stops starting steps after the first failure; every create that ran failed clearly.
        const failures = up.result.errors.filter((error) => error.startsWith(`${TYPE} `));
        assert.ok(failures.length >= 1, up.result.stdout);
        for (const failure of failures) {
            assert.ok(failure.includes(`client '${CLIENT.clientId}'`), failure);
            assert.ok(failure.includes(`The token issuer ${emulator().authUrl} rejected the credentials`), failure);
        }
        assert.ok(!Object.values(up.result.state.resources).some((resource) => resource.type === TYPE), "a failed AdminClient is in the state");
        stack.assertNoLeaks(up, [wrongSecret, CLIENT.clientSecret]);
    });

    it("a second stack with the same client id and a wrong secret, sharing the token cache, fails after one token request; the right secret still reuses its token", async () => {
        const right = platformConfig(emulator());
        const first = await stack.run("up", { config: { ...right.config, count: "1" }, secrets: right.secrets });
        succeeded(first);
        assert.deepEqual(
            first.tokenRequests.map((entry) => entry.status),
            [200],
        );

        const wrongSecret = `wr0ng-${CLIENT.clientSecret}`;
        const other = new AdminStack(emulator, workDir, "other-state.json");
        const wrong = platformConfig(emulator(), wrongSecret);
        const refused = await other.run("up", { config: { ...wrong.config, count: "1" }, secrets: wrong.secrets });
        assert.equal(refused.result.exitCode, 1, refused.result.stdout);
        assert.deepEqual(
            refused.tokenRequests.map((entry) => entry.status),
            [401],
        );
        assert.deepEqual(refused.memberRequests, [], "the wrong secret was served the cached token");
        assert.ok(
            refused.result.errors.some((error) => error.includes("rejected the credentials")),
            refused.result.stdout,
        );

        const again = await stack.run("up", { config: { ...right.config, count: "2" }, secrets: right.secrets });
        succeeded(again);
        assert.deepEqual(again.tokenRequests, [], "the right secret did not reuse its cached token");
        assert.equal(again.memberRequests.length, 1);
        stack.assertNoLeaks(again, [CLIENT.clientSecret, wrongSecret]);
        other.assertNoLeaks(refused, [CLIENT.clientSecret, wrongSecret]);
    });

    it("once the cached token has expired, the next run asks for exactly one new token for all its resources", async () => {
        emulator().control.updateSettings({ tokenLifetimeSeconds: 2 });
        const { config, secrets } = platformConfig(emulator());
        const first = await stack.run("up", { config: { ...config, count: "1" }, secrets });
        succeeded(first);
        assert.equal(first.tokenRequests.length, 1);
        const expiredToken = stack.cachedTokens()[0];
        stack.assertNoLeaks(first);

        // Long-lived tokens again, so that only the expiry of the cached one is under test.
        emulator().control.updateSettings({ tokenLifetimeSeconds: 300 });
        const expiresAt = stack.cachedTokenExpiry();
        await sleep(Math.max(0, expiresAt - Date.now()) + 100);

        const second = await stack.run("up", { config: { ...config, count: "20" }, secrets });
        succeeded(second);
        assert.deepEqual(
            second.tokenRequests.map((entry) => entry.status),
            [200],
        );
        assert.equal(second.memberRequests.length, 19);
        assert.ok(
            second.memberRequests.every((entry) => entry.status === 200),
            "a member listing used the expired token",
        );
        const renewed = stack.cachedTokens();
        assert.equal(renewed.length, 1);
        assert.notEqual(renewed[0], expiredToken);
        const created = second.result.state.resources[`urn:pulumi:test::admin-clients::${TYPE}::admin-19`];
        assert.ok(Date.parse(String(unwrapSecrets(created.outputs.tokenExpiresAt))) > Date.now() + 60_000, "admin-19 did not use the new token");
        stack.assertNoLeaks(second, [CLIENT.clientSecret, expiredToken]);
    });

    it("tokenExpiresAt is the expiry the token client goes by, not the token's own exp claim", async () => {
        const { config, secrets } = platformConfig(emulator());
        const first = await stack.run("up", { config: { ...config, count: "1" }, secrets });
        succeeded(first);
        // As if the issuer had answered with an expires_in two minutes shorter than the token's exp: the
        // client renews by its own expiry, so that is the one to report.
        const [file] = readdirSync(stack.tokenCacheDir).filter((name) => name.endsWith(".json"));
        const path = join(stack.tokenCacheDir, file);
        const entry = JSON.parse(readFileSync(path, "utf8")) as { expiresAt: number; renewAt: number };
        const expiresAt = entry.expiresAt - 120_000;
        writeFileSync(path, JSON.stringify({ ...entry, expiresAt, renewAt: expiresAt - 30_000 }), { mode: 0o600 });

        const second = await stack.run("up", { config: { ...config, count: "2" }, secrets });
        succeeded(second);
        assert.deepEqual(second.tokenRequests, []);
        const created = second.result.state.resources[`urn:pulumi:test::admin-clients::${TYPE}::admin-1`];
        assert.equal(unwrapSecrets(created.outputs.tokenExpiresAt), new Date(expiresAt).toISOString());
        stack.assertNoLeaks(second);
    });
});
