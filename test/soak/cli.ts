// npm run soak -- [--organization] [--seed S] [--steps N]
//
// A seeded random sequence of ClusterScale layouts and faults against the emulator and its Kubernetes stand-in, the
// invariants checked after every step. One line per step; on a broken invariant, the seed, the step, what broke and
// the command that replays it, and exit status 1. Without --seed, a seed of the clock's (printed first). With
// --organization, the administration resources' soak (organization/soak.ts) instead of ClusterScale's.

import { StepReport, replayCommand, runSoak } from "./soak";
import { type OrganizationStepReport, organizationReplayCommand, runOrganizationSoak } from "./organization/soak";

const USAGE = "usage: npm run soak -- [--organization] [--seed S] [--steps N]";

export function parseSoakArguments(args: readonly string[]): { seed: number; steps: number; organization: boolean } {
    let seed = Date.now() % 1_000_000;
    let steps = 20;
    let organization = false;
    for (let i = 0; i < args.length; i++) {
        const value = args[i + 1];
        const number = () => {
            if (value === undefined || !/^\d+$/.test(value)) throw new Error(`${args[i]} needs a non-negative integer`);
            i++;
            return Number(value);
        };
        if (args[i] === "--organization") organization = true;
        else if (args[i] === "--seed") seed = number();
        else if (args[i] === "--steps") steps = number();
        else throw new Error(`unknown argument ${args[i]}`);
    }
    if (steps < 1) throw new Error("--steps needs at least 1");
    return { seed, steps, organization };
}

export function describeStep(report: StepReport): string {
    const { layout } = report;
    const what = [
        `brokers ${layout.brokerCount}, partitions ${layout.partitionCount}, replication ${layout.replicationFactor}, volumes ${layout.volumes}${layout.force ? ", force" : ""}`,
        ...(report.refused ? [`refused (${report.refused})`] : []),
        ...(report.crash !== undefined ? [`pod ${report.crash} crashed for good`] : []),
        ...(report.fault ? [`fault ${JSON.stringify(report.fault)}`] : []),
        ...(report.refreshBetween ? ["refresh between"] : []),
        ...(report.resumed ? ["resumed"] : []),
    ];
    return `step ${report.index}: ${what.join("; ")}: ${report.broken.length === 0 ? `${report.checked} invariants held` : "BROKEN"} (${(report.ms / 1000).toFixed(1)} s)`;
}

export function describeOrganizationStep(report: OrganizationStepReport): string {
    const what = [
        report.fault ? `fault ${JSON.stringify(report.fault)}` : "no fault",
        ...(report.outside ? [`web console: ${report.outside}`] : []),
        ...(report.refreshBetween ? ["refresh between"] : []),
        ...(report.waysOut.length > 0 ? [`ways out: ${report.waysOut.join(", ")}`] : []),
        ...(report.resumed ? ["resumed"] : []),
    ];
    return `step ${report.index}: ${what.join("; ")}: ${report.broken.length === 0 ? `${report.checked} invariants held` : "BROKEN"} (${(report.ms / 1000).toFixed(1)} s)`;
}

async function main(): Promise<void> {
    let options: { seed: number; steps: number; organization: boolean };
    try {
        options = parseSoakArguments(process.argv.slice(2));
    } catch (error) {
        process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
        process.exit(2);
    }
    const replay = options.organization ? organizationReplayCommand(options.seed, options.steps) : replayCommand(options.seed, options.steps);
    process.stdout.write(`soak: seed ${options.seed}, ${options.steps} steps (replay: ${replay})\n`);
    const result = options.organization
        ? await runOrganizationSoak({ ...options, onStep: (report) => process.stdout.write(`${describeOrganizationStep(report)}\n`) })
        : await runSoak({ ...options, onStep: (report) => process.stdout.write(`${describeStep(report)}\n`) });
    if ("server" in result) process.stdout.write(`soak: the emulator answered with ${JSON.stringify(result.server)}\n`);
    const held = result.steps.reduce((sum, step) => sum + step.checked - step.broken.length, 0);
    if (result.failure !== undefined) {
        process.stdout.write(
            `soak: seed ${result.seed}, step ${result.failure.step}: invariants broken:\n${result.failure.broken.map((line) => `  - ${line}`).join("\n")}\n`,
        );
        process.stdout.write(`replay: ${result.failure.replay}\n`);
        process.exit(1);
    }
    process.stdout.write(`soak: ${result.steps.length} steps, ${held} invariants held in ${(result.ms / 1000).toFixed(1)} s\n`);
    process.exit(0);
}

if (require.main === module) void main();
