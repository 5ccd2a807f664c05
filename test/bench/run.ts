// npm run bench -- [--out FILE] [--repeats N] [--rounds N] [--stacks N] [--only section,...] [--smoke]
//
// Runs the benchmarks against emulators on loopback, prints a table, then writes one JSON document of
// figures to stdout (last) and to FILE (default test/bench/results/latest.json). Progress goes to stderr.
// Exit status 1 when a section failed (unmet targets are reported, not failures); 2 for a usage error.

import { mkdirSync, writeFileSync } from "fs";
import * as path from "path";
import { ALL_SECTIONS, BenchOptions, FULL_OPTIONS, SMOKE_OPTIONS, runBench } from "./bench";
import { SectionName, renderTable } from "./figures";

const USAGE = "usage: npm run bench -- [--out FILE] [--repeats N] [--rounds N] [--stacks N] [--only section,...] [--smoke]";
export const DEFAULT_OUT = path.join(__dirname, "results", "latest.json");

export interface CliOptions {
    out: string;
    bench: BenchOptions;
}

export function parseArguments(args: readonly string[]): CliOptions {
    let bench: BenchOptions = FULL_OPTIONS;
    let out = DEFAULT_OUT;
    const overrides: ((options: BenchOptions) => BenchOptions)[] = [];
    for (let i = 0; i < args.length; i++) {
        const arg = args[i];
        const value = (): string => {
            const next = args[++i];
            if (next === undefined) throw new Error(`${arg} needs a value`);
            return next;
        };
        const count = (): number => {
            const text = value();
            if (!/^[1-9]\d*$/.test(text)) throw new Error(`${arg} needs a positive integer`);
            return Number(text);
        };
        switch (arg) {
            case "--smoke":
                bench = SMOKE_OPTIONS;
                break;
            case "--out":
                out = path.resolve(value());
                break;
            case "--repeats": {
                const repeats = count();
                overrides.push((o) => ({ ...o, lag: { ...o.lag, repeats } }));
                break;
            }
            case "--rounds": {
                const rounds = count();
                overrides.push((o) => ({ ...o, coldStartRounds: rounds }));
                break;
            }
            case "--stacks": {
                const stacks = count();
                overrides.push((o) => ({ ...o, fleet: { ...o.fleet, stacks } }));
                break;
            }
            case "--only": {
                const sections = value().split(",") as SectionName[];
                const unknown = sections.filter((s) => !ALL_SECTIONS.includes(s));
                if (unknown.length > 0) throw new Error(`unknown section(s) ${unknown.join(", ")}; sections: ${ALL_SECTIONS.join(", ")}`);
                overrides.push((o) => ({ ...o, sections }));
                break;
            }
            default:
                throw new Error(`unknown argument ${arg}`);
        }
    }
    return { out, bench: overrides.reduce((options, apply) => apply(options), bench) };
}

async function main(): Promise<void> {
    let cli: CliOptions;
    try {
        cli = parseArguments(process.argv.slice(2));
    } catch (error) {
        process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
        process.exit(2);
    }
    const document = await runBench(cli.bench, (line) => process.stderr.write(`bench: ${line}\n`));
    const json = JSON.stringify(document, null, 2);
    mkdirSync(path.dirname(cli.out), { recursive: true });
    writeFileSync(cli.out, `${json}\n`);
    process.stdout.write(`${renderTable(document)}\n\n`);
    process.stderr.write(`bench: figures written to ${path.relative(process.cwd(), cli.out) || cli.out}\n`);
    process.stdout.write(`${json}\n`);
    process.exitCode = document.skipped.some((s) => s.failed) ? 1 : 0;
}

if (require.main === module) {
    main().catch((error: unknown) => {
        process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
        process.exit(1);
    });
}
