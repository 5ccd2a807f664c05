// ClusterScale with credentials for the management API: a client-credentials grant (token from the issuer, shared
// cache) or fixed headers. A credential given as the `auth` input is also kept as the `auth` output, encrypted in
// the state (refresh and destroy get only the old outputs); it never shows in output lines or in plain text.
import * as assert from "assert";
import { waitForChange } from "../../sdk/cluster/changeWaiter";
import { DEMO_CLIENT } from "../emulator";
import { isSecret } from "../engine";
import { AuthGate } from "./clusterScaleAuthGate";
import { ClusterScaleFixture, ScaleRun, failed, mutating, output, succeeded } from "./clusterScaleSupport";

describe("ClusterScale: credentials for the management API", function () {
    this.timeout(120_000);
    const fixture = new ClusterScaleFixture("in-process");

    before(() => fixture.start());
    after(() => fixture.stop());

    function leaksNothing(run: ScaleRun, secret: string): void {
        assert.ok(!run.result.stdout.includes(secret) && !run.result.stderr.includes(secret), "a credential was printed");
        assert.ok(!fixture.stateText.includes(secret), "a credential is in the state file in plain text");
        if (run.resource !== undefined) {
            const stored = run.resource.outputs.auth;
            assert.ok(stored === undefined || isSecret(stored), "the auth output is not marked secret");
        }
    }

    it("a client-credentials grant gets one token from the issuer and keeps the secret out of everything", async () => {
        fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3, rateLimitBlockSeconds: 0 });
        fixture.emulator.control.startBroker(3);
        const auth = {
            clientId: DEMO_CLIENT.clientId,
            clientSecret: DEMO_CLIENT.clientSecret,
            oauthUrl: fixture.emulator.authUrl,
            audience: DEMO_CLIENT.audience,
        };
        const run = await fixture.run("up", { brokerCount: 4 }, { secrets: { auth: JSON.stringify(auth) } });
        succeeded(run);
        const tokenRequests = fixture.emulator.control.requests().filter((entry) => entry.interface === "auth");
        assert.deepStrictEqual(
            tokenRequests.map((entry) => `${entry.method} ${entry.status}`),
            ["POST 200"],
            "one token for the whole run",
        );
        assert.deepStrictEqual(mutating(run.requests).length, 1);
        leaksNothing(run, DEMO_CLIENT.clientSecret);
    });

    it("fixed headers are used as given and kept out of everything", async () => {
        fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
        const secret = "header-secret-5f1c9a";
        const run = await fixture.run("up", { brokerCount: 3 }, { secrets: { auth: JSON.stringify({ headers: { "x-api-key": secret } }) } });
        succeeded(run);
        assert.deepStrictEqual(
            fixture.emulator.control.requests().filter((entry) => entry.interface === "auth"),
            [],
        );
        leaksNothing(run, secret);
    });

    it("a 401 that echoes the token without its Bearer prefix, or a piece of it, shows none of it", async () => {
        fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
        const token = "tok3n-9b4e7f2a61c8d05e";
        const echo = `invalid token ${token}; expected a token other than ${token.slice(3, 15)}`;
        fixture.emulator.control.addFault({ interface: "management", count: 10, status: 401, body: JSON.stringify({ message: echo }) });
        const run = await fixture.run("preview", { brokerCount: 3 }, { secrets: { auth: JSON.stringify({ headers: { Authorization: `Bearer ${token}` } }) } });
        const stderr = failed(run);
        assert.match(stderr, /401/);
        assert.match(stderr, /invalid token \[redacted\]; expected a token other than \[redacted\]/);
        const everything = `${run.result.stdout}\n${run.result.stderr}\n${fixture.stateText}`;
        for (let start = 0; start + 8 <= token.length; start++) {
            const fragment = token.slice(start, start + 8);
            assert.ok(!everything.includes(fragment), `a piece of the token was shown: ${fragment}`);
        }
    });

    it("without auth there is no auth output", async () => {
        fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
        const run = await fixture.run("up", { brokerCount: 3 });
        succeeded(run);
        assert.ok(!("auth" in run.resource!.outputs), "an auth output without an auth input");
    });

    describe("a management API that refuses requests without credentials", function () {
        const apiKey = "gate-key-7d2e41";
        let gate: AuthGate;

        before(async () => {
            gate = new AuthGate(
                fixture.emulator.managementUrl,
                (headers) => headers["x-api-key"] === apiKey || /^Bearer eyJ/.test(headers.authorization ?? ""),
            );
            await gate.start();
        });
        after(() => gate.stop());

        for (const [kind, authOf] of [
            ["fixed headers", () => ({ headers: { "x-api-key": apiKey } })],
            [
                "a client-credentials grant",
                () => ({
                    clientId: DEMO_CLIENT.clientId,
                    clientSecret: DEMO_CLIENT.clientSecret,
                    oauthUrl: fixture.emulator.authUrl,
                    audience: DEMO_CLIENT.audience,
                }),
            ],
        ] as const) {
            it(`with ${kind}: up, then refresh and destroy use the stored credentials`, async () => {
                fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3, rateLimitBlockSeconds: 0 });
                const auth = authOf();
                const secret = "headers" in auth ? apiKey : auth.clientSecret;
                const secrets = { auth: JSON.stringify(auth) };
                const args = { managementUrl: gate.url, brokerCount: 3, replicationFactor: 2 };
                gate.refused = 0;

                const up = await fixture.run("up", args, { secrets });
                succeeded(up);
                assert.ok(isSecret(up.resource!.outputs.auth), "the auth output is kept, as a secret");
                leaksNothing(up, secret);

                // Drift made behind the stack's back: refresh must read it through the gate.
                const drift = await fixture.cluster().scaleBrokers([0, 1, 2], { replicationFactor: 3 });
                await waitForChange({ changeId: drift.changeId, cluster: fixture.cluster() });
                const refresh = await fixture.run("refresh", args, { secrets });
                succeeded(refresh);
                assert.strictEqual(refresh.resource!.outputs.replicationFactor, 3, "refresh did not read the live cluster");
                assert.ok(isSecret(refresh.resource!.outputs.auth), "refresh dropped the auth output or its secretness");
                leaksNothing(refresh, secret);

                const destroy = await fixture.run("destroy", args, { secrets });
                succeeded(destroy);
                assert.strictEqual(destroy.resource, undefined);
                assert.deepStrictEqual(mutating(destroy.requests), []);
                leaksNothing(destroy, secret);
                assert.strictEqual(gate.refused, 0, "a request reached the gate without credentials");
            });
        }

        it("changed credentials are an update (the stored ones serve refresh), without any change to the cluster", async () => {
            fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
            const args = { managementUrl: gate.url, brokerCount: 3 };
            const first = await fixture.run("up", args, { secrets: { auth: JSON.stringify({ headers: { "x-api-key": apiKey, "x-note": "old" } }) } });
            succeeded(first);
            const rotated = { auth: JSON.stringify({ headers: { "x-api-key": apiKey, "x-note": "new" } }) };

            const preview = await fixture.run("preview", args, { secrets: rotated });
            succeeded(preview);
            assert.ok(
                preview.result.steps.some((step) => step.name === "cluster" && step.op === "update"),
                preview.result.stdout,
            );
            assert.ok(
                preview.hostLines.some((line) => line.includes("settings changed (auth)")),
                preview.result.stdout,
            );

            const up = await fixture.run("up", args, { secrets: rotated });
            succeeded(up);
            assert.deepStrictEqual(mutating(up.requests), []);
            const stored = up.resource!.outputs.auth;
            assert.ok(isSecret(stored));
            assert.deepStrictEqual(stored.value, { headers: { "x-api-key": apiKey, "x-note": "new" } });
            assert.strictEqual(output(up, "changeId"), output(first, "changeId"));
        });

        it("a state written before auth was kept: refresh fails with a 401 that says what to do; the next up records the credentials", async () => {
            fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
            const args = { managementUrl: gate.url, brokerCount: 3 };
            const secrets = { auth: JSON.stringify({ headers: { "x-api-key": apiKey } }) };
            succeeded(await fixture.run("up", args, { secrets }));
            fixture.dropOutput("auth");

            const refresh = await fixture.run("refresh", args, { secrets });
            const stderr = failed(refresh);
            assert.match(stderr, /ClusterScale "cluster": refresh: .*401/);
            assert.match(stderr, /the state keeps no credentials for this resource .*run up with auth once, then refresh/);

            const up = await fixture.run("up", args, { secrets });
            succeeded(up);
            assert.deepStrictEqual(mutating(up.requests), []);
            assert.ok(isSecret(up.resource!.outputs.auth));
            succeeded(await fixture.run("refresh", args, { secrets }));
        });
    });
});
