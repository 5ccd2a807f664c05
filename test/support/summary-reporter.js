// Mocha's spec output for people, plus a machine-readable summary for CI (.ci/run reads it): the counts, and where the
// time went, per file (the sum of its tests' durations; hooks such as an emulator's start are not in it), the slowest
// printed at the end.
"use strict";
const fs = require("fs");
const path = require("path");
const Mocha = require("mocha");

const { EVENT_RUN_END, EVENT_TEST_PASS, EVENT_TEST_FAIL } = Mocha.Runner.constants;
const SLOWEST_SHOWN = 12;

class SummaryReporter extends Mocha.reporters.Spec {
    constructor(runner, options) {
        super(runner, options);
        const file = process.env.MOCHA_SUMMARY_FILE || path.join(process.cwd(), "test-results.json");
        const perFile = new Map();
        const record = (test) => {
            const name = test.file ? path.relative(process.cwd(), test.file) : "(unknown file)";
            const entry = perFile.get(name) ?? { ms: 0, tests: 0 };
            entry.ms += test.duration ?? 0;
            entry.tests += 1;
            perFile.set(name, entry);
        };
        runner.on(EVENT_TEST_PASS, record);
        runner.on(EVENT_TEST_FAIL, record);
        runner.once(EVENT_RUN_END, () => {
            const { passes, failures, pending, tests } = runner.stats ?? this.stats;
            const files = [...perFile.entries()].sort((a, b) => b[1].ms - a[1].ms);
            const slowest = files
                .slice(0, SLOWEST_SHOWN)
                .map(([name, { ms, tests }]) => `  ${(ms / 1000).toFixed(1).padStart(7)} s  ${String(tests).padStart(3)} tests  ${name}`);
            process.stdout.write(`\nThe slowest files (their tests' time, summed):\n${slowest.join("\n")}\n`);
            const timings = Object.fromEntries(files.map(([name, { ms, tests }]) => [name, { seconds: Math.round(ms / 100) / 10, tests }]));
            fs.writeFileSync(file, JSON.stringify({ passed: passes, failed: failures, pending, tests, files: timings }) + "\n");
        });
    }
}

module.exports = SummaryReporter;
