// Keeps bench section 11 (test/bench/languagePreview.ts) working where its tools are: one preview from each language.
// Its figures are the bench's to report, never asserted here.
import assert from "node:assert/strict";
import { benchLanguagePreview } from "../bench/languagePreview";

describe("bench section 11: one preview from TypeScript and from Python", function () {
    this.timeout(180_000);

    it("measures both previews and reports the difference against its target", async () => {
        const result = await benchLanguagePreview({ rounds: 1 });
        assert.deepEqual(
            result.figures.map((figure) => figure.id),
            ["languagePreview.typescriptMs", "languagePreview.pythonMs", "languagePreview.pythonExtraMs"],
        );
        assert.ok(result.figures.every((figure) => Number.isFinite(figure.value)));
        assert.equal(result.figures[2].target?.value, 1000);
    });
});
