// The control API: reset, request log, broker start/stop, settings (including the PATCH switch of
// older servers), state snapshot, and its input validation. Also the in-process control handle.

import { strict as assert } from "node:assert";
import { CLUSTER, emulatorApi, http, layout, useEmulator } from "./harness";

describe("emulator: control API", () => {
    const emulator = useEmulator({ brokers: 4, partitions: 2, replicationFactor: 2 });
    const { management, control } = emulatorApi(emulator);

    it("resets to the start-up layout, or to the layout and running brokers it is given", async () => {
        const fresh = await http("POST", control("/reset"));
        assert.equal(fresh.status, 200);
        assert.equal(fresh.json.version, 1);
        assert.equal(layout(fresh.json.members), "0: {1=2} v0 · 1: {1=1,2=2} v0 · 2: {2=1} v0 · 3: {} v0");
        assert.deepEqual(fresh.json.running, [0, 1, 2, 3]);

        const custom = await http("POST", control("/reset"), {
            body: { brokers: 2, partitions: 1, replicationFactor: 1, running: [0, 1, 7], opMs: 50, partitionScaling: true },
        });
        assert.equal(custom.status, 200, custom.text);
        assert.equal(layout(custom.json.members), "0: {1=1} v0 · 1: {} v0");
        assert.deepEqual(custom.json.running, [0, 1, 7]);
        assert.equal(custom.json.settings.opMs, 50);
        assert.equal(custom.json.settings.partitionScaling, true);
        assert.equal((await http("GET", `${emulator().gatewayUrl}/v2/topology`)).json.brokers.length, 3);
    });

    it("rejects invalid resets without touching the cluster", async () => {
        await http("POST", control("/reset"));
        for (const body of [{ brokers: 2, replicationFactor: 3 }, { brokers: 0 }, { partitions: 1.5 }, { running: [-1] }, { colour: "red" }, [1, 2]]) {
            const result = await http("POST", control("/reset"), { body });
            assert.equal(result.status, 400, JSON.stringify(body));
            assert.equal(typeof result.json.message, "string");
        }
        assert.equal(layout((await http("GET", control("/state"))).json.members), "0: {1=2} v0 · 1: {1=1,2=2} v0 · 2: {2=1} v0 · 3: {} v0");
    });

    it("records requests with their query, status and management bodies, and clears them", async () => {
        await http("POST", control("/reset"));
        await http("POST", management("/brokers?dryRun=true&replicationFactor=2"), { body: ["0", "1", "2"] });
        await http("GET", management());
        await http("GET", `${emulator().gatewayUrl}/v2/topology`);
        const entries = (await http("GET", control("/requests"))).json;
        assert.equal(entries.length, 3);
        const [post, get, gateway] = entries;
        assert.deepEqual(Object.keys(post).sort(), ["at", "body", "interface", "method", "path", "query", "remoteAddress", "status"]);
        assert.equal(post.interface, "management");
        assert.equal(post.method, "POST");
        assert.equal(post.path, `${CLUSTER}/brokers`);
        assert.deepEqual(post.query, { dryRun: "true", replicationFactor: "2" });
        assert.deepEqual(post.body, ["0", "1", "2"]);
        assert.equal(post.status, 202);
        assert.equal(post.remoteAddress, "127.0.0.1");
        assert.ok(!Number.isNaN(Date.parse(post.at)));
        assert.equal(get.body, undefined);
        assert.equal(gateway.interface, "gateway");
        assert.equal((await http("DELETE", control("/requests"))).status, 200);
        assert.deepEqual((await http("GET", control("/requests"))).json, []);
    });

    it("answers PATCH with 405 when configured as an older server", async () => {
        await http("POST", control("/reset"));
        const settings = await http("PUT", control("/settings"), { body: { patchSupported: false } });
        assert.equal(settings.status, 200);
        assert.equal(settings.json.patchSupported, false);
        const refused = await http("PATCH", management(), { body: { brokers: { add: [4] } } });
        assert.equal(refused.status, 405);
        assert.equal(refused.json.status, 405);
        assert.equal((await http("POST", management("/brokers?dryRun=true"), { body: [0, 1, 2, 3, 4] })).status, 202);
        await http("PUT", control("/settings"), { body: { patchSupported: true } });
        assert.equal((await http("PATCH", management("?dryRun=true"), { body: { brokers: { add: [4] } } })).status, 202);
    });

    it("validates settings, broker ids and paths", async () => {
        for (const body of [{ opMs: -1 }, { tokenLifetimeSeconds: 1.5 }, { clients: [{ clientId: "x" }] }, { members: [{}] }, { brokers: 3 }]) {
            assert.equal((await http("PUT", control("/settings"), { body })).status, 400, JSON.stringify(body));
        }
        assert.equal((await http("POST", control("/brokers/x/stop"))).status, 400);
        assert.equal((await http("GET", control("/brokers/1/stop"))).status, 405);
        assert.equal((await http("GET", control("/nothing"))).status, 404);
        assert.equal((await http("PUT", control("/settings"), { rawBody: "{", headers: { "content-type": "application/json" } })).status, 400);
        assert.equal((await http("GET", control("/settings"))).status, 200);
    });

    it("offers the same operations in-process", async () => {
        const { control: handle } = emulator();
        handle.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
        handle.stopBroker(2);
        handle.addFault({ interface: "gateway", count: 1, status: 500 });
        assert.equal((await http("GET", `${emulator().gatewayUrl}/v2/topology`)).status, 500);
        const topology = await http("GET", `${emulator().gatewayUrl}/v2/topology`);
        assert.deepEqual(
            topology.json.brokers.map((b: { nodeId: number }) => b.nodeId),
            [0, 1],
        );
        assert.equal(handle.requests().length, 2);
        assert.throws(() => handle.reset({ brokers: 1, replicationFactor: 2 }), /replicationFactor/);
        handle.startBroker(2);
    });
});
