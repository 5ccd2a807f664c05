// Fault injection (status, connection reset, delay, after processing) and outages of a whole
// interface, as seen by a client over loopback, and their traces in the request log.

import { strict as assert } from "node:assert";
import { CLUSTER, Json, http, useEmulator, waitFor } from "./harness";

describe("emulator: faults and outages", () => {
    const emulator = useEmulator();
    const management = (path = ""): string => `${emulator().managementUrl}${CLUSTER}${path}`;
    const control = (path: string): string => `${emulator().controlUrl}${path}`;

    async function fault(body: object): Promise<void> {
        const result = await http("POST", control("/faults"), { body });
        assert.equal(result.status, 200, result.text);
    }

    async function log(): Promise<Json[]> {
        return (await http("GET", control("/requests"))).json;
    }

    beforeEach(async () => {
        assert.equal((await http("POST", control("/reset"), { body: { opMs: 5, rateLimitBlockSeconds: 0 } })).status, 200);
    });

    it("answers the next `count` matching requests with the injected status, then normally", async () => {
        await fault({ interface: "management", method: "GET", pathPrefix: CLUSTER, count: 2, status: 503 });
        const first = await http("GET", management());
        assert.equal(first.status, 503);
        assert.equal(typeof first.json.message, "string");
        assert.equal((await http("GET", management())).status, 503);
        assert.equal((await http("GET", management())).status, 200);
        assert.deepEqual(
            (await log()).map((e) => e.status),
            [503, 503, 200],
        );
    });

    it("matches on interface, method and path prefix", async () => {
        await fault({ interface: "management", method: "POST", pathPrefix: `${CLUSTER}/brokers`, count: 1, status: 504 });
        assert.equal((await http("GET", management())).status, 200);
        assert.equal((await http("GET", `${emulator().gatewayUrl}/v2/topology`)).status, 200);
        assert.equal((await http("PATCH", management("?dryRun=true"), { body: {} })).status, 202);
        const hit = await http("POST", management("/brokers?dryRun=true"), { body: [0, 1, 2] });
        assert.equal(hit.status, 504);
        assert.equal((await http("GET", control("/state"))).json.version, 1, "a faulted request is not processed");
    });

    it("matches on query parameters: a given value, or null for a parameter that must be absent", async () => {
        await fault({ interface: "management", method: "POST", query: { dryRun: null }, count: 1, status: 504 });
        await fault({ interface: "management", method: "POST", query: { dryRun: "true", force: "true" }, count: 1, status: 503 });
        assert.equal((await http("POST", management("/brokers?dryRun=true"), { body: [0, 1, 2] })).status, 202, "a dry run matched dryRun: null");
        assert.equal((await http("POST", management("/brokers?dryRun=true&force=true"), { body: [0, 1, 2] })).status, 503);
        assert.equal((await http("POST", management("/brokers"), { body: [0, 1] })).status, 504);
        assert.equal((await http("GET", control("/state"))).json.version, 1, "the faulted real request was processed");
        assert.deepEqual(
            (await log()).map((e) => `${e.status} ${new URLSearchParams(e.query).toString()}`),
            ["202 dryRun=true", "503 dryRun=true&force=true", "504 "],
        );
    });

    it("answers with a raw body in place of the request, or after processing it with the real status", async () => {
        const page = "<html><body><h1>502 Bad Gateway</h1></body></html>";
        await fault({ interface: "management", method: "GET", count: 1, status: 502, body: page, contentType: "text/html" });
        const html = await http("GET", management());
        assert.equal(html.status, 502);
        assert.equal(html.headers.get("content-type"), "text/html");
        assert.equal(html.text, page);

        await http("POST", control("/brokers/3/start"));
        await fault({ interface: "management", method: "POST", query: { dryRun: null }, count: 1, afterProcessing: true, body: '{"changeId":2,"currentTop' });
        const truncated = await http("POST", management("/brokers"), { body: [0, 1, 2, 3] });
        assert.equal(truncated.status, 202, "the real status is kept");
        assert.equal(truncated.headers.get("content-type"), "application/json");
        assert.equal(truncated.text, '{"changeId":2,"currentTop');
        const state = (await http("GET", management())).json;
        assert.equal(state.pendingChange?.id ?? state.lastChange?.id, 2, "the request behind the cut answer was accepted");
    });

    it("resets the connection without an answer and logs status 0", async () => {
        await fault({ interface: "gateway", count: 1, reset: true });
        await assert.rejects(http("GET", `${emulator().gatewayUrl}/v2/topology`));
        assert.equal((await http("GET", `${emulator().gatewayUrl}/v2/topology`)).status, 200);
        const entries = await log();
        assert.equal(entries[0].status, 0);
        assert.equal(entries[0].interface, "gateway");
    });

    it("delays an answer without changing it", async () => {
        await fault({ interface: "gateway", count: 1, delayMs: 300 });
        const order: string[] = [];
        const delayed = http("GET", `${emulator().gatewayUrl}/v2/topology`).then((result) => {
            order.push("delayed");
            return result;
        });
        await waitFor(async () => ((await http("GET", control("/state"))).json.faults.length === 0 ? true : undefined), "the fault to be taken");
        const prompt = await http("GET", `${emulator().gatewayUrl}/v2/topology`);
        order.push("prompt");
        assert.equal((await delayed).status, 200);
        assert.equal(prompt.status, 200);
        assert.deepEqual(order, ["prompt", "delayed"]);
    });

    it("can process the request and only then fail the answer", async () => {
        await http("POST", control("/brokers/3/start"));
        await fault({ interface: "management", method: "POST", count: 1, status: 504, afterProcessing: true });
        const lost = await http("POST", management("/brokers/3"));
        assert.equal(lost.status, 504);
        const json = await waitFor(async () => {
            const state = (await http("GET", management())).json;
            return state.lastChange?.id === 2 ? state : undefined;
        }, "the change accepted behind the 504");
        assert.ok(json.brokers.some((b: Json) => b.id === 3));

        await fault({ interface: "management", method: "POST", count: 1, reset: true, afterProcessing: true });
        await http("POST", control("/brokers/4/start"));
        await assert.rejects(http("POST", management("/brokers/4")));
        await waitFor(async () => ((await http("GET", management())).json.lastChange?.id === 4 ? true : undefined), "change 4");
    });

    it("gives auth faults an OAuth-style body", async () => {
        await fault({ interface: "auth", count: 1, status: 503 });
        const result = await http("POST", emulator().authUrl, { rawBody: "", headers: { "content-type": "application/x-www-form-urlencoded" } });
        assert.equal(result.status, 503);
        assert.equal(result.json.error, "temporarily_unavailable");
    });

    it("rejects malformed faults", async () => {
        for (const body of [
            { interface: "control", count: 1, status: 500 },
            { interface: "management", count: 0, status: 500 },
            { interface: "management", count: 1 },
            { interface: "management", count: 1, status: 99 },
            { interface: "management", count: 1, status: 500, reset: true },
            { interface: "management", count: 1, status: 500, colour: "red" },
            { interface: "management", count: 1, status: 500, query: ["dryRun"] },
            { interface: "management", count: 1, status: 500, query: { dryRun: true } },
            { interface: "management", count: 1, body: "{}" },
            { interface: "management", count: 1, status: 500, body: 5 },
            { interface: "management", count: 1, status: 500, contentType: "text/html" },
            { interface: "management", count: 1, reset: true, afterProcessing: true, body: "{}" },
        ]) {
            assert.equal((await http("POST", control("/faults"), { body })).status, 400, JSON.stringify(body));
        }
        assert.equal((await http("POST", control("/faults"), { rawBody: "{", headers: { "content-type": "application/json" } })).status, 400);
    });

    it("clears pending faults with DELETE /faults and with POST /reset", async () => {
        await fault({ interface: "gateway", count: 5, status: 500 });
        assert.equal((await http("DELETE", control("/faults"))).status, 200);
        assert.equal((await http("GET", `${emulator().gatewayUrl}/v2/topology`)).status, 200);
        await fault({ interface: "gateway", count: 5, status: 500 });
        await http("POST", control("/reset"));
        assert.equal((await http("GET", `${emulator().gatewayUrl}/v2/topology`)).status, 200);
    });

    it("refuses connections during an outage and serves again on the same port afterwards", async () => {
        const url = management();
        assert.equal((await http("GET", url)).status, 200); // leaves a keep-alive connection open
        const outage = await http("POST", control("/outage"), { body: { interface: "management", ms: 150 } });
        assert.equal(outage.status, 200, outage.text);
        await assert.rejects(http("GET", url));
        assert.deepEqual((await http("GET", control("/state"))).json.interfacesDown, ["management"]);
        assert.equal((await http("GET", `${emulator().gatewayUrl}/v2/topology`)).status, 200, "other interfaces keep serving");
        await waitFor(async () => {
            try {
                return (await http("GET", url)).status === 200 ? true : undefined;
            } catch {
                return undefined;
            }
        }, "the management interface to come back");
        assert.deepEqual((await http("GET", control("/state"))).json.interfacesDown, []);
        assert.equal((await http("POST", control("/outage"), { body: { interface: "control", ms: 10 } })).status, 400);
    });
});
