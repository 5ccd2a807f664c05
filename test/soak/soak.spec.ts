// The short soak CI runs: fixed seeds, a few steps each (kills in processes of their own among them). A failure names
// the seed, the step, what broke, and the command that replays it. `npm run soak` runs longer ones, any seed.
import * as assert from "assert";
import { runSoak } from "./soak";
import { describeStep, parseSoakArguments } from "./cli";
import { Random } from "./random";
import { nextStep } from "./steps";

/** Seeds whose first steps cover every kind of fault, a force removal and a refused layout between them. */
const SEEDS = [3, 8];
const STEPS = 8;

describe("soak: ClusterScale under random interleavings of layouts and faults", function () {
    this.timeout(180_000);
    for (const seed of SEEDS) {
        it(`seed ${seed}, ${STEPS} steps: every invariant holds after every step`, async () => {
            const result = await runSoak({ seed, steps: STEPS });
            const failure = result.failure;
            assert.ok(
                failure === undefined,
                failure &&
                    `seed ${seed}, step ${failure.step}:\n${failure.broken.join("\n")}\nreplay: ${failure.replay}\n${result.steps.map(describeStep).join("\n")}`,
            );
            assert.strictEqual(result.steps.length, STEPS);
            assert.ok(
                result.steps.some((step) => step.fault !== undefined),
                "no fault was injected",
            );
        });
    }

    it("the same seed draws the same steps; the command line takes a seed and a step count", () => {
        const draw = (seed: number) => {
            const random = new Random(seed);
            return Array.from({ length: 30 }, (_, i) => nextStep(random, { brokers: 3, partitions: 3, replicationFactor: 3, shortfall: 0 }, i + 1));
        };
        assert.deepStrictEqual(draw(7), draw(7));
        assert.notDeepStrictEqual(draw(7), draw(8));
        assert.deepStrictEqual(parseSoakArguments(["--seed", "42", "--steps", "5"]), { seed: 42, steps: 5 });
        assert.throws(() => parseSoakArguments(["--steps", "0"]), /at least 1/);
        assert.throws(() => parseSoakArguments(["--seed", "x"]), /non-negative integer/);
    });
});
