// 10. Soak of the administration resources: a long seeded run of `npm run soak -- --organization` (random programs
// over members, a cluster, its clients, secrets and allowlist; kills, lost answers, 429s, listing lag, changes in the
// web console), and how fast it goes: steps per minute, invariants held, invariants broken (target: none).

import { runOrganizationSoak } from "../soak/organization/soak";
import { SectionResult, figure } from "./figures";

export interface OrganizationSoakBenchOptions {
    seed: number;
    steps: number;
}

/** Not the CI soak's seed: the bench covers other interleavings. */
export const DEFAULT_ORGANIZATION_SOAK: OrganizationSoakBenchOptions = { seed: 2027, steps: 40 };

export async function benchOrganizationSoak(options: OrganizationSoakBenchOptions = DEFAULT_ORGANIZATION_SOAK): Promise<SectionResult> {
    const result = await runOrganizationSoak(options);
    const held = result.steps.reduce((sum, step) => sum + step.checked - step.broken.length, 0);
    const broken = result.steps.reduce((sum, step) => sum + step.broken.length, 0);
    const faults: Record<string, number> = {};
    for (const step of result.steps) {
        const kind = step.fault?.kind ?? "none";
        faults[kind] = (faults[kind] ?? 0) + 1;
    }
    const waysOut = result.steps.flatMap((step) => step.waysOut);
    return {
        figures: [
            figure(
                "organizationSoak",
                "stepsPerMinute",
                `organization soak steps per minute (seed ${options.seed})`,
                Math.round((result.steps.length / result.ms) * 60_000 * 10) / 10,
                "steps/min",
            ),
            figure("organizationSoak", "invariantsHeld", `invariants held over ${result.steps.length} steps`, held, "checks"),
            figure("organizationSoak", "invariantsBroken", "invariants broken", broken, "checks", { op: "==", value: 0 }),
        ],
        details: {
            seed: options.seed,
            server: result.server,
            steps: result.steps.length,
            ms: result.ms,
            faults,
            waysOut,
            ...(result.failure ? { failure: result.failure } : {}),
        },
    };
}
