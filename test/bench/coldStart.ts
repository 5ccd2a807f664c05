// 5. Host cold start: a fresh dynamic-provider host (the process the engine starts for every run), then
// its first Check with our provider vs a trivial one. The first Check is when the host deserializes the
// provider, configures it and loads what it requires; its extra cost over the trivial provider is what
// our code adds to every preview and up. ClusterScale is measured twice: for a resource already in the
// state (Check sends nothing) and for a new one (Check sends the dry run that shows the plan). Hosts are
// started several times, providers taking turns, and medians compared.

import * as path from "path";
import { performance } from "perf_hooks";
import { DynamicHost } from "../engine";
import type { PropertyMap } from "../engine";
import { Figure, SectionResult, figure } from "./figures";
import { median, round } from "./stats";

export const TARGET_EXTRA_FIRST_CHECK_MS = 100;
/** The serialized provider each resource stores in the state. */
export const TARGET_SERIALIZED_BYTES = 2_048;
const REPOSITORY_ROOT = path.resolve(__dirname, "..", "..");
export const BENCH_PROJECT = "bench";

/** A provider as the engine hands it to the host: the serialized text, the stack config, and a resource's inputs. */
export interface HostedProvider {
    /** Names the provider in figure ids, e.g. "clusterScaleNew". */
    key: string;
    /** Names it in the table. */
    name: string;
    /** The URN's type, e.g. pulumi-nodejs:dynamic/platform:ClusterScale. */
    type: string;
    serialized: string;
    config: PropertyMap;
    inputs: PropertyMap;
    /** The old inputs Check gets: empty for a resource not yet in the state (the default). */
    olds?: PropertyMap;
}

export interface ColdStartSample {
    provider: string;
    /** Spawn until the host printed its port. */
    hostStartMs: number;
    firstCheckMs: number;
    secondCheckMs: number;
}

export function urnOf(provider: Pick<HostedProvider, "type">, name: string): string {
    return `urn:pulumi:bench::${BENCH_PROJECT}::${provider.type}::${name}`;
}

async function sampleOnce(provider: HostedProvider): Promise<ColdStartSample> {
    const spawnedAt = performance.now();
    const host = await DynamicHost.start({ cwd: REPOSITORY_ROOT, project: BENCH_PROJECT });
    try {
        const hostStartMs = performance.now() - spawnedAt;
        await host.configure(provider.config);
        const urn = urnOf(provider, "cold");
        const news = { ...provider.inputs, __provider: provider.serialized };
        // Old inputs in the state carry __provider too.
        const olds = provider.olds === undefined ? {} : { ...provider.olds, __provider: provider.serialized };
        const timedCheck = async (): Promise<number> => {
            const start = performance.now();
            const result = await host.check(urn, olds, news);
            const elapsed = performance.now() - start;
            if (result.failures.length > 0) throw new Error(`${provider.name}: Check failed: ${JSON.stringify(result.failures)}`);
            return elapsed;
        };
        const firstCheckMs = await timedCheck();
        const secondCheckMs = await timedCheck();
        return { provider: provider.key, hostStartMs, firstCheckMs, secondCheckMs };
    } finally {
        await host.stop();
    }
}

/** `rounds` fresh hosts per provider, the providers taking turns so that load from elsewhere hits all alike. */
export async function measureColdStarts(providers: readonly HostedProvider[], rounds: number): Promise<ColdStartSample[]> {
    const samples: ColdStartSample[] = [];
    for (let round = 0; round < rounds; round++) {
        for (const provider of providers) samples.push(await sampleOnce(provider));
    }
    return samples;
}

export function coldStartFigures(samples: readonly ColdStartSample[], providers: readonly HostedProvider[], baseline: string): Figure[] {
    const of = (key: string) => samples.filter((s) => s.provider === key);
    const baselineFirst = median(of(baseline).map((s) => s.firstCheckMs));
    const baselineName = providers.find((p) => p.key === baseline)?.name ?? baseline;
    const figures: Figure[] = [];
    for (const provider of providers) {
        const mine = of(provider.key);
        const { key, name } = provider;
        const first = median(mine.map((s) => s.firstCheckMs));
        figures.push(
            figure(
                "coldStart",
                `${key}.hostStartMs`,
                `${name}: host start (spawn to port), median`,
                round(median(mine.map((s) => s.hostStartMs)), 0),
                "ms",
                null,
                mine.length,
            ),
            figure("coldStart", `${key}.firstCheckMs`, `${name}: first Check, median`, round(first, 1), "ms", null, mine.length),
            figure(
                "coldStart",
                `${key}.secondCheckMs`,
                `${name}: second Check, median`,
                round(median(mine.map((s) => s.secondCheckMs)), 1),
                "ms",
                null,
                mine.length,
            ),
            figure(
                "coldStart",
                `${key}.serializedBytes`,
                `${name}: serialized provider size`,
                Buffer.byteLength(provider.serialized),
                "bytes",
                key === baseline ? null : { op: "<=", value: TARGET_SERIALIZED_BYTES },
            ),
        );
        if (key !== baseline) {
            figures.push(
                figure(
                    "coldStart",
                    `${key}.extraFirstCheckMs`,
                    `${name}: first Check minus ${baselineName}'s`,
                    round(first - baselineFirst, 1),
                    "ms",
                    { op: "<=", value: TARGET_EXTRA_FIRST_CHECK_MS },
                    mine.length,
                ),
            );
        }
    }
    return figures;
}

export async function benchColdStart(providers: readonly HostedProvider[], baseline: string, rounds: number): Promise<SectionResult> {
    const samples = await measureColdStarts(providers, rounds);
    return { figures: coldStartFigures(samples, providers, baseline), details: { rounds, samples } };
}
