// Keeps the benchmark harness working: runs every section in a tiny configuration and checks the shape
// and the internal consistency of the document. Figures are never compared with their targets here:
// benchmarks measure, tests do not assert times.
import * as assert from "assert";
import { ALL_SECTIONS, SMOKE_OPTIONS, runBench } from "./bench";
import { BenchDocument, figure, meets, renderTable } from "./figures";
import { DEFAULT_OUT, parseArguments } from "./run";
import { median, percentile } from "./stats";

describe("bench: harness", function () {
    describe("statistics and targets", () => {
        it("percentiles interpolate between the closest ranks", () => {
            assert.strictEqual(median([5, 1, 3]), 3);
            assert.strictEqual(median([4, 1, 3, 2]), 2.5);
            assert.strictEqual(percentile([10, 20, 30, 40, 50], 95), 48);
            assert.strictEqual(percentile([7], 95), 7);
            assert.throws(() => median([]));
        });

        it("a figure is met exactly when its value satisfies the target, and has no verdict without one", () => {
            assert.strictEqual(meets(100, { op: "<=", value: 100 }), true);
            assert.strictEqual(meets(100.1, { op: "<=", value: 100 }), false);
            assert.strictEqual(meets(1, { op: "==", value: 1 }), true);
            assert.strictEqual(meets(2, { op: "==", value: 1 }), false);
            assert.strictEqual(figure("tokens", "x", "x", 3, "requests").met, null);
            assert.strictEqual(figure("tokens", "x", "x", 3, "requests", { op: "<=", value: 1 }).met, false);
        });
    });

    describe("command line", () => {
        it("defaults to the full run written to results/latest.json, and takes overrides", () => {
            const defaults = parseArguments([]);
            assert.strictEqual(defaults.out, DEFAULT_OUT);
            assert.deepStrictEqual(defaults.bench.sections, ALL_SECTIONS);
            const custom = parseArguments(["--smoke", "--repeats", "3", "--rounds", "2", "--only", "scale,tokens", "--out", "x.json"]);
            assert.strictEqual(custom.bench.lag.repeats, 3);
            assert.strictEqual(custom.bench.coldStartRounds, 2);
            assert.deepStrictEqual(custom.bench.sections, ["scale", "tokens"]);
            assert.strictEqual(custom.bench.tokens.resources, SMOKE_OPTIONS.tokens.resources);
            assert.ok(custom.out.endsWith("x.json"));
        });

        it("rejects unknown arguments, unknown sections and non-numbers", () => {
            assert.throws(() => parseArguments(["--fast"]), /unknown argument/);
            assert.throws(() => parseArguments(["--only", "speed"]), /unknown section/);
            assert.throws(() => parseArguments(["--repeats", "0"]), /positive integer/);
            assert.throws(() => parseArguments(["--out"]), /needs a value/);
        });
    });

    describe("a tiny run of every section", function () {
        this.timeout(240_000);
        let document: BenchDocument;

        before(async () => {
            document = await runBench({ ...SMOKE_OPTIONS, tokens: { resources: 2, runs: 2, method: "engine" } });
        });

        it("runs every section and skips none (section 11 but in the languages tier)", () => {
            assert.deepStrictEqual(document.skipped, []);
            for (const section of SMOKE_OPTIONS.sections) {
                assert.ok(
                    document.figures.some((f) => f.section === section),
                    `no figures from ${section}`,
                );
                assert.ok(document.details[section], `no details from ${section}`);
            }
        });

        it("gives every figure a unique id, a finite value, a unit, and a verdict that follows from its target", () => {
            const ids = document.figures.map((f) => f.id);
            assert.strictEqual(new Set(ids).size, ids.length, "duplicate figure ids");
            for (const f of document.figures) {
                assert.ok(Number.isFinite(f.value), `${f.id} = ${f.value}`);
                assert.ok(f.unit.length > 0, `${f.id} has no unit`);
                assert.strictEqual(f.met, f.target === null ? null : meets(f.value, f.target), f.id);
            }
            const withTargets = document.figures.filter((f) => f.target !== null);
            assert.strictEqual(document.targets.total, withTargets.length);
            assert.strictEqual(document.targets.met + document.targets.notMet.length, document.targets.total);
        });

        it("counts requests from the emulator's log", () => {
            const value = (id: string) => {
                const found = document.figures.find((f) => f.id === id);
                assert.ok(found, `no figure ${id}`);
                return found.value;
            };
            // Every resource listed the members once in the up, and once in each pass of the refresh (its preview, then
            // the refresh itself); at least one token was fetched.
            assert.strictEqual(value("tokens.adminRequests"), 2 + 2 * 2);
            assert.ok(value("tokens.tokenRequests") >= 1);
            assert.match(String((document.details.tokens as { method: string }).method), /^engine/);
            // Each change was watched by every poller, each of which sent at least one GET.
            const lag = document.details.completionLag as { cases: { samples: { gets: Record<string, number>; operations: number }[] }[] };
            const samples = lag.cases.flatMap((c) => c.samples);
            assert.strictEqual(samples.length, SMOKE_OPTIONS.lag.repeats);
            for (const sample of samples) {
                assert.deepStrictEqual(Object.keys(sample.gets).sort(), ["fixed100ms", "sdk"]);
                assert.ok(
                    Object.values(sample.gets).every((gets) => gets >= 1),
                    JSON.stringify(sample.gets),
                );
                assert.strictEqual(sample.operations, 5);
            }
            assert.ok(value("previewCost.dryRunsPerDiff") >= 1, "the diff sent no dry run the log shows");
            assert.ok(value("scale.plan.operations") > 0);
        });

        it("renders a table with every section and the targets summary", () => {
            const table = renderTable(document);
            for (const title of ["1. Preview cost", "2. Completion-detection lag", "3. Tokens", "4. Scale", "5. Host cold start"]) {
                assert.ok(table.includes(title), `${title} missing from\n${table}`);
            }
            assert.match(table, /targets met: \d+ of \d+/);
        });
    });
});
