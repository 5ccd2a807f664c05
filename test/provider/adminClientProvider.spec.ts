// The AdminClient provider itself: serialized as dynamic.Resource serializes it and loaded back, then
// driven call by call through the real dynamic-provider host, as the engine drives it.

import assert from "node:assert/strict";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { DynamicHost, HostCallError, UNKNOWN } from "../engine";
import type { PropertyMap } from "../engine";
import { adminClientShim } from "../../provider/adminClient/resource";
import { CLIENT, JWT, PROGRAMS, ROTATED_SECRET, sleep, useAdminEmulator, useWorkDir } from "./adminClientSupport";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const requireFromString = require("require-from-string") as (code: string) => { handler: () => pulumi.dynamic.ResourceProvider };

const URN = "urn:pulumi:test::admin-clients::pulumi-nodejs:dynamic/platform:AdminClient::";

async function serializedProvider(): Promise<string> {
    return (await pulumi.runtime.serializeFunction(() => adminClientShim, { allowSecrets: true })).text;
}

describe("AdminClient provider: serialized and loaded back", function () {
    it("serializes without capturing anything secret, and the loaded copy checks settings without a request", async () => {
        const serialized = await pulumi.runtime.serializeFunction(() => adminClientShim, { allowSecrets: true });
        assert.equal(serialized.containsSecrets, false);
        const provider = requireFromString(serialized.text).handler();
        await provider.configure!({
            config: {
                get: (key: string) => ({ "platform:clientId": "from-config", "platform:clientSecret": "config-secret" })[key],
                require: () => {
                    throw new Error("not used");
                },
            },
        });

        const valid = await provider.check!({}, { resourceName: "a", oauthUrl: "https://login.example/oauth/token", baseUrl: "https://admin.example/api" });
        assert.deepEqual(valid, {
            inputs: {
                clientId: "from-config",
                oauthUrl: "https://login.example/oauth/token",
                audience: "admin.example",
                baseUrl: "https://admin.example/api",
                resourceName: "a",
            },
        });
        const invalid = await provider.check!({}, { resourceName: "a", clientId: 7, oauthUrl: "login.example", baseUrl: UNKNOWN, clientSecret: "" });
        // Failures of the resource, each led by its field: Pulumi's engine would print a named property's value.
        assert.deepEqual(invalid.failures, [
            { property: "", reason: "clientId must be a string" },
            { property: "", reason: "oauthUrl must be an absolute http(s) URL, such as https://host/path" },
            { property: "", reason: "clientSecret must not be empty" },
        ]);
    });
});

