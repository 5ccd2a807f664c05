// How the plugin reads and returns secrets: the engine's envelopes taken off wherever they are, the properties that
// held one anywhere found, and those kept secret wrapped again once (absent ones left absent).
import assert from "node:assert/strict";
import { isSecretEnvelope, secretProperties, unwrapSecrets, wrapSecrets } from "../../provider/plugin/secrets";

const SIG = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
const secret = (value: unknown) => ({ ...SIG, value });

describe("the plugin's secret envelopes", () => {
    it("unwraps envelopes at any depth, in arrays and nested envelopes", () => {
        const given = { a: secret("x"), b: { c: [1, secret({ d: secret("y") })] }, e: "plain" };
        assert.deepEqual(unwrapSecrets(given), { a: "x", b: { c: [1, { d: "y" }] }, e: "plain" });
    });

    it("finds the top-level properties holding a secret anywhere inside", () => {
        assert.deepEqual(secretProperties({ a: secret("x"), b: { c: [secret(1)] }, e: "plain", f: undefined }), ["a", "b"]);
    });

    it("wraps the named properties once, leaving absent ones absent", () => {
        const wrapped = wrapSecrets({ a: "x", b: secret("y"), c: "z" }, ["a", "b", "missing"]);
        assert.deepEqual(wrapped, { a: secret("x"), b: secret("y"), c: "z" });
        assert.ok(isSecretEnvelope(wrapped.a) && !isSecretEnvelope(wrapped.c));
        assert.equal("missing" in wrapped, false);
    });
});
