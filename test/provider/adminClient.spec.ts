// AdminClient and getMembers through the engine (each run a process of its own driving the real
// dynamic-provider host) against the emulator, asserting on the emulator's request log.

import assert from "node:assert/strict";
import { isSecret, unwrapSecrets } from "../engine";
import type { PropertyValue } from "../engine";
import { DEFAULT_MEMBERS } from "../emulator/settings";
import { AdminRun, AdminStack, CLIENT, ROTATED_SECRET, linesOf, platformConfig, succeeded, useAdminEmulator, useWorkDir } from "./adminClientSupport";

const TYPE = "pulumi-nodejs:dynamic/platform:AdminClient";
const urn = (name: string) => `urn:pulumi:test::admin-clients::${TYPE}::${name}`;
const names = (count: number) => Array.from({ length: count }, (_, i) => `admin-${i}`);
const adminSteps = (run: AdminRun) =>
    run.result.steps
        .filter((step) => step.type === TYPE)
        .map((step) => `${step.op} ${step.name}`)
        .sort();
const output = (run: AdminRun, name: string): PropertyValue => unwrapSecrets(run.result.outputs[name]);
/** Statuses of the token requests that reached the issuer's checks (a 429 of its rate limit is retried). */
const issued = (run: AdminRun): number[] => run.tokenRequests.map((entry) => entry.status).filter((status) => status !== 429);

const NEW_MEMBER = { name: "Katherine Johnson", email: "katherine@example.com", roles: ["analyst"], invitePending: true };

