// The HTTP layer over loopback: which requests are retried and when, typed errors, timeouts, aborts.

import assert from "node:assert/strict";
import { createServer } from "node:net";
import { inspect } from "node:util";
import { ClusterClient } from "../../sdk/cluster/clusterClient";
import {
    AbortedError,
    InvalidRequestError,
    RequestTimeoutError,
    ResponseFormatError,
    ServerError,
    UnexpectedStatusError,
    UnreachableError,
} from "../../sdk/errors";
import { GatewayClient } from "../../sdk/cluster/gatewayClient";
import { decodeJsonBody, errorFromResponse, parseRetryAfter, send } from "../../sdk/http/request";
import { rejection, requestsTo, startBrokers, useEmulator } from "./support";

const FAST_RETRY = { baseDelayMs: 5, maxDelayMs: 20 };

async function closedPort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (address === null || typeof address === "string") throw new Error("no port");
    return address.port;
}

describe("sdk http", () => {
    const emulator = useEmulator();
    const cluster = (): ClusterClient => new ClusterClient({ managementUrl: emulator().managementUrl });

    describe("GET retries", () => {
        it("retries a reset connection, 502, 503 and 504, then returns the answer", async () => {
            const { control } = emulator();
            control.addFault({ interface: "management", method: "GET", count: 1, reset: true });
            control.addFault({ interface: "management", method: "GET", count: 1, status: 502 });
            control.addFault({ interface: "management", method: "GET", count: 1, status: 504 });
            const state = await cluster().getCluster({ retry: { ...FAST_RETRY, maxAttempts: 4 } });
            assert.equal(state.version, 1);
            assert.deepEqual(
                requestsTo(emulator(), "management").map((entry) => entry.status),
                [0, 502, 504, 200],
            );
        });

        it("gives up after maxAttempts with a ServerError naming the request, the status and the server's message", async () => {
            emulator().control.addFault({ interface: "management", method: "GET", count: 5, status: 504 });
            const error = await rejection(cluster().getCluster({ retry: { ...FAST_RETRY, maxAttempts: 2 } }));
            assert.ok(error instanceof ServerError);
            assert.equal(error.status, 504);
            assert.deepEqual(error.request, { method: "GET", path: "/actuator/cluster" });
            assert.equal(error.serverMessage, "Gateway Timeout");
            assert.match(error.message, /GET \/actuator\/cluster, status 504/);
            assert.equal(requestsTo(emulator(), "management").length, 2);
        });

        it("waits as long as Retry-After says before retrying a 429", async () => {
            emulator().control.addFault({ interface: "management", method: "GET", count: 1, status: 429 });
            await cluster().getCluster({ retry: FAST_RETRY });
            const [first, second] = requestsTo(emulator(), "management");
            assert.equal(first.status, 429);
            assert.equal(second.status, 200);
            // The emulator answers Retry-After: 1.
            assert.ok(Date.parse(second.at) - Date.parse(first.at) >= 990, `retried after ${Date.parse(second.at) - Date.parse(first.at)} ms`);
        });

        it("does not retry when told not to, nor on statuses that will not change (400, 404)", async () => {
            emulator().control.addFault({ interface: "management", method: "GET", count: 1, status: 502 });
            assert.ok((await rejection(cluster().getCluster({ retry: false }))) instanceof ServerError);
            const wrongPath = new ClusterClient({ managementUrl: emulator().managementUrl, basePath: "/actuator/nothing" });
            const notFound = await rejection(wrongPath.getCluster({ retry: FAST_RETRY }));
            assert.ok(notFound instanceof UnexpectedStatusError);
            assert.equal(notFound.status, 404);
            assert.equal(requestsTo(emulator(), "management").length, 2);
        });

        it("retries a timed-out GET, which counts as transient", async () => {
            emulator().control.addFault({ interface: "management", method: "GET", count: 1, delayMs: 400 });
            const state = await cluster().getCluster({ timeoutMs: 100, retry: FAST_RETRY });
            assert.equal(state.version, 1);
            // The delayed request is logged when the emulator answers it, after the client gave up on it.
            await new Promise((resolve) => setTimeout(resolve, 400));
            assert.equal(requestsTo(emulator(), "management").length, 2);
        });
    });

    describe("mutating requests are sent once", () => {
        it("a reset POST is not retried: UnreachableError, one request", async () => {
            startBrokers(emulator(), [3]);
            emulator().control.addFault({ interface: "management", method: "POST", count: 1, reset: true });
            const error = await rejection(cluster().scaleBrokers([0, 1, 2, 3]));
            assert.ok(error instanceof UnreachableError);
            assert.deepEqual(error.request, { method: "POST", path: "/actuator/cluster/brokers" });
            assert.equal(requestsTo(emulator(), "management", "POST").length, 1);
        });

        it("a 502 or 504 to a PATCH is not retried, even when the change was accepted behind it", async () => {
            // Broker 3 is not running, so the change waits at its BROKER_ADD and stays visible.
            emulator().control.addFault({ interface: "management", method: "PATCH", count: 1, status: 504, afterProcessing: true });
            const error = await rejection(cluster().patchCluster({ brokers: { add: [3] } }));
            assert.ok(error instanceof ServerError);
            assert.equal(error.status, 504);
            assert.equal(requestsTo(emulator(), "management", "PATCH").length, 1);
            // The change did start: only a GET can tell, and it does.
            const state = await cluster().getCluster();
            assert.equal(state.pendingChange?.id, 2);
        });

        it("a slow DELETE times out once and is not repeated", async () => {
            const plan = await cluster().scaleBrokers([0, 1, 2, 3]);
            emulator().control.addFault({ interface: "management", method: "DELETE", count: 1, delayMs: 300 });
            const error = await rejection(cluster().cancelChange(plan.changeId, { timeoutMs: 50 }));
            assert.ok(error instanceof RequestTimeoutError);
            assert.match(error.message, /DELETE \/actuator\/cluster\/changes\/2/);
            await new Promise((resolve) => setTimeout(resolve, 350));
            assert.equal(requestsTo(emulator(), "management", "DELETE").length, 1);
        });
    });

    describe("errors", () => {
        it("400 becomes InvalidRequestError with the server's message", async () => {
            const error = await rejection(cluster().scaleBrokers([0, 1]));
            assert.ok(error instanceof InvalidRequestError);
            assert.equal(error.status, 400);
            assert.equal(error.serverMessage, "Number of brokers [2] is less than the replication factor [3]");
        });

        it("a closed port is UnreachableError with the socket error code", async () => {
            const client = new ClusterClient({ managementUrl: `http://127.0.0.1:${await closedPort()}` });
            const error = await rejection(client.getCluster({ retry: { ...FAST_RETRY, maxAttempts: 2 } }));
            assert.ok(error instanceof UnreachableError);
            assert.equal(error.code, "ECONNREFUSED");
            assert.deepEqual(error.request, { method: "GET", path: "/actuator/cluster" });
        });

        it("the caller's AbortSignal ends a request at once with AbortedError, without retries", async () => {
            emulator().control.addFault({ interface: "gateway", method: "GET", count: 1, delayMs: 500 });
            const controller = new AbortController();
            const pending = new GatewayClient({ gatewayUrl: emulator().gatewayUrl }).getTopology({ signal: controller.signal });
            setTimeout(() => controller.abort(), 30);
            assert.ok((await rejection(pending)) instanceof AbortedError);
        });

        it("a response of the wrong shape is ResponseFormatError naming the field, not dumping the body", async () => {
            // The control API's settings are JSON, but not a cluster state.
            const client = new ClusterClient({ managementUrl: emulator().controlUrl, basePath: "/settings" });
            const error = await rejection(client.getCluster());
            assert.ok(error instanceof ResponseFormatError);
            assert.match(error.problem, /version/);
            assert.ok(!error.message.includes("tokenLifetimeSeconds"), error.message);
        });

        it("a 2xx body that is not JSON is ResponseFormatError", () => {
            const response = { status: 200, headers: {}, text: "<html>proxy</html>", request: { method: "GET", path: "/x" } };
            const error = (() => {
                try {
                    decodeJsonBody(response, () => ({ ok: true, value: 1 }));
                } catch (caught) {
                    return caught;
                }
                return undefined;
            })();
            assert.ok(error instanceof ResponseFormatError);
            assert.match(error.problem, /not valid JSON/);
        });

        it("plain-text error bodies are the server's message", async () => {
            const response = await send({ method: "DELETE", url: `${emulator().managementUrl}/actuator/cluster/changes/1`, query: { dryRun: true } });
            const error = errorFromResponse(response);
            assert.ok(error instanceof UnexpectedStatusError);
            assert.equal(error.status, 501);
            assert.equal(error.serverMessage, "Dry run is not supported for cancelling changes");
            assert.deepEqual(error.request, { method: "DELETE", path: "/actuator/cluster/changes/1?dryRun=true" });
        });

        it("an HTML page (a proxy's error or login page) is named by its title, not dumped", async () => {
            const page = "<!DOCTYPE html>\n<html><head><title>502\n Bad Gateway</title></head><body><h1>nginx</h1></body></html>";
            emulator().control.addFault({ interface: "management", method: "GET", count: 1, status: 502, body: page, contentType: "text/html" });
            emulator().control.addFault({
                interface: "management",
                method: "GET",
                count: 1,
                status: 500,
                body: "<html><body>oops</body></html>",
                contentType: "text/html",
            });
            const titled = errorFromResponse(await send({ method: "GET", url: `${emulator().managementUrl}/actuator/cluster` }));
            assert.equal(titled.serverMessage, 'an HTML page titled "502 Bad Gateway"');
            assert.ok(!titled.message.includes("<"), titled.message);
            const untitled = errorFromResponse(await send({ method: "GET", url: `${emulator().managementUrl}/actuator/cluster` }));
            assert.equal(untitled.serverMessage, "an HTML page");
        });

        it("never shows request headers: fixed auth headers stay out of messages, JSON and inspection", async () => {
            const apiKey = "api-key-0123456789";
            const client = new ClusterClient({ managementUrl: emulator().managementUrl, auth: { headers: { "x-api-key": apiKey } } });
            const error = await rejection(client.scaleBrokers([]));
            assert.ok(error instanceof InvalidRequestError);
            for (const text of [error.message, JSON.stringify(error), inspect(error, { depth: 5 }), String(error.stack)]) {
                assert.ok(!text.includes(apiKey), text);
            }
        });
    });

    it("parses Retry-After as seconds or an HTTP date", () => {
        assert.equal(parseRetryAfter("3"), 3_000);
        assert.equal(parseRetryAfter(["1.5"]), 1_500);
        assert.equal(parseRetryAfter(new Date(10_000).toUTCString(), 4_000), 6_000);
        assert.equal(parseRetryAfter("soon"), undefined);
        assert.equal(parseRetryAfter(undefined), undefined);
    });
});
