// Reliability and security (issue 8): the package attacked the way production attacks it, through the emulator's
// control API, with assertions on the emulator's request log and a leak scan of everything produced.
//
// Each engine run costs seconds of CPU, so the sections do not wait for one another: all of them start in the
// `before` hook below (each section on its own emulator, its scenarios one after another unless it says otherwise,
// at most a few engine runs at once across the suite), and each `it` reports the outcome of its scenario. The leak
// scan over everything the suite produced comes last. RELIABILITY_SECTIONS=2,5 runs only those sections (and the scan).
import * as assert from "assert";
import { badInputs } from "./badInputs";
import { concurrency } from "./concurrency";
import { interruptedApply } from "./interrupted";
import { malformedAnswers } from "./malformedAnswers";
import { Lab, Scenario, Section } from "./support";
import { tokenEndpoint } from "./tokenEndpoint";
import { waitFaults } from "./waitFaults";

describe("reliability and security", function () {
    // Generous: a scenario may wait for engine runs of other sections to free a slot, on a machine other suites share.
    this.timeout(600_000);
    const lab = new Lab();
    const only = process.env.RELIABILITY_SECTIONS?.split(",").map(Number);
    const sections = [badInputs(lab), waitFaults(lab), interruptedApply(lab), concurrency(lab), tokenEndpoint(lab), malformedAnswers(lab)].filter(
        (section) => only === undefined || only.includes(section.number),
    );
    const outcomes = new Map<Scenario, Promise<void>>();

    before(() => {
        for (const section of sections) start(section, outcomes);
    });

    after(async () => {
        await Promise.allSettled(outcomes.values());
        await lab.close();
    });

    for (const section of sections) {
        describe(`${section.number}. ${section.title}`, function () {
            for (const scenario of section.scenarios) it(scenario.name, () => outcomes.get(scenario));
        });
    }

    describe("6. secrets", function () {
        it("nothing the suite produced holds the client secret, another credential or a token", async function () {
            await Promise.allSettled(outcomes.values());
            const scan = lab.ledger.scanEverything([lab.root]);
            assert.deepStrictEqual(scan.leaks, [], scan.leaks.map((leak) => `${leak.where}: ${leak.what}`).join("\n"));
            assert.ok(scan.texts > 0 && scan.files > 0, "the scan saw nothing: it proves nothing");
        });
    });
});

/** Starts the section's scenarios: `parallel` workers (default one) take them in order. */
function start(section: Section, outcomes: Map<Scenario, Promise<void>>): void {
    const settlers = new Map<Scenario, { resolve: () => void; reject: (error: unknown) => void }>();
    for (const scenario of section.scenarios) {
        const outcome = new Promise<void>((resolve, reject) => settlers.set(scenario, { resolve, reject }));
        outcome.catch(() => undefined); // reported by the scenario's `it`
        outcomes.set(scenario, outcome);
    }
    const queue = [...section.scenarios];
    const worker = async (id: number): Promise<void> => {
        for (let scenario = queue.shift(); scenario !== undefined; scenario = queue.shift()) {
            const settle = settlers.get(scenario)!;
            await scenario.run(id).then(settle.resolve, settle.reject);
        }
    };
    for (let id = 0; id < (section.parallel ?? 1); id++) void worker(id);
}
