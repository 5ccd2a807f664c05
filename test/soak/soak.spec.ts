// The short soak CI runs: fixed seeds, a few steps each (kills in processes of their own among them). A failure names
// the seed, the step, what broke, and the command that replays it. `npm run soak` runs longer ones, any seed.
import * as assert from "assert";
import { parseSoakArguments } from "./cli";
import { soakCase } from "./soakCase";
import { Random } from "./random";
import { nextStep } from "./steps";

describe("soak: ClusterScale under random interleavings of layouts and faults", function () {
    this.timeout(180_000);
    // Its first steps: force removals, a refused layout, 503s on the layout request and on the /scale write.
    soakCase(3, 8);

    it("the same seed draws the same steps; the command line takes a seed and a step count", () => {
        const draw = (seed: number) => {
            const random = new Random(seed);
            return Array.from({ length: 30 }, (_, i) => nextStep(random, { brokers: 3, partitions: 3, replicationFactor: 3, shortfall: 0 }, i + 1));
        };
        assert.deepStrictEqual(draw(7), draw(7));
        assert.notDeepStrictEqual(draw(7), draw(8));
        assert.deepStrictEqual(parseSoakArguments(["--seed", "42", "--steps", "5"]), { seed: 42, steps: 5, organization: false });
        assert.throws(() => parseSoakArguments(["--steps", "0"]), /at least 1/);
        assert.throws(() => parseSoakArguments(["--seed", "x"]), /non-negative integer/);
    });
});
