// The bench's fleet (test/bench/fleet.ts) at its smallest, for its invariants: three stacks started together through
// the Automation API under the real CLI, with a cold token cache they share, one of them against a cluster that
// answers slowly. All pass; one token request reaches the issuer and no 429 comes back; the slow stack holds none of
// the others up. (Its CPU and memory figures are the bench's, never asserted here.)
import assert from "node:assert/strict";
import { fleetFigures, runFleetCase } from "../bench/fleet";

describe("a fleet of stacks side by side (the bench's section 12, three stacks)", function () {
    this.timeout(300_000);

    it("all pass; one token request for the whole fleet, no 429; the slow cluster's stack holds none up", async () => {
        const { lone, fleet } = await runFleetCase({ stacks: 3, slowAnswerMs: 1_000 });
        const failed = [...lone.runs, ...fleet.runs].filter((run) => !run.passed);
        assert.deepEqual(failed, [], "a stack failed");
        const figures = Object.fromEntries(fleetFigures(lone, fleet).map((figure) => [figure.id, figure]));
        for (const id of ["fleet.passed", "fleet.tokenRequests", "fleet.tokenRateLimited"]) {
            assert.equal(figures[id].met, true, `${figures[id].label}: ${figures[id].value} ${figures[id].unit}, target ${JSON.stringify(figures[id].target)}`);
        }
        assert.equal(figures["fleet.tokenRequests"].value, 1);
        // Three stacks leave the cores room: the others end before the one whose every management answer is a second late.
        assert.equal(figures["fleet.othersFinishedFirst"].value, 2, `the slow stack held another up: ${JSON.stringify(fleet.runs)}`);
    });
});