describe("AdminClient provider through the dynamic-provider host", function () {
    const emulator = useAdminEmulator({ resetEach: false });
    const workDir = useWorkDir({ perTest: false });
    const logs: string[] = [];
    let host: DynamicHost;
    let provider: string;

    before(async () => {
        provider = await serializedProvider();
        host = await DynamicHost.start({
            cwd: join(PROGRAMS, "admin-clients"),
            project: "admin-clients",
            // No secret anywhere but in the inputs.
            env: {
                PLATFORM_TOKEN_CACHE_DIR: join(workDir(), "tokens"),
                PLATFORM_CONSOLE_CLIENT_ID: undefined,
                PLATFORM_CONSOLE_CLIENT_SECRET: undefined,
                PLATFORM_OAUTH_URL: undefined,
                PLATFORM_CONSOLE_OAUTH_AUDIENCE: undefined,
                PLATFORM_CONSOLE_BASE_URL: undefined,
            },
            onLog: (_stream, line) => logs.push(line),
        });
        await host.configure({
            "platform:clientId": CLIENT.clientId,
            "platform:oauthUrl": emulator().authUrl,
            "platform:baseUrl": emulator().baseUrl,
        });
    });
    after(async () => {
        await host?.stop();
    });

    const inputs = (name: string, values: PropertyMap = {}): PropertyMap => ({ resourceName: name, ...values, __provider: provider });
    const requests = (iface: "auth" | "admin") =>
        emulator()
            .control.requests()
            .filter((entry) => entry.interface === iface);
    /** Host lines arrive through a pipe, independently of the call's answer. */
    const logged = async (predicate: (line: string) => boolean): Promise<boolean> => {
        for (let i = 0; i < 100 && !logs.some(predicate); i++) await sleep(10);
        return logs.some(predicate);
    };
    const failure = (promise: Promise<unknown>): Promise<HostCallError> =>
        promise.then(
            () => assert.fail("expected the call to fail"),
            (error: unknown) => {
                assert.ok(error instanceof HostCallError, String(error));
                return error;
            },
        );

    it("20 creates with a rejected secret send one token request, and each fails naming the client and the issuer", async () => {
        const wrongSecret = `wr0ng-${CLIENT.clientSecret}`;
        const checked = await Promise.all(
            Array.from({ length: 20 }, (_, i) => host.check(`${URN}bad-${i}`, {}, inputs(`bad-${i}`, { clientSecret: wrongSecret }))),
        );
        assert.ok(checked.every((result) => result.failures.length === 0));
        const errors = await Promise.all(checked.map((result, i) => failure(host.create(`${URN}bad-${i}`, result.inputs))));
        assert.deepEqual(
            requests("auth").map((entry) => entry.status),
            [401],
        );
        for (const error of errors) {
            assert.match(error.message, new RegExp(`token issuer ${emulator().authUrl} rejected the credentials of client '${CLIENT.clientId}'`));
            assert.ok(!error.message.includes(wrongSecret), "the secret is in an error");
        }
    });

    let created: { id: string; properties: PropertyMap };

    it("create with a secret input lists the members; the outputs keep that secret for refresh, and hold no token", async () => {
        emulator().control.clearRequests();
        const { inputs: checked } = await host.check(`${URN}good`, {}, inputs("good", { clientSecret: CLIENT.clientSecret }));
        assert.equal(checked.clientSecret, CLIENT.clientSecret, "the secret input is dropped from the checked inputs");
        created = await host.create(`${URN}good`, checked);
        assert.equal(created.properties.memberCount, 3);
        assert.deepEqual(Object.keys(created.properties).sort(), [
            "__provider",
            "audience",
            "baseUrl",
            "clientId",
            "clientSecret",
            "memberCount",
            "members",
            "oauthUrl",
            "resourceName",
            "tokenExpiresAt",
        ]);
        // The engine stores it encrypted: the input of the same name is secret (and additionalSecretOutputs names it).
        assert.equal(created.properties.clientSecret, CLIENT.clientSecret);
        const { __provider, clientSecret: _clientSecret, ...outputs } = created.properties;
        assert.ok(!JSON.stringify(outputs).includes(CLIENT.clientSecret) && !JWT.test(JSON.stringify(outputs)));
        assert.equal(requests("auth").length, 1);
        assert.ok(await logged((line) => line === 'AdminClient "good": 3 members'), logs.join("\n"));
    });

    it("diff compares the secret input with the one kept in the outputs, offline", async () => {
        emulator().control.clearRequests();
        const olds = inputs("good", { ...created.properties });
        const diff = async (outputs: PropertyMap, news: PropertyMap) => {
            const checked = await host.check(`${URN}good`, olds, inputs("good", news));
            assert.deepEqual(checked.failures, []);
            return (await host.diff(`${URN}good`, created.id, outputs, checked.inputs, olds)).changes;
        };
        assert.equal(await diff(created.properties, { clientSecret: CLIENT.clientSecret }), "none");
        assert.equal(await diff(created.properties, { clientSecret: ROTATED_SECRET }), "some");
        assert.equal(await diff(created.properties, { clientSecret: UNKNOWN }), "some");
        // An input secret the outputs do not hold yet (state written before they kept it) is brought in by an update.
        const { clientSecret: _kept, ...withoutSecret } = created.properties;
        assert.equal(await diff(withoutSecret, { clientSecret: CLIENT.clientSecret }), "some");
        assert.equal(await diff(created.properties, { clientSecret: CLIENT.clientSecret, baseUrl: `${emulator().baseUrl}/v2` }), "some");
        assert.equal(await diff(created.properties, { clientSecret: CLIENT.clientSecret, oauthUrl: UNKNOWN }), "some");
        assert.deepEqual(emulator().control.requests(), []);
    });

    it("refresh lists the members with the secret kept in the outputs, and keeps it there", async () => {
        emulator().control.clearRequests();
        const read = await host.read(`${URN}good`, created.id, created.properties);
        assert.equal(read.id, created.id);
        assert.equal(read.properties.memberCount, 3);
        assert.equal(read.properties.clientSecret, CLIENT.clientSecret);
        assert.deepEqual(
            requests("admin").map((entry) => entry.status),
            [200],
        );
        assert.deepEqual(requests("auth"), [], "the token of this secret is in memory");
    });

    it("refresh without a secret in the outputs or the config fails saying what to set, without a request", async () => {
        emulator().control.clearRequests();
        const { clientSecret: _kept, ...withoutSecret } = created.properties;
        const error = await failure(host.read(`${URN}good`, created.id, withoutSecret));
        assert.match(
            error.message,
            /No client secret: set the clientSecret input, stack config platform:clientSecret or environment variable PLATFORM_CONSOLE_CLIENT_SECRET/,
        );
        assert.deepEqual(emulator().control.requests(), []);
    });

    it("an update to a wrong secret asks the issuer, which refuses it: the token of the old secret does not hide it", async () => {
        emulator().control.clearRequests();
        const wrongSecret = `wr0ng-${ROTATED_SECRET}`;
        const olds = inputs("good", { ...created.properties });
        const { inputs: checked } = await host.check(`${URN}good`, olds, inputs("good", { clientSecret: wrongSecret }));
        const error = await failure(host.update(`${URN}good`, created.id, created.properties, checked, olds));
        assert.match(error.message, /rejected the credentials of client 'admin-test-client'/);
        assert.ok(!error.message.includes(wrongSecret));
        assert.deepEqual(
            requests("auth").map((entry) => entry.status),
            [401],
        );
        assert.deepEqual(requests("admin"), []);
    });

    it("an update to a rotated secret proves it with one token request, and keeps the new secret in the outputs", async () => {
        emulator().control.clearRequests();
        const olds = inputs("good", { ...created.properties });
        const { inputs: checked } = await host.check(`${URN}good`, olds, inputs("good", { clientSecret: ROTATED_SECRET }));
        const updated = await host.update(`${URN}good`, created.id, created.properties, checked, olds);
        assert.equal(updated.properties.clientSecret, ROTATED_SECRET);
        assert.equal(updated.properties.memberCount, 3);
        assert.deepEqual(
            requests("auth").map((entry) => entry.status),
            [200],
        );
        created = { id: created.id, properties: updated.properties };
    });

    it("delete sends nothing and says so", async () => {
        emulator().control.clearRequests();
        await host.delete(`${URN}good`, created.id, created.properties, {});
        assert.deepEqual(emulator().control.requests(), []);
        assert.ok(await logged((line) => line.startsWith('AdminClient "good": nothing to delete remotely')), logs.join("\n"));
        assert.ok(!logs.some((line) => line.includes(CLIENT.clientSecret) || JWT.test(line)));
    });
});
