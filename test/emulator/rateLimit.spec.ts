// The token issuer's per-address rate limit: about one request per second, failed requests count
// too, excess blocks the address for rateLimitBlockSeconds with 429 and Retry-After.

import { strict as assert } from "node:assert";
import { HttpResult, emulatorApi, http, useEmulator, waitFor } from "./harness";

describe("emulator: token rate limit", () => {
    const emulator = useEmulator();
    const { control, reset } = emulatorApi(emulator);
    const demo = new URLSearchParams({
        grant_type: "client_credentials",
        client_id: "demo-client",
        client_secret: "demo-secret",
        audience: "127.0.0.1",
    }).toString();
    const token = (body = demo): Promise<HttpResult> =>
        http("POST", emulator().authUrl, { rawBody: body, headers: { "content-type": "application/x-www-form-urlencoded" } });

    it("blocks an address that asks again within a second, then lets it in once the block ends", async () => {
        await reset({ rateLimitBlockSeconds: 1 });
        assert.equal((await token()).status, 200);
        const excess = await token();
        assert.equal(excess.status, 429);
        assert.equal(excess.headers.get("retry-after"), "1");
        // Requests while blocked are refused and do not extend the block.
        const blocked = await token();
        assert.equal(blocked.status, 429);
        assert.ok(Number(blocked.headers.get("retry-after")) >= 1);
        const state = (await http("GET", control("/state"))).json;
        assert.deepEqual(state.rateLimitedAddresses, ["127.0.0.1"]);
        await waitFor(async () => ((await token()).status === 200 ? true : undefined), "the block to end", 4000);
    });

    it("counts failed requests too and reports the configured block in Retry-After", async () => {
        await reset({ rateLimitBlockSeconds: 5 });
        const failed = await token(demo.replace("demo-secret", "wrong"));
        assert.equal(failed.status, 401);
        const next = await token();
        assert.equal(next.status, 429);
        assert.equal(next.headers.get("retry-after"), "5");
        assert.equal(next.json.error, "too_many_requests");
        const log = (await http("GET", control("/requests"))).json;
        assert.deepEqual(
            log.map((e: { status: number }) => e.status),
            [401, 429],
        );
    });

    it("is cleared by POST /reset and disabled with rateLimitBlockSeconds 0", async () => {
        await reset({ rateLimitBlockSeconds: 5 });
        await token();
        assert.equal((await token()).status, 429);
        await reset({ rateLimitBlockSeconds: 0 });
        for (let i = 0; i < 3; i++) assert.equal((await token()).status, 200);
    });
});
