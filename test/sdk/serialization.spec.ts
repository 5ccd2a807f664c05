// The SDK as Pulumi runs it: serialized by the closure serializer into a dynamic provider's text and
// loaded back. Two providers deserialized separately in one process are separate copies of every
// SDK module, yet must share the token cache, the single flight and the rate limiter.

import assert from "node:assert/strict";
import { runtime } from "@pulumi/pulumi";
import * as errors from "../../sdk/errors";
import { TokenClient } from "../../sdk/tokenClient";
import { ClusterClient } from "../../sdk/clusterClient";
import { GatewayClient } from "../../sdk/gatewayClient";
import { waitForChange } from "../../sdk/changeWaiter";
import { DEMO, requestsTo, startBrokers, useEmulator } from "./support";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const requireFromString = require("require-from-string") as (code: string) => { handler: () => unknown };

interface Urls {
    authUrl: string;
    managementUrl: string;
    gatewayUrl: string;
}

/** Credentials reach the provider at run time (as from configuration), never through its closure. */
interface Credentials {
    clientId: string;
    clientSecret: string;
    audience: string;
}

/** What a dynamic provider's methods would do with the SDK; clients are built inside the methods. */
function makeProvider(name: string) {
    return {
        name,
        async token(urls: Urls, credentials: Credentials): Promise<string> {
            return new TokenClient({ ...credentials, authUrl: urls.authUrl, diskCache: false, env: {} }).getToken();
        },
        isAuthError(error: unknown): boolean {
            return error instanceof errors.AuthError;
        },
        /** Every error class, built and examined inside the copy. */
        describeErrors(): { name: string; message: string; isPlatformError: boolean; isError: boolean; hasStack: boolean; extra: unknown }[] {
            const details = { request: { method: "GET", path: "/x" }, status: 409 };
            const change = { changeId: 7, progress: { changeId: 7, completed: 1, total: 3 } };
            const made: errors.PlatformError[] = [
                new errors.InvalidRequestError("bad", details),
                new errors.AuthError("denied", details),
                new errors.ConflictError("busy", { ...details, pendingChangeId: 6 }),
                new errors.RateLimitedError("slow down", { ...details, retryAfterMs: 1000 }),
                new errors.ServerError("failed", details),
                new errors.UnexpectedStatusError("odd", details),
                new errors.UnreachableError("down", { code: "ECONNREFUSED" }),
                new errors.RequestTimeoutError("slow", details),
                new errors.AbortedError("stop"),
                new errors.ResponseFormatError("shape", { ...details, problem: "version: missing" }),
                new errors.ChangeTimeoutError("late", change),
                new errors.ChangeCancelledError("cancelled", change),
                new errors.ChangeFailedError("failed", { ...change, changeStatus: "FAILED" }),
                new errors.ChangeSupersededError("superseded", { ...change, latestChangeId: 9 }),
            ];
            return made.map((error) => ({
                name: error.name,
                message: error.message,
                isPlatformError: error instanceof errors.PlatformError,
                isError: error instanceof Error,
                hasStack: typeof error.stack === "string" && error.stack.includes(error.name),
                extra:
                    error instanceof errors.ChangeError
                        ? error.changeId
                        : error instanceof errors.ConflictError
                          ? error.pendingChangeId
                          : error instanceof errors.RateLimitedError
                            ? error.retryAfterMs
                            : error instanceof errors.ResponseFormatError
                              ? error.problem
                              : error.status,
            }));
        },
        async scaleAndWait(urls: Urls, brokerIds: number[]): Promise<string> {
            const cluster = new ClusterClient({ managementUrl: urls.managementUrl });
            const plan = await cluster.scaleBrokers(brokerIds);
            const outcome = await waitForChange({
                changeId: plan.changeId,
                cluster,
                gateway: new GatewayClient({ gatewayUrl: urls.gatewayUrl }),
            });
            return outcome.lastChange.status;
        },
    };
}

type Provider = ReturnType<typeof makeProvider>;

async function serializeAndLoad(provider: Provider): Promise<{ copy: Provider; text: string }> {
    const { text } = await runtime.serializeFunction(() => provider, { allowSecrets: true });
    return { copy: requireFromString(text).handler() as Provider, text };
}

describe("sdk under Pulumi's closure serializer", () => {
    const emulator = useEmulator();
    let first: { copy: Provider; text: string };
    let second: { copy: Provider; text: string };

    before(async function () {
        this.timeout(60_000);
        first = await serializeAndLoad(makeProvider("clusters"));
        second = await serializeAndLoad(makeProvider("members"));
    });

    it("serializes with undici and zod required by name, and no secret in the text", () => {
        for (const { text } of [first, second]) {
            assert.match(text, /require\("undici\/index\.js"\)/);
            assert.match(text, /require\("zod"\)/);
            assert.ok(!text.includes(DEMO.clientSecret));
        }
        assert.notEqual(first.copy.token, second.copy.token, "two separate copies");
    });

    it("two deserialized providers share one token: one request for both, even concurrently", async () => {
        const urls = emulator();
        const tokens = await Promise.all([
            ...Array.from({ length: 10 }, () => first.copy.token(urls, DEMO)),
            ...Array.from({ length: 10 }, () => second.copy.token(urls, DEMO)),
        ]);
        assert.equal(new Set(tokens).size, 1);
        assert.equal(requestsTo(urls, "auth").length, 1);
    });

    it("credentials refused in one provider are not sent again by the other, which gets its own AuthError", async () => {
        const urls = emulator();
        const firstError = await first.copy.token(urls, { ...DEMO, clientSecret: "wrong-secret" }).catch((error: unknown) => error);
        const secondError = await second.copy.token(urls, { ...DEMO, clientSecret: "wrong-secret" }).catch((error: unknown) => error);
        assert.ok(first.copy.isAuthError(firstError));
        assert.ok(second.copy.isAuthError(secondError), "an instance of the second copy's own AuthError class");
        assert.equal(requestsTo(urls, "auth").length, 1);
    });

    it("keeps every error class intact: names, messages, fields and instanceof", () => {
        const inCopy = second.copy.describeErrors();
        const here = makeProvider("original").describeErrors();
        assert.deepEqual(inCopy, here);
        assert.ok(inCopy.every((error) => error.isPlatformError && error.isError && error.hasStack));
        assert.deepEqual(
            inCopy.map((error) => error.extra),
            [409, 409, 6, 1000, 409, 409, undefined, 409, undefined, "version: missing", 7, 7, 7, 7],
        );
        assert.equal(inCopy[2].message, "GET /x, status 409: busy (pending change 6)");
    });

    it("runs a change end to end from a deserialized copy, through transient failures", async () => {
        const urls = emulator();
        startBrokers(urls, [3]);
        urls.control.addFault({ interface: "management", method: "GET", count: 1, status: 502 });
        urls.control.addFault({ interface: "management", method: "GET", count: 1, reset: true });
        assert.equal(await second.copy.scaleAndWait(urls, [0, 1, 2, 3]), "COMPLETED");
    });
});
