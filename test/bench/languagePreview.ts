// 11. The same preview from two languages: one ClusterScale previewed by a TypeScript program (the dynamic resource)
// and by a Python program (the provider plugin, the SDK generated from its schema), under the same real CLI against
// the same emulator, alternately. Target: Python at most 1 s slower (median). Needs the languages tier's tools
// (`npm run tools:languages`); without them the section is skipped, saying so.
import * as path from "path";
import { CliStack } from "../cli/cliStack";
import { startEmulator } from "../emulator";
import { languageSetup } from "../languages/languageTools";
import { PULUMI_SDK_MATCH } from "../tools/pulumi";
import { SectionResult, figure } from "./figures";
import { median } from "./stats";

export interface LanguagePreviewOptions {
    /** Previews per language. */
    rounds: number;
}

export const DEFAULT_LANGUAGE_PREVIEW: LanguagePreviewOptions = { rounds: 7 };

const PROGRAMS = path.join(__dirname, "programs");

export async function benchLanguagePreview(options: LanguagePreviewOptions = DEFAULT_LANGUAGE_PREVIEW): Promise<SectionResult> {
    const python = await languageSetup("python"); // throws, naming the missing tool, when they are not built
    const emulator = await startEmulator({ brokers: 3, partitions: 3, replicationFactor: 3, opMs: 10 });
    const config = { managementUrl: emulator.managementUrl };
    const stacks: CliStack[] = [];
    try {
        const typescript = await CliStack.create({ example: path.join(PROGRAMS, "previewTypeScript"), version: PULUMI_SDK_MATCH, config });
        stacks.push(typescript);
        const py = await CliStack.create({
            example: path.join(PROGRAMS, "previewPython"),
            version: PULUMI_SDK_MATCH,
            config,
            runner: python.runner,
            env: python.env,
        });
        stacks.push(py);
        py.addEnv(python.prepare(py.programDir));
        const timed = async (stack: CliStack): Promise<number> => {
            const started = process.hrtime.bigint();
            const result = await stack.preview();
            if (result.exitCode !== 0) throw new Error(`preview failed:\n${result.lines.join("\n")}`);
            return Number(process.hrtime.bigint() - started) / 1e6;
        };
        // One unmeasured preview each (the program servers start, caches fill), then alternately.
        await timed(typescript);
        await timed(py);
        const ms = { typescript: [] as number[], python: [] as number[] };
        for (let round = 0; round < options.rounds; round++) {
            ms.typescript.push(await timed(typescript));
            ms.python.push(await timed(py));
        }
        const ts = median(ms.typescript);
        const pyMedian = median(ms.python);
        return {
            figures: [
                figure(
                    "languagePreview",
                    "typescriptMs",
                    "preview of one ClusterScale, TypeScript (dynamic resource), median",
                    Math.round(ts),
                    "ms",
                    null,
                    ms.typescript.length,
                ),
                figure("languagePreview", "pythonMs", "the same from Python (provider plugin), median", Math.round(pyMedian), "ms", null, ms.python.length),
                figure("languagePreview", "pythonExtraMs", "Python's preview minus TypeScript's (medians)", Math.round(pyMedian - ts), "ms", {
                    op: "<=",
                    value: 1000,
                }),
            ],
            details: { cli: PULUMI_SDK_MATCH, rounds: options.rounds, ms },
        };
    } finally {
        for (const stack of stacks) stack.dispose();
        await emulator.close();
    }
}