describe("AdminClient: settings from stack config, one token for every resource and run", function () {
    const emulator = useAdminEmulator({ resetEach: false });
    const workDir = useWorkDir({ perTest: false });
    const stack = new AdminStack(emulator, workDir);
    // The environment names other values: stack config comes first.
    const misleadingEnv = {
        PLATFORM_CONSOLE_CLIENT_ID: "someone-else",
        PLATFORM_CONSOLE_CLIENT_SECRET: "not-the-secret",
        PLATFORM_OAUTH_URL: "http://127.0.0.1:9/nowhere",
        PLATFORM_CONSOLE_BASE_URL: "http://127.0.0.1:9",
    };
    const run = (command: "preview" | "up" | "refresh" | "destroy", count: number) => {
        const { config, secrets } = platformConfig(emulator());
        return stack.run(command, { config: { ...config, count: String(count) }, secrets, env: misleadingEnv });
    };

    it("up with 20 AdminClients asks the issuer for exactly one token, and each lists the members", async () => {
        const up = await run("up", 20);
        succeeded(up);
        assert.equal(up.tokenRequests.length, 1);
        assert.equal(up.tokenRequests[0].status, 200);
        assert.equal(up.memberRequests.length, 20);
        assert.ok(up.memberRequests.every((entry) => entry.status === 200));
        assert.deepEqual(
            adminSteps(up),
            names(20)
                .map((name) => `create ${name}`)
                .sort(),
        );
        assert.deepEqual(output(up, "memberCounts"), Array(20).fill(3));
        assert.deepEqual(output(up, "members"), DEFAULT_MEMBERS);
        assert.deepEqual(output(up, "settings"), {
            clientId: CLIENT.clientId,
            oauthUrl: emulator().authUrl,
            audience: "127.0.0.1",
            baseUrl: emulator().baseUrl,
        });
        const expiresAt = Date.parse(String(output(up, "tokenExpiresAt")));
        assert.ok(expiresAt > Date.now(), `tokenExpiresAt ${output(up, "tokenExpiresAt")} is not in the future`);
        for (const name of names(20)) assert.deepEqual(linesOf(up, name), [`AdminClient "${name}": 3 members`]);
        // A secret from config stays out of the state altogether, inputs included.
        const resource = up.result.state.resources[urn("admin-0")];
        assert.ok(!("clientSecret" in resource.inputs) && !("clientSecret" in resource.outputs));
        assert.equal(stack.cachedTokens().length, 1);
        stack.assertNoLeaks(up);
    });

    it("a second up (a new process) takes the token from the disk cache: no token request", async () => {
        const up = await run("up", 22);
        succeeded(up);
        assert.equal(up.tokenRequests.length, 0);
        assert.equal(up.memberRequests.length, 2);
        // Checks and diffs of the 20 unchanged resources send nothing.
        assert.equal(up.requests.length, 2);
        const created = names(22)
            .slice(20)
            .map((name) => `create ${name}`);
        const same = names(20).map((name) => `same ${name}`);
        assert.deepEqual(adminSteps(up), [...created, ...same].sort());
        stack.assertNoLeaks(up);
    });

    it("refresh lists the members again (in its preview pass, then in the refresh), so membership drift shows in the outputs", async () => {
        emulator().control.updateSettings({ members: [...DEFAULT_MEMBERS, NEW_MEMBER] });
        const refresh = await run("refresh", 22);
        succeeded(refresh);
        assert.equal(refresh.tokenRequests.length, 0);
        // The engine reads every resource in the preview pass too, each pass in a host of its own.
        assert.equal(refresh.memberRequests.length, 2 * 22);
        for (const name of names(22)) {
            const outputs = unwrapSecrets(refresh.result.state.resources[urn(name)].outputs) as Record<string, PropertyValue>;
            assert.equal(outputs.memberCount, 4, name);
            assert.deepEqual(outputs.members, [...DEFAULT_MEMBERS, NEW_MEMBER], name);
        }
        const readLines = ['AdminClient "admin-3": 4 members', 'AdminClient "admin-3": was 3 members before the refresh'];
        assert.deepEqual(linesOf(refresh, "admin-3"), [...readLines, ...readLines]);
        stack.assertNoLeaks(refresh);
    });

    it("destroy deletes nothing remotely, says so for each resource, and sends no request", async () => {
        const destroy = await run("destroy", 22);
        succeeded(destroy);
        assert.deepEqual(destroy.requests, []);
        assert.deepEqual(
            adminSteps(destroy),
            names(22)
                .map((name) => `delete ${name}`)
                .sort(),
        );
        for (const name of names(22)) {
            assert.deepEqual(linesOf(destroy, name), [
                `AdminClient "${name}": nothing to delete remotely (an AdminClient only reads the administration API); removed from the stack`,
            ]);
        }
        assert.deepEqual(Object.keys(destroy.result.state.resources), []);
        stack.assertNoLeaks(destroy);
    });
});

