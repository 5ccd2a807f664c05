// 9. Soak: a long seeded soak of ClusterScale (npm run soak's steps: random layouts and faults, the invariants checked
// after each), and how fast it goes: steps per minute, invariants held, invariants broken (target: none).

import { runSoak } from "../soak/soak";
import { SectionResult, figure } from "./figures";

export interface SoakBenchOptions {
    seed: number;
    steps: number;
}

/** Not one of the CI soak's seeds: the bench covers other interleavings. */
export const DEFAULT_SOAK: SoakBenchOptions = { seed: 2026, steps: 60 };

export async function benchSoak(options: SoakBenchOptions = DEFAULT_SOAK): Promise<SectionResult> {
    const result = await runSoak(options);
    const held = result.steps.reduce((sum, step) => sum + step.checked - step.broken.length, 0);
    const broken = result.steps.reduce((sum, step) => sum + step.broken.length, 0);
    const faults: Record<string, number> = {};
    for (const step of result.steps) {
        const kind = step.fault?.kind ?? (step.refused ? "refused layout" : step.crash !== undefined ? "force removal" : "none");
        faults[kind] = (faults[kind] ?? 0) + 1;
    }
    return {
        figures: [
            figure(
                "soak",
                "stepsPerMinute",
                `soak steps per minute (seed ${options.seed})`,
                Math.round((result.steps.length / result.ms) * 60_000 * 10) / 10,
                "steps/min",
            ),
            figure("soak", "invariantsHeld", `invariants held over ${result.steps.length} steps`, held, "checks"),
            figure("soak", "invariantsBroken", "invariants broken", broken, "checks", { op: "==", value: 0 }),
        ],
        details: { seed: options.seed, steps: result.steps.length, ms: result.ms, faults, ...(result.failure ? { failure: result.failure } : {}) },
    };
}
