// 14. What the policy pack adds to a preview: one ClusterScale previewed under the real CLI with and without
// `--policy-pack policy-pack/`, alternately, on a stack none of its policies objects to. Wall time and the CPU time of
// the CLI's process tree (the CLI, the provider host, the pack's process: the children this process waited for), each
// a median. Target: the pack adds at most 1.5 CPU-seconds. Needs the CLI (`npm run tools:pulumi`).
import * as fs from "fs";
import * as path from "path";
import { CliStack } from "../cli/cliStack";
import { startEmulator } from "../emulator";
import { PULUMI_SDK_MATCH } from "../tools/pulumi";
import { SectionResult, figure } from "./figures";
import { median } from "./stats";

export interface PolicyPackPreviewOptions {
    /** Previews each way. */
    rounds: number;
}

export const DEFAULT_POLICY_PACK_PREVIEW: PolicyPackPreviewOptions = { rounds: 5 };

const PROGRAM = path.join(__dirname, "programs", "previewTypeScript");
const PACK = path.resolve(__dirname, "..", "..", "policy-pack");

/** CPU seconds of this process's children that have ended and been waited for (utime + stime of /proc/self/stat). */
function childrenCpuSeconds(): number {
    const fields = fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    // After the command's name: state is field 3, so cutime (16) and cstime (17) are at 13 and 14.
    return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** One timed preview: its wall time and the CPU of the CLI's process tree. */
interface TimedPreview {
    ms: number;
    cpuSeconds: number;
}

export async function benchPolicyPackPreview(options: PolicyPackPreviewOptions = DEFAULT_POLICY_PACK_PREVIEW): Promise<SectionResult> {
    const emulator = await startEmulator({ brokers: 3, partitions: 3, replicationFactor: 3, opMs: 10 });
    let stack: CliStack | undefined;
    try {
        stack = await CliStack.create({ example: PROGRAM, version: PULUMI_SDK_MATCH, config: { managementUrl: emulator.managementUrl } });
        stack.installPolicyHost();
        const preview = async (...extra: string[]): Promise<TimedPreview> => {
            const cpu = childrenCpuSeconds();
            const started = process.hrtime.bigint();
            const result = await stack!.preview(...extra);
            if (result.exitCode !== 0) throw new Error(`preview ${extra.join(" ")} failed:\n${result.lines.join("\n")}`);
            return { ms: Number(process.hrtime.bigint() - started) / 1e6, cpuSeconds: childrenCpuSeconds() - cpu };
        };
        // One unmeasured preview each (the program server starts, caches fill), then alternately.
        await preview();
        await preview("--policy-pack", PACK);
        const runs = { without: [] as TimedPreview[], with: [] as TimedPreview[] };
        for (let round = 0; round < options.rounds; round++) {
            runs.without.push(await preview());
            runs.with.push(await preview("--policy-pack", PACK));
        }
        const ms = (list: TimedPreview[]) => Math.round(median(list.map((run) => run.ms)));
        const cpu = (list: TimedPreview[]) => Math.round(median(list.map((run) => run.cpuSeconds)) * 100) / 100;
        const rounds = options.rounds;
        return {
            figures: [
                figure("policyPackPreview", "withoutMs", "preview of one ClusterScale, without the pack, median", ms(runs.without), "ms", null, rounds),
                figure("policyPackPreview", "withMs", "the same with --policy-pack, median", ms(runs.with), "ms", null, rounds),
                figure("policyPackPreview", "withoutCpuSeconds", "CPU of the CLI's processes, without the pack, median", cpu(runs.without), "s", null, rounds),
                figure("policyPackPreview", "withCpuSeconds", "the same with the pack, median", cpu(runs.with), "s", null, rounds),
                figure(
                    "policyPackPreview",
                    "addedCpuSeconds",
                    "CPU the pack adds to a preview (medians)",
                    Math.round((cpu(runs.with) - cpu(runs.without)) * 100) / 100,
                    "s",
                    { op: "<=", value: 1.5 },
                ),
            ],
            details: { cli: PULUMI_SDK_MATCH, rounds, runs },
        };
    } finally {
        stack?.dispose();
        await emulator.close();
    }
}