describe("AdminClient: settings as inputs, and changes of them", function () {
    const emulator = useAdminEmulator({ resetEach: false });
    const workDir = useWorkDir({ perTest: false });
    const stack = new AdminStack(emulator, workDir);
    const run = (command: "preview" | "up", changes: { secret?: string; baseUrl?: string } = {}) =>
        stack.run(command, {
            config: {
                count: "2",
                explicit: "true",
                clientId: CLIENT.clientId,
                oauthUrl: emulator().authUrl,
                baseUrl: changes.baseUrl ?? emulator().baseUrl,
            },
            secrets: { clientSecret: changes.secret ?? CLIENT.clientSecret },
        });

    it("up keeps a secret given as an input secret in the state, inputs and outputs (for refresh), and no token", async () => {
        const up = await run("up");
        succeeded(up);
        assert.equal(up.tokenRequests.length, 1);
        assert.deepEqual(output(up, "memberCounts"), [3, 3]);
        const resource = up.result.state.resources[urn("admin-0")];
        assert.ok(isSecret(resource.inputs.clientSecret), "the secret input is not stored as a secret");
        assert.deepEqual(unwrapSecrets(resource.inputs.clientSecret), CLIENT.clientSecret);
        assert.ok(isSecret(resource.outputs.clientSecret), "the secret output is not stored as a secret");
        assert.deepEqual(unwrapSecrets(resource.outputs.clientSecret), CLIENT.clientSecret);
        // The state file as stored holds it encrypted only.
        stack.assertNoLeaks(up);
    });

    it("a changed secret input is an update that proves the new secret with one token request; afterwards nothing changes", async () => {
        const up = await run("up", { secret: ROTATED_SECRET });
        succeeded(up);
        assert.deepEqual(adminSteps(up), ["update admin-0", "update admin-1"]);
        // Not the token of the old secret from the disk cache: one request for both resources.
        assert.deepEqual(issued(up), [200]);
        assert.equal(up.memberRequests.length, 2);
        assert.deepEqual(linesOf(up, "admin-0"), [
            'AdminClient "admin-0": clientSecret changed: the members will be listed again',
            'AdminClient "admin-0": 3 members',
        ]);
        const resource = up.result.state.resources[urn("admin-1")];
        assert.deepEqual(unwrapSecrets(resource.inputs.clientSecret), ROTATED_SECRET);
        assert.ok(isSecret(resource.outputs.clientSecret));
        assert.deepEqual(unwrapSecrets(resource.outputs.clientSecret), ROTATED_SECRET);
        stack.assertNoLeaks(up);

        const preview = await run("preview", { secret: ROTATED_SECRET });
        succeeded(preview);
        assert.deepEqual(adminSteps(preview), ["same admin-0", "same admin-1"]);
        assert.deepEqual(preview.requests, []);
    });

    it("an update to a wrong secret fails at the issuer (the cached token does not hide it) and the state keeps the working one", async () => {
        const wrongSecret = `wr0ng-${ROTATED_SECRET}`;
        const up = await run("up", { secret: wrongSecret });
        assert.equal(up.result.exitCode, 1, up.result.stdout);
        assert.deepEqual(issued(up), [401]);
        assert.deepEqual(up.memberRequests, []);
        const failures = up.result.errors.filter((error) => error.startsWith(`${TYPE} `));
        assert.ok(failures.length >= 1, up.result.stdout);
        for (const failure of failures) assert.ok(failure.includes(`The token issuer ${emulator().authUrl} rejected the credentials`), failure);
        for (const name of ["admin-0", "admin-1"]) {
            const resource = up.result.state.resources[urn(name)];
            assert.deepEqual(unwrapSecrets(resource.outputs.clientSecret), ROTATED_SECRET, name);
        }
        stack.assertNoLeaks(up, [wrongSecret, CLIENT.clientSecret, ROTATED_SECRET]);
    });

    it("a changed base URL is an update, seen in preview without any request", async () => {
        const preview = await run("preview", { secret: ROTATED_SECRET, baseUrl: `${emulator().baseUrl}/` });
        succeeded(preview);
        assert.deepEqual(adminSteps(preview), ["update admin-0", "update admin-1"]);
        assert.deepEqual(linesOf(preview, "admin-1"), ['AdminClient "admin-1": baseUrl changed: the members will be listed again']);
        assert.deepEqual(preview.requests, []);
        stack.assertNoLeaks(preview);
    });

    it("refresh lists the members with the secret input kept in the state, which stays encrypted", async () => {
        emulator().control.updateSettings({ members: [...DEFAULT_MEMBERS, NEW_MEMBER] });
        const refresh = await stack.run("refresh", { config: { count: "2", explicit: "true" } });
        succeeded(refresh);
        // The token the rotated secret obtained is on disk: no token request. Each pass (preview, refresh) lists.
        assert.deepEqual(refresh.tokenRequests, []);
        assert.equal(refresh.memberRequests.length, 2 * 2);
        for (const name of ["admin-0", "admin-1"]) {
            const resource = refresh.result.state.resources[urn(name)];
            assert.equal(unwrapSecrets(resource.outputs.memberCount), 4, name);
            assert.ok(isSecret(resource.outputs.clientSecret), name);
            assert.deepEqual(unwrapSecrets(resource.outputs.clientSecret), ROTATED_SECRET, name);
        }
        stack.assertNoLeaks(refresh);
    });
});

