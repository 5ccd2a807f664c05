// One seeded soak as a test: every invariant holds after every step, and at least one fault was injected. A failure
// names the seed, the step, what broke and the command that replays it, with every step's line.
import * as assert from "assert";
import { describeStep } from "./cli";
import { runSoak } from "./soak";

export function soakCase(seed: number, steps: number): void {
    it(`seed ${seed}, ${steps} steps: every invariant holds after every step`, async () => {
        const result = await runSoak({ seed, steps });
        const failure = result.failure;
        assert.ok(
            failure === undefined,
            failure &&
                `seed ${seed}, step ${failure.step}:\n${failure.broken.join("\n")}\nreplay: ${failure.replay}\n${result.steps.map(describeStep).join("\n")}`,
        );
        assert.strictEqual(result.steps.length, steps);
        assert.ok(
            result.steps.some((step) => step.fault !== undefined),
            "no fault was injected",
        );
    });
}
