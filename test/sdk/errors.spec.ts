// The SDK's error classes: names, messages, the fields each adds, instanceof, and a stack headed by the name.

import assert from "node:assert/strict";
import * as errors from "../../sdk/errors";

describe("sdk errors", () => {
    it("keeps every error class intact: names, messages, fields and instanceof", () => {
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
        assert.deepEqual(
            made.map((error) => error.name),
            [
                "InvalidRequestError",
                "AuthError",
                "ConflictError",
                "RateLimitedError",
                "ServerError",
                "UnexpectedStatusError",
                "UnreachableError",
                "RequestTimeoutError",
                "AbortedError",
                "ResponseFormatError",
                "ChangeTimeoutError",
                "ChangeCancelledError",
                "ChangeFailedError",
                "ChangeSupersededError",
            ],
        );
        for (const error of made) {
            assert.ok(error instanceof errors.PlatformError && error instanceof Error, error.name);
            assert.ok(typeof error.stack === "string" && error.stack.startsWith(error.name), `${error.name}: ${error.stack}`);
        }
        const extra = made.map((error) =>
            error instanceof errors.ChangeError
                ? error.changeId
                : error instanceof errors.ConflictError
                  ? error.pendingChangeId
                  : error instanceof errors.RateLimitedError
                    ? error.retryAfterMs
                    : error instanceof errors.ResponseFormatError
                      ? error.problem
                      : error.status,
        );
        assert.deepEqual(extra, [409, 409, 6, 1000, 409, 409, undefined, 409, undefined, "version: missing", 7, 7, 7, 7]);
        assert.equal(made[2].message, "GET /x, status 409: busy (pending change 6)");
        assert.ok(made.slice(10).every((error) => error instanceof errors.ChangeError));
    });
});
