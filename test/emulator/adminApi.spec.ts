// The emulated administration API over HTTP, as the reference describes it: members (one owner, pending invitations,
// seats, the upsert, 404s), clusters that report Creating for a while, their API clients (secret returned once, 412
// while the cluster is not ready, unique names, a limit), connector secrets (409 on a duplicate, still listed for a
// moment after delete), the IP allowlist (on the cluster object only with the feature), the upgrade, 429 faults with
// Retry-After, and the request log with secret values masked.

import { strict as assert } from "node:assert";
import { HttpResult, Json, emulatorApi, http, useEmulator, waitFor } from "./harness";

const OWNER = { name: "Ada Lovelace", email: "ada@example.com", roles: ["owner"], invitePending: false };

describe("emulator: the administration API", () => {
    const emulator = useEmulator();
    const { reset } = emulatorApi(emulator, { rateLimitBlockSeconds: 0, members: [OWNER], clusterCreateMs: 150, secretDeleteLagMs: 150, clusterDeleteMs: 100 });
    let token = "";
    const api = (method: string, path: string, body?: unknown): Promise<HttpResult> =>
        http(method, `${emulator().baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` }, ...(body === undefined ? {} : { body }) });
    const createCluster = async (name = "orders"): Promise<string> => {
        const created = await api("POST", "/clusters", {
            name,
            channelId: "channel-stable",
            generationId: "gen-8-8-5",
            planTypeId: "plan-basic",
            regionId: "region-bel",
        });
        assert.equal(created.status, 200, created.text);
        return created.json.clusterId;
    };
    const healthy = (id: string) =>
        waitFor(async () => ((await api("GET", `/clusters/${id}`)).json.status.ready === "Healthy" ? true : undefined), "a healthy cluster");

    beforeEach(async () => {
        await reset();
        const issued = await http("POST", emulator().authUrl, {
            rawBody: new URLSearchParams({
                grant_type: "client_credentials",
                client_id: "demo-client",
                client_secret: "demo-secret",
                audience: "127.0.0.1",
            }).toString(),
            headers: { "content-type": "application/x-www-form-urlencoded" },
        });
        token = issued.json.access_token;
    });

    it("members: invitations are pending, the upsert replaces roles, the owner cannot be changed or removed, a seat limit answers 403", async () => {
        emulator().control.updateSettings({ seats: 2 });
        assert.equal((await api("POST", "/members/grace%40example.com", { orgRoles: ["admin"] })).status, 204);
        assert.equal((await api("POST", "/members/grace%40example.com", { orgRoles: ["developer", "analyst"] })).status, 204);
        const listed = (await api("GET", "/members")).json;
        assert.deepEqual(listed, [OWNER, { name: "", email: "grace@example.com", roles: ["developer", "analyst"], invitePending: true }]);
        const full = await api("POST", "/members/alan%40example.com", { orgRoles: ["developer"] });
        assert.deepEqual([full.status, full.json.message], [403, "No open seats left in the organization"]);
        assert.equal((await api("POST", "/members/ada%40example.com", { orgRoles: ["admin"] })).status, 403);
        assert.equal((await api("DELETE", "/members/ada%40example.com")).status, 403);
        assert.equal((await api("POST", "/members/x%40example.com", { orgRoles: ["owner"] })).status, 400);
        assert.equal((await api("DELETE", "/members/grace%40example.com")).status, 204);
        assert.equal((await api("DELETE", "/members/grace%40example.com")).status, 404);
        assert.deepEqual(emulator().control.members(), [OWNER]);
    });

    it("a 429 fault answers with the Retry-After given; the log keeps admin bodies with secret values masked", async () => {
        emulator().control.addFault({
            interface: "admin",
            method: "GET",
            pathPrefix: "/members",
            status: 429,
            retryAfter: "Wed, 21 Oct 2037 07:28:00 GMT",
            count: 1,
        });
        const limited = await api("GET", "/members");
        assert.equal(limited.status, 429);
        assert.equal(limited.headers.get("retry-after"), "Wed, 21 Oct 2037 07:28:00 GMT");
        const id = await createCluster();
        await api("POST", `/clusters/${id}/secrets`, { secretName: "API_KEY", secretValue: "value-never-logged" });
        const log = emulator().control.requests();
        assert.ok(!JSON.stringify(log).includes("value-never-logged"));
        assert.deepEqual(log.find((entry) => entry.path.endsWith("/secrets"))?.body, { secretName: "API_KEY", secretValue: "***" });
    });

    it("clusters: the parameters, Creating then Healthy, PATCH, an upgrade to the newest generation, delete then 404", async () => {
        const parameters = (await api("GET", "/clusters/parameters")).json;
        assert.deepEqual(
            parameters.channels.map((channel: Json) => channel.name),
            ["Stable", "Alpha"],
        );
        const bad = await api("POST", "/clusters", {
            name: "x",
            channelId: "channel-alpha",
            generationId: "gen-8-8-5",
            planTypeId: "plan-basic",
            regionId: "region-bel",
        });
        assert.deepEqual([bad.status, bad.json.message], [400, "generationId is not a generation the channel Alpha allows"]);
        const id = await createCluster();
        const creating = (await api("GET", `/clusters/${id}`)).json;
        assert.equal(creating.status.ready, "Creating");
        assert.equal((await api("PUT", `/clusters/${id}/upgrade`)).status, 412);
        await healthy(id);
        assert.equal((await api("PATCH", `/clusters/${id}`, { name: "orders-eu", stageLabel: "prod", description: "the orders" })).status, 204);
        const patched = (await api("GET", `/clusters/${id}`)).json;
        assert.deepEqual([patched.name, patched.labels, patched.description], ["orders-eu", ["prod"], "the orders"]);
        const upgraded = await api("PUT", `/clusters/${id}/upgrade`);
        assert.equal(upgraded.status, 200);
        assert.equal(upgraded.json.newGeneration.id, "gen-8-9-1");
        assert.equal((await api("GET", `/clusters/${id}`)).json.status.ready, "Updating");
        assert.equal((await api("DELETE", `/clusters/${id}`)).status, 204);
        await waitFor(async () => ((await api("GET", `/clusters/${id}`)).status === 404 ? true : undefined), "the cluster gone");
        assert.deepEqual((await api("GET", "/clusters")).json, []);
    });

    it("API clients: the secret only in the create answer, 412 while the cluster is not ready, unique names, a limit", async () => {
        emulator().control.updateSettings({ clientLimit: 2 });
        const id = await createCluster();
        const created = await api("POST", `/clusters/${id}/clients`, { clientName: "worker", permissions: ["Zeebe"] });
        assert.equal(created.status, 200);
        assert.ok(created.json.clientSecret.length > 20);
        assert.equal((await api("GET", `/clusters/${id}/clients/${created.json.clientId}`)).status, 412);
        await healthy(id);
        const details = (await api("GET", `/clusters/${id}/clients/${created.json.clientId}`)).json;
        assert.deepEqual(Object.keys(details).sort(), ["ZEEBE_ADDRESS", "ZEEBE_AUTHORIZATION_SERVER_URL", "ZEEBE_CLIENT_ID", "name"]);
        assert.deepEqual((await api("GET", `/clusters/${id}/clients`)).json, [{ clientId: created.json.clientId, name: "worker", permissions: ["Zeebe"] }]);
        assert.equal((await api("POST", `/clusters/${id}/clients`, { clientName: "worker" })).status, 400);
        const all = await api("POST", `/clusters/${id}/clients`, { clientName: "all" });
        assert.deepEqual(all.json.permissions, ["Zeebe", "Operate", "Tasklist", "Optimize", "Secrets"]);
        assert.equal((await api("POST", `/clusters/${id}/clients`, { clientName: "third" })).status, 403);
        assert.equal((await api("DELETE", `/clusters/${id}/clients/${created.json.clientId}`)).status, 204);
        assert.equal((await api("DELETE", `/clusters/${id}/clients/${created.json.clientId}`)).status, 404);
    });

    it("connector secrets: values listed, 409 on a duplicate, names under 50 characters, still listed for a moment after delete", async () => {
        const id = await createCluster();
        assert.equal((await api("POST", `/clusters/${id}/secrets`, { secretName: "API_KEY", secretValue: "one" })).status, 204);
        assert.equal((await api("POST", `/clusters/${id}/secrets`, { secretName: "API_KEY", secretValue: "two" })).status, 409);
        assert.equal((await api("POST", `/clusters/${id}/secrets`, { secretName: "N".repeat(50), secretValue: "x" })).status, 400);
        assert.equal((await api("PUT", `/clusters/${id}/secrets/API_KEY`, { secretValue: "three" })).status, 204);
        assert.deepEqual((await api("GET", `/clusters/${id}/secrets`)).json, { API_KEY: "three" });
        assert.equal((await api("DELETE", `/clusters/${id}/secrets/API_KEY`)).status, 204);
        assert.deepEqual((await api("GET", `/clusters/${id}/secrets`)).json, { API_KEY: "three" });
        await waitFor(async () => (Object.keys((await api("GET", `/clusters/${id}/secrets`)).json).length === 0 ? true : undefined), "the secret unlisted");
        assert.equal((await api("DELETE", `/clusters/${id}/secrets/API_KEY`)).status, 404);
    });

    it("the IP allowlist: replaced whole, shown on the cluster; without the feature absent and refused", async () => {
        const id = await createCluster();
        assert.deepEqual((await api("GET", `/clusters/${id}`)).json.ipallowlist, []);
        assert.equal((await api("PUT", `/clusters/${id}/ipallowlist`, { ipallowlist: [{ ip: "10.0.0.0/8", description: "office" }] })).status, 204);
        assert.deepEqual((await api("GET", `/clusters/${id}`)).json.ipallowlist, [{ ip: "10.0.0.0/8", description: "office" }]);
        emulator().control.updateSettings({ ipAllowlistFeature: false });
        assert.equal("ipallowlist" in (await api("GET", `/clusters/${id}`)).json, false);
        assert.equal((await api("PUT", `/clusters/${id}/ipallowlist`, { ipallowlist: [] })).status, 403);
    });

    it("an unknown cluster is 404 everywhere; a request without a token is 401", async () => {
        for (const path of ["/clusters/nope", "/clusters/nope/clients", "/clusters/nope/secrets"]) assert.equal((await api("GET", path)).status, 404, path);
        token = "";
        assert.equal((await api("GET", "/members")).status, 401);
    });

    it("the control API adds a cluster made elsewhere, forces its status, deletes a client and sets a secret outside any stack", async () => {
        const control = (method: string, path: string, body?: unknown) => http(method, `${emulator().controlUrl}${path}`, body === undefined ? {} : { body });
        const added = await control("POST", "/hosted-clusters", { name: "console-made", regionId: "region-iowa" });
        assert.equal(added.status, 200, added.text);
        const id = added.json.id;
        assert.equal((await api("GET", `/clusters/${id}`)).json.status.ready, "Healthy");
        assert.equal((await control("PUT", `/hosted-clusters/${id}/status`, { status: "Unhealthy" })).status, 200);
        assert.equal((await api("GET", `/clusters/${id}`)).json.status.ready, "Unhealthy");
        const client = (await api("POST", `/clusters/${id}/clients`, { clientName: "worker" })).json;
        assert.equal((await control("DELETE", `/hosted-clusters/${id}/clients/${client.clientId}`)).status, 200);
        const view = await control("PUT", `/hosted-clusters/${id}/secrets/API_KEY`, { value: "set-outside" });
        assert.deepEqual(
            view.json.map((cluster: Json) => [cluster.name, cluster.region, cluster.status, cluster.clients.length, cluster.secrets]),
            [["console-made", "Iowa, North America (us-central1)", "Unhealthy", 0, { API_KEY: "set-outside" }]],
        );
        assert.equal((await control("POST", "/hosted-clusters", { name: "x", regionId: "region-mars" })).status, 400);
    });
});
