// Keeps bench section 14 (test/bench/policyPackPreview.ts) working where the CLI is: one preview each way. Its figures
// are the bench's to report, never asserted here.
import assert from "node:assert/strict";
import { benchPolicyPackPreview } from "../bench/policyPackPreview";

describe("bench section 14: a preview with and without the policy pack", function () {
    this.timeout(180_000);

    it("measures both previews and reports the CPU the pack adds against its target", async () => {
        const result = await benchPolicyPackPreview({ rounds: 1 });
        assert.deepEqual(
            result.figures.map((figure) => figure.id),
            [
                "policyPackPreview.withoutMs",
                "policyPackPreview.withMs",
                "policyPackPreview.withoutCpuSeconds",
                "policyPackPreview.withCpuSeconds",
                "policyPackPreview.addedCpuSeconds",
            ],
        );
        assert.ok(result.figures.every((figure) => Number.isFinite(figure.value)));
        assert.ok(result.figures[2].value > 0, "no CPU time was counted for the CLI's processes");
        assert.equal(result.figures[4].target?.value, 1.5);
    });
});
