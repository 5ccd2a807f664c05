// The token issuer (client-credentials grant, JWT access tokens) and the administration API it
// protects. The rate limit is switched off here (rateLimitBlockSeconds 0); rateLimit.spec.ts covers it.

import { strict as assert } from "node:assert";
import { startEmulator } from "./index";
import { HttpResult, Json, emulatorApi, http, useEmulator, waitFor } from "./harness";

const FORM = { "content-type": "application/x-www-form-urlencoded" };

function form(fields: Record<string, string>): string {
    return new URLSearchParams(fields).toString();
}

function claimsOf(token: string): { header: Json; payload: Json } {
    const [header, payload] = token
        .split(".")
        .slice(0, 2)
        .map((part) => JSON.parse(Buffer.from(part, "base64url").toString("utf8")));
    return { header, payload };
}

describe("emulator: token issuer and administration API", () => {
    const emulator = useEmulator();
    const { control, reset } = emulatorApi(emulator, { rateLimitBlockSeconds: 0 });
    const demo = { grant_type: "client_credentials", client_id: "demo-client", client_secret: "demo-secret", audience: "127.0.0.1" };

    const requestToken = (fields: Record<string, string>, headers: Record<string, string> = FORM): Promise<HttpResult> =>
        http("POST", emulator().authUrl, { rawBody: form(fields), headers });
    const members = (token?: string): Promise<HttpResult> =>
        http("GET", `${emulator().baseUrl}/members`, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });

    beforeEach(() => reset());

    it("issues a Bearer JWT for the demo client whose claims match the response", async () => {
        const result = await requestToken(demo);
        assert.equal(result.status, 200, result.text);
        assert.deepEqual(Object.keys(result.json).sort(), ["access_token", "expires_in", "not-before-policy", "refresh_expires_in", "token_type"]);
        assert.equal(result.json.token_type, "Bearer");
        assert.equal(result.json.expires_in, 300);
        assert.equal(result.headers.get("cache-control"), "no-store");
        const { header, payload } = claimsOf(result.json.access_token);
        assert.deepEqual(header, { alg: "HS256", typ: "JWT" });
        assert.equal(payload.iss, emulator().authUrl);
        assert.equal(payload.sub, "demo-client");
        assert.equal(payload.aud, "127.0.0.1");
        assert.equal(payload.exp - payload.iat, result.json.expires_in);
        assert.ok(Math.abs(payload.iat - Date.now() / 1000) < 60);

        const list = await members(result.json.access_token);
        assert.equal(list.status, 200);
        assert.ok(Array.isArray(list.json) && list.json.length > 0);
        for (const member of list.json) {
            assert.deepEqual(Object.keys(member).sort(), ["email", "invitePending", "name", "roles"]);
        }
    });

    it("answers 400 for missing fields, another grant or another content type", async () => {
        for (const field of Object.keys(demo)) {
            const fields: Record<string, string> = { ...demo };
            delete fields[field];
            const result = await requestToken(fields);
            assert.equal(result.status, 400, field);
            assert.equal(result.json.error, "invalid_request");
            assert.match(result.json.error_description, new RegExp(field));
        }
        const grant = await requestToken({ ...demo, grant_type: "password" });
        assert.equal(grant.status, 400);
        assert.equal(grant.json.error, "unsupported_grant_type");
        const json = await http("POST", emulator().authUrl, { body: demo });
        assert.equal(json.status, 400);
        assert.equal(json.json.error, "invalid_request");
    });

    it("answers 401 for unknown clients, wrong secrets and foreign audiences, never echoing the secret", async () => {
        const wrongSecret = await requestToken({ ...demo, client_secret: "guess-me-not" });
        assert.equal(wrongSecret.status, 401);
        assert.equal(wrongSecret.json.error, "invalid_client");
        assert.ok(!wrongSecret.text.includes("guess-me-not"));
        const unknown = await requestToken({ ...demo, client_id: "nobody" });
        assert.equal(unknown.status, 401);
        assert.equal(unknown.json.error, "invalid_client");
        const audience = await requestToken({ ...demo, audience: "api.example.com" });
        assert.equal(audience.status, 401);
        assert.equal(audience.json.error, "access_denied");
        assert.ok(!audience.text.includes("demo-secret"));
    });

    it("replaces the clients and the members through PUT /settings without echoing secrets", async () => {
        const settings = await http("PUT", control("/settings"), {
            body: {
                clients: [{ clientId: "ci", clientSecret: "ci-secret-value", audience: "zeebe.local" }],
                members: [{ name: "Eve", email: "eve@example.com", roles: ["admin"], invitePending: true }],
                tokenLifetimeSeconds: 120,
            },
        });
        assert.equal(settings.status, 200);
        assert.ok(!settings.text.includes("ci-secret-value"));
        assert.equal((await requestToken(demo)).status, 401, "the demo client is gone");
        const token = await requestToken({ grant_type: "client_credentials", client_id: "ci", client_secret: "ci-secret-value", audience: "zeebe.local" });
        assert.equal(token.status, 200);
        assert.equal(token.json.expires_in, 120);
        const list = await members(token.json.access_token);
        assert.deepEqual(list.json, [{ name: "Eve", email: "eve@example.com", roles: ["admin"], invitePending: true }]);
        assert.ok(!(await http("GET", control("/state"))).text.includes("ci-secret-value"));
    });

    it("rejects missing, malformed, foreign and expired tokens with a JSON 401", async () => {
        const missing = await members();
        assert.equal(missing.status, 401);
        assert.equal(typeof missing.json.message, "string");
        assert.match(missing.headers.get("www-authenticate") ?? "", /^Bearer/);
        assert.equal((await members("not.a.jwt")).status, 401);

        const other = await startEmulator();
        try {
            const foreign = await http("POST", other.authUrl, { rawBody: form(demo), headers: FORM });
            assert.equal((await members(foreign.json.access_token)).status, 401);
        } finally {
            await other.close();
        }

        await http("PUT", control("/settings"), { body: { tokenLifetimeSeconds: 0 } });
        const expired = await requestToken(demo);
        const rejected = await members(expired.json.access_token);
        assert.equal(rejected.status, 401);
        assert.match(rejected.json.message, /expired/);

        await http("PUT", control("/settings"), { body: { tokenLifetimeSeconds: 1 } });
        const shortLived = await requestToken(demo);
        const { payload } = claimsOf(shortLived.json.access_token);
        // Still valid when asked with time to spare (a busy machine can take the whole second between two lines).
        if (payload.exp - Date.now() / 1000 > 0.5) assert.equal((await members(shortLived.json.access_token)).status, 200);
        await waitFor(async () => ((await members(shortLived.json.access_token)).status === 401 ? true : undefined), "the token to expire", 3000);
    });

    it("answers 404 for unknown admin paths and 405 for other token methods", async () => {
        const token = (await requestToken(demo)).json.access_token;
        assert.equal((await http("GET", `${emulator().baseUrl}/no-such-endpoint`, { headers: { authorization: `Bearer ${token}` } })).status, 404);
        const get = await http("GET", emulator().authUrl);
        assert.equal(get.status, 405);
    });

    it("logs token and admin requests without bodies, secrets or tokens", async () => {
        const token = (await requestToken(demo)).json.access_token;
        await requestToken({ ...demo, client_secret: "wrong-secret-xyz" });
        await members(token);
        const log = await http("GET", control("/requests"));
        assert.equal(log.status, 200);
        for (const secretish of ["demo-secret", "wrong-secret-xyz", token]) assert.ok(!log.text.includes(secretish));
        const auth = log.json.filter((e: { interface: string }) => e.interface === "auth");
        assert.deepEqual(
            auth.map((e: { status: number }) => e.status),
            [200, 401],
        );
        assert.equal(auth[0].body, undefined);
        assert.equal(log.json.find((e: { interface: string }) => e.interface === "admin").path, "/members");
    });
});
