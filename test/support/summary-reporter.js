// Mocha's spec output for people, plus a machine-readable summary for CI (.ci/run reads it).
"use strict";
const fs = require("fs");
const path = require("path");
const Mocha = require("mocha");

const { EVENT_RUN_END } = Mocha.Runner.constants;

class SummaryReporter extends Mocha.reporters.Spec {
    constructor(runner, options) {
        super(runner, options);
        const file = process.env.MOCHA_SUMMARY_FILE || path.join(process.cwd(), "test-results.json");
        runner.once(EVENT_RUN_END, () => {
            const { passes, failures, pending, tests } = runner.stats ?? this.stats;
            fs.writeFileSync(file, JSON.stringify({ passed: passes, failed: failures, pending, tests }) + "\n");
        });
    }
}

module.exports = SummaryReporter;
