// Runs the benchmark sections one after the other (so they do not disturb one another) and gathers
// their figures into one JSON document. A section that cannot run is listed with the reason; the
// others still run.

import { execFileSync } from "child_process";
import * as os from "os";
import * as path from "path";
import { DEFAULT_CASES, DEFAULT_FIXED_INTERVALS_MS, ChangeCase, benchCompletionLag, changeCase } from "./completionLag";
import { benchColdStart } from "./coldStart";
import { startEmulatorProcess } from "./emulatorProcess";
import { BenchDocument, SectionName, SectionResult, summarizeTargets } from "./figures";
import { TRIVIAL, adminClientHosted, clusterScaleColdStartCases, clusterScaleUnavailable, trivialHosted } from "./hostedProviders";
import { benchPreviewCost } from "./previewCost";
import { DEFAULT_ORGANIZATION, OrganizationOptions, benchOrganization } from "./organization";
import { DEFAULT_ROLLOUT, RolloutLagOptions, benchRolloutLag } from "./rolloutLag";
import { DEFAULT_SOAK, SoakBenchOptions, benchSoak } from "./soak";
import { DEFAULT_ORGANIZATION_SOAK, OrganizationSoakBenchOptions, benchOrganizationSoak } from "./organizationSoak";
import { DEFAULT_FLEET, FleetOptions, benchFleet } from "./fleet";
import { DEFAULT_PLUGIN_PACKAGING, PluginPackagingOptions, benchPluginPackaging } from "./pluginPackaging";
import { DEFAULT_POLICY_PACK_PREVIEW, PolicyPackPreviewOptions, benchPolicyPackPreview } from "./policyPackPreview";
import { DEFAULT_LANGUAGE_PREVIEW, LanguagePreviewOptions, benchLanguagePreview } from "./languagePreview";
import { DEFAULT_SCALE, ScaleOptions, benchScale } from "./scale";
import { DEFAULT_STATE, StateOptions, benchState } from "./stateSize";
import { DEFAULT_TOKENS, TokenOptions, benchTokens } from "./tokens";

export interface BenchOptions {
    sections: SectionName[];
    lag: { cases: ChangeCase[]; repeats: number; fixedIntervalsMs: number[] };
    scale: ScaleOptions;
    tokens: TokenOptions;
    state: StateOptions;
    /** Fresh hosts per provider. */
    coldStartRounds: number;
    /** Diffs timed on a warm host. */
    previewDiffs: number;
    rollout: RolloutLagOptions;
    organization: OrganizationOptions;
    soak: SoakBenchOptions;
    organizationSoak: OrganizationSoakBenchOptions;
    languagePreview: LanguagePreviewOptions;
    fleet: FleetOptions;
    pluginPackaging: PluginPackagingOptions;
    policyPackPreview: PolicyPackPreviewOptions;
}

export const ALL_SECTIONS: SectionName[] = [
    "scale",
    "completionLag",
    "tokens",
    "coldStart",
    "previewCost",
    "state",
    "rolloutLag",
    "organization",
    "soak",
    "organizationSoak",
    "languagePreview",
    "fleet",
    "pluginPackaging",
    "policyPackPreview",
];

/** The full run: about 10 minutes on 2 cores (the organization soak about 4 of them, the fleet about 3). */
export const FULL_OPTIONS: BenchOptions = {
    sections: ALL_SECTIONS,
    lag: { cases: DEFAULT_CASES, repeats: 15, fixedIntervalsMs: DEFAULT_FIXED_INTERVALS_MS },
    scale: DEFAULT_SCALE,
    tokens: DEFAULT_TOKENS,
    state: DEFAULT_STATE,
    coldStartRounds: 5,
    previewDiffs: 20,
    rollout: DEFAULT_ROLLOUT,
    organization: DEFAULT_ORGANIZATION,
    soak: DEFAULT_SOAK,
    organizationSoak: DEFAULT_ORGANIZATION_SOAK,
    languagePreview: DEFAULT_LANGUAGE_PREVIEW,
    fleet: DEFAULT_FLEET,
    pluginPackaging: DEFAULT_PLUGIN_PACKAGING,
    policyPackPreview: DEFAULT_POLICY_PACK_PREVIEW,
};

/** A tiny configuration that exercises every code path in seconds (its figures mean nothing). */
export const SMOKE_OPTIONS: BenchOptions = {
    // Sections 11, 12 and 14 need the real CLI (11 the languages tier's tools too), 13 writes two archives (one of 45
    // MB): their tiers run their tiny versions.
    sections: ALL_SECTIONS.filter((section) => !["languagePreview", "fleet", "pluginPackaging", "policyPackPreview"].includes(section)),
    lag: { cases: [changeCase(5, 10)], repeats: 2, fixedIntervalsMs: [100] },
    scale: { fromBrokers: 4, toBrokers: 8, partitions: 16, replicationFactor: 3, iterations: 2 },
    tokens: { resources: 3, runs: 2, method: "sdk" },
    state: { largeBrokers: 6, largePartitions: 12 },
    coldStartRounds: 1,
    previewDiffs: 2,
    rollout: { repeats: 1 },
    organization: { members: 3, clients: 2, secrets: 2, repeats: 1, inProcess: true },
    soak: { seed: 3, steps: 1 },
    organizationSoak: { seed: 3, steps: 1 },
    languagePreview: { rounds: 1 },
    fleet: { stacks: 3, slowAnswerMs: 500 },
    pluginPackaging: { rounds: 1 },
    policyPackPreview: { rounds: 1 },
};

