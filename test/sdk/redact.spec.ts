// Secrets in messages: whole, in part (8 characters or more), or with the text around them.
import * as assert from "assert";
import { redact } from "../../sdk/errors";

describe("redact", () => {
    const token = "eyJhbGciOiJIUzI1NiJ9.c2VjcmV0";

    it("hides a whole secret, and a header value's token echoed without its Bearer prefix", () => {
        assert.strictEqual(redact(`bad ${token}`, [token]), "bad [redacted]");
        assert.strictEqual(redact(`bad token ${token}!`, [`Bearer ${token}`]), "bad token [redacted]!");
    });

    it("hides any piece of 8 characters or more, wherever it stands, and keeps shorter coincidences", () => {
        assert.strictEqual(redact(`prefix ${token.slice(5, 13)} suffix`, [token]), "prefix [redacted] suffix");
        assert.strictEqual(redact(`x${token.slice(0, 20)}y${token.slice(10)}z`, [token]), "x[redacted]y[redacted]z");
        assert.strictEqual(redact(`a ${token.slice(0, 7)} b`, [token]), `a ${token.slice(0, 7)} b`);
    });

    it("hides short secrets only whole, ignores tiny ones, and leaves text without secrets as it is", () => {
        assert.strictEqual(redact("key=abc123 and abc12", ["abc123"]), "key=[redacted] and abc12");
        assert.strictEqual(redact("a b c", ["b", undefined]), "a b c");
        assert.strictEqual(redact("nothing to hide", [token]), "nothing to hide");
    });
});
