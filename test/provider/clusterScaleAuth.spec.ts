// ClusterScale with credentials for the management API: a client-credentials grant (token from the issuer, shared
// cache) or fixed headers. Neither ever shows in output lines, outputs or the state file.
import * as assert from "assert";
import { DEMO_CLIENT } from "../emulator";
import { ClusterScaleFixture, ScaleRun, mutating, succeeded } from "./clusterScaleSupport";

describe("ClusterScale: credentials for the management API", function () {
    this.timeout(120_000);
    const fixture = new ClusterScaleFixture();

    before(() => fixture.start());
    after(() => fixture.stop());

    function leaksNothing(run: ScaleRun, secret: string): void {
        assert.ok(!run.result.stdout.includes(secret) && !run.result.stderr.includes(secret), "a credential was printed");
        assert.ok(!fixture.stateText.includes(secret), "a credential is in the state file in plain text");
        assert.strictEqual(run.resource!.outputs.auth, undefined, "auth is among the outputs");
    }

    it("a client-credentials grant gets one token from the issuer and keeps the secret out of everything", async () => {
        fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3, rateLimitBlockSeconds: 0 });
        fixture.emulator.control.startBroker(3);
        const auth = { clientId: DEMO_CLIENT.clientId, clientSecret: DEMO_CLIENT.clientSecret, oauthUrl: fixture.emulator.authUrl, audience: DEMO_CLIENT.audience };
        const run = await fixture.run("up", { brokerCount: 4 }, { secrets: { auth: JSON.stringify(auth) } });
        succeeded(run);
        const tokenRequests = fixture.emulator.control.requests().filter((entry) => entry.interface === "auth");
        assert.deepStrictEqual(tokenRequests.map((entry) => `${entry.method} ${entry.status}`), ["POST 200"], "one token for the whole run");
        assert.deepStrictEqual(mutating(run.requests).length, 1);
        leaksNothing(run, DEMO_CLIENT.clientSecret);
    });

    it("fixed headers are used as given and kept out of everything", async () => {
        fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
        const secret = "header-secret-5f1c9a";
        const run = await fixture.run("up", { brokerCount: 3 }, { secrets: { auth: JSON.stringify({ headers: { "x-api-key": secret } }) } });
        succeeded(run);
        assert.deepStrictEqual(fixture.emulator.control.requests().filter((entry) => entry.interface === "auth"), []);
        leaksNothing(run, secret);
    });
});