describe("AdminClient and getMembers: fallbacks and validation", function () {
    const emulator = useAdminEmulator();
    const workDir = useWorkDir();
    const stack = new AdminStack(emulator, workDir);

    it("takes every setting from the environment when neither inputs nor config set it (audience: the API's host name)", async () => {
        const up = await stack.run("up", {
            env: {
                PLATFORM_CONSOLE_CLIENT_ID: CLIENT.clientId,
                PLATFORM_CONSOLE_CLIENT_SECRET: CLIENT.clientSecret,
                PLATFORM_OAUTH_URL: emulator().authUrl,
                PLATFORM_CONSOLE_BASE_URL: emulator().baseUrl,
            },
        });
        succeeded(up);
        assert.equal(up.tokenRequests.length, 1);
        assert.deepEqual(output(up, "memberCounts"), [3]);
        assert.deepEqual(output(up, "settings"), {
            clientId: CLIENT.clientId,
            oauthUrl: emulator().authUrl,
            audience: "127.0.0.1",
            baseUrl: emulator().baseUrl,
        });
        stack.assertNoLeaks(up);
    });

    it("getMembers gives a program the members (stack config fallback), with one token request for the preview and the update", async () => {
        const up = await stack.run("up", { program: "admin-members", ...platformConfig(emulator()) });
        succeeded(up);
        assert.deepEqual(output(up, "members"), DEFAULT_MEMBERS);
        assert.deepEqual(
            output(up, "emails"),
            DEFAULT_MEMBERS.map((member) => member.email),
        );
        assert.equal(up.tokenRequests.length, 1);
        // The program runs in the preview pass and again in the update: each lists the members.
        assert.equal(up.memberRequests.length, 2);
        stack.assertNoLeaks(up);
    });

    it("getMembersOutput takes the secret as a secret Output (config.requireSecret) and keeps the result secret", async () => {
        const up = await stack.run("up", {
            program: "admin-members-output",
            config: { clientId: CLIENT.clientId, oauthUrl: emulator().authUrl, baseUrl: emulator().baseUrl },
            secrets: { clientSecret: CLIENT.clientSecret },
        });
        succeeded(up);
        assert.ok(isSecret(up.result.outputs.emails), "a result derived from the secret is not secret");
        assert.deepEqual(
            output(up, "emails"),
            DEFAULT_MEMBERS.map((member) => member.email),
        );
        assert.equal(up.tokenRequests.length, 1);
        stack.assertNoLeaks(up);
    });

    it("getMembers without settings fails the program with what to set, sending nothing", async () => {
        const up = await stack.run("up", { program: "admin-members" });
        assert.equal(up.result.exitCode, 1);
        const text = up.result.errors.join("\n");
        assert.match(text, /clientId is required: set the clientId input, stack config platform:clientId or environment variable PLATFORM_CONSOLE_CLIENT_ID/);
        assert.match(text, /clientSecret is required/);
        assert.deepEqual(up.requests, []);
    });

    it("check rejects invalid settings, naming each field and its rule, without any request", async () => {
        const preview = await stack.run("preview", {
            config: { "platform:clientId": "  ", "platform:oauthUrl": "ftp://127.0.0.1/token" },
            env: { PLATFORM_CONSOLE_BASE_URL: "http://user:pw@127.0.0.1:9/api" },
        });
        assert.equal(preview.result.exitCode, 1);
        const text = preview.result.errors.join("\n");
        assert.match(text, /has a problem: clientId must not be empty/);
        assert.match(text, /has a problem: oauthUrl must be an http or https URL, not ftp:/);
        assert.match(text, /has a problem: baseUrl must not contain a user name or password/);
        assert.match(
            text,
            /resource '[^']+' has a problem: clientSecret is required: set the clientSecret input, stack config platform:clientSecret or environment variable PLATFORM_CONSOLE_CLIENT_SECRET/,
        );
        assert.ok(!text.includes("pw@"), "the URL's password was shown");
        assert.deepEqual(preview.requests, []);
    });
});