type Progress = (line: string) => void;

export async function runBench(options: BenchOptions, progress: Progress = () => undefined): Promise<BenchDocument> {
    const startedAt = new Date();
    const loadAverageAtStart = os.loadavg().map((load) => Math.round(load * 100) / 100);
    const document: BenchDocument = {
        format: "pulumi-platform-bench/1",
        startedAt: startedAt.toISOString(),
        durationMs: 0,
        commit: commitOf(),
        machine: {
            cpus: os.cpus().length,
            cpuModel: os.cpus()[0]?.model ?? "unknown",
            memoryMB: Math.round(os.totalmem() / 2 ** 20),
            node: process.version,
            platform: `${process.platform} ${process.arch}`,
            loadAverageAtStart,
        },
        options: { ...options, lag: { ...options.lag, cases: options.lag.cases.map((c) => `${c.operations} ops x ${c.opMs} ms`) } },
        figures: [],
        targets: { total: 0, met: 0, notMet: [] },
        skipped: [],
        details: {},
    };
    const fleet = await startEmulatorProcess(Math.max(1, options.lag.cases.length));
    const [emulator] = fleet.emulators;
    const record = (section: SectionName, result: SectionResult): void => {
        document.figures.push(...result.figures);
        document.details[section] = result.details;
    };
    const sections: Record<SectionName, () => Promise<void>> = {
        scale: async () => record("scale", await benchScale(emulator, options.scale)),
        completionLag: async () => record("completionLag", await benchCompletionLag(fleet.emulators, options.lag)),
        tokens: async () => record("tokens", await benchTokens(emulator, options.tokens)),
        coldStart: async () => {
            await emulator.reset({});
            const providers = [await trivialHosted(), await adminClientHosted(emulator.urls)];
            const unavailable = clusterScaleUnavailable();
            if (unavailable === undefined) providers.push(...(await clusterScaleColdStartCases(emulator.urls, { brokerCount: 3 })));
            else document.skipped.push({ section: "coldStart", reason: `ClusterScale not measured: ${unavailable}`, failed: false });
            record("coldStart", await benchColdStart(providers, TRIVIAL, options.coldStartRounds));
        },
        state: async () => record("state", await benchState(emulator, options.state)),
        rolloutLag: async () => record("rolloutLag", await benchRolloutLag(options.rollout)),
        organization: async () => record("organization", await benchOrganization(emulator, options.organization)),
        soak: async () => record("soak", await benchSoak(options.soak)),
        organizationSoak: async () => record("organizationSoak", await benchOrganizationSoak(options.organizationSoak)),
        languagePreview: async () => record("languagePreview", await benchLanguagePreview(options.languagePreview)),
        fleet: async () => record("fleet", await benchFleet(options.fleet)),
        pluginPackaging: async () => record("pluginPackaging", await benchPluginPackaging(options.pluginPackaging)),
        policyPackPreview: async () => record("policyPackPreview", await benchPolicyPackPreview(options.policyPackPreview)),
        previewCost: async () => {
            const unavailable = clusterScaleUnavailable();
            if (unavailable !== undefined) {
                document.skipped.push({ section: "previewCost", reason: unavailable, failed: false });
                return;
            }
            record("previewCost", await benchPreviewCost(emulator, { diffs: options.previewDiffs }));
        },
    };
    try {
        for (const section of ALL_SECTIONS.filter((s) => options.sections.includes(s))) {
            const sectionStart = Date.now();
            progress(`${section}: running`);
            try {
                await sections[section]();
                progress(`${section}: done in ${((Date.now() - sectionStart) / 1000).toFixed(1)} s`);
            } catch (error) {
                const reason = error instanceof Error ? error.message : String(error);
                document.skipped.push({ section, reason, failed: true });
                progress(`${section}: failed: ${reason}`);
            }
        }
    } finally {
        await fleet.stop();
    }
    document.durationMs = Date.now() - startedAt.getTime();
    document.targets = summarizeTargets(document.figures);
    return document;
}

/** The commit measured, and whether the work tree differed from it (read-only git commands). */
function commitOf(): BenchDocument["commit"] {
    const cwd = path.resolve(__dirname, "..", "..");
    try {
        const id = execFileSync("git", ["rev-parse", "HEAD"], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
        const status = execFileSync("git", ["status", "--porcelain"], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
        return { id, dirty: status.trim() !== "" };
    } catch {
        return { id: null, dirty: null };
    }
}
