// 2. Completion-detection lag: how long after a change really ended (lastChange.completedAt, stamped by
// the emulator on this machine's clock) the SDK's waitForChange returns, and how many GETs it spent,
// next to fixed 1 s and 5 s polling loops watching the same change at the same time.
//
// Each wait starts without a learned operation pace, as in a fresh `pulumi up` process: the SDK gets a
// cluster reader without a URL, so nothing is remembered between repetitions.

import { ClusterClient, waitForChange } from "../../sdk";
import { BenchEmulator } from "./emulatorProcess";
import { pollAtFixedInterval } from "./fixedPoller";
import { Figure, SectionResult, figure } from "./figures";
import { max, median, percentile, round } from "./stats";

/** A scale-up whose plan has a known number of operations, each taking opMs. */
export interface ChangeCase {
    operations: number;
    opMs: number;
    layout: { brokers: number; partitions: number; replicationFactor: number };
    /** The cluster is scaled to brokers 0..targetBrokers-1. */
    targetBrokers: number;
}

/**
 * Starting layouts whose scale-up plans have about 5, 20 and 60 operations under the emulator's default release (the
 * exact count is checked at run time; 8.9 wraps each plan in PRE_SCALING and POST_SCALING).
 */
const SHAPES: Record<number, Omit<ChangeCase, "opMs">> = {
    5: { operations: 5, layout: { brokers: 3, partitions: 4, replicationFactor: 1 }, targetBrokers: 4 },
    20: { operations: 22, layout: { brokers: 3, partitions: 7, replicationFactor: 3 }, targetBrokers: 4 },
    60: { operations: 60, layout: { brokers: 4, partitions: 15, replicationFactor: 3 }, targetBrokers: 8 },
};

export function changeCase(operations: 5 | 20 | 60, opMs: number): ChangeCase {
    return { ...SHAPES[operations], opMs };
}

/** The default grid: every size with short operations, the smaller ones with longer operations too. */
export const DEFAULT_CASES: ChangeCase[] = [
    changeCase(5, 50),
    changeCase(5, 200),
    changeCase(5, 500),
    changeCase(20, 50),
    changeCase(20, 200),
    changeCase(60, 50),
];

export const TARGET_MEDIAN_LAG_MS = 100;
export const TARGET_EXTRA_GETS = 5;
/** The baselines: a loop that sleeps 1 s, or 5 s, between GETs. */
export const DEFAULT_FIXED_INTERVALS_MS = [1_000, 5_000];

/** "sdk", or a fixed loop by its interval, e.g. "fixed5000ms". */
export type Poller = string;
export const SDK: Poller = "sdk";

export function fixedPoller(intervalMs: number): Poller {
    return `fixed${intervalMs}ms`;
}

function pollerLabel(poller: Poller): string {
    if (poller === SDK) return "SDK waitForChange";
    const ms = Number(/^fixed(\d+)ms$/.exec(poller)?.[1]);
    return ms % 1000 === 0 ? `fixed ${ms / 1000} s loop` : `fixed ${ms} ms loop`;
}

/** One change, watched by every poller at once. */
export interface ChangeSample {
    changeId: number;
    operations: number;
    /** Change duration: lastChange.completedAt - startedAt (server clock). */
    durationMs: number;
    /** Local time the poller returned minus lastChange.completedAt. */
    lagMs: Record<Poller, number>;
    /** GETs of the cluster the poller sent for this change. */
    gets: Record<Poller, number>;
}

export interface CaseResult {
    name: string;
    operations: number;
    opMs: number;
    samples: ChangeSample[];
}

export function caseName(c: Pick<ChangeCase, "operations" | "opMs">): string {
    return `${c.operations} ops x ${c.opMs} ms`;
}

/** Runs `repeats` changes of one case, one after the other, on one emulator. */
export async function measureCase(emulator: BenchEmulator, change: ChangeCase, repeats: number, fixedIntervalsMs: readonly number[]): Promise<CaseResult> {
    const samples: ChangeSample[] = [];
    for (let i = 0; i < repeats; i++) samples.push(await measureChange(emulator, change, fixedIntervalsMs));
    return { name: caseName(change), operations: change.operations, opMs: change.opMs, samples };
}

async function measureChange(emulator: BenchEmulator, change: ChangeCase, fixedIntervalsMs: readonly number[]): Promise<ChangeSample> {
    const target = range(change.targetBrokers);
    await emulator.reset({ ...change.layout, running: target, opMs: change.opMs, rateLimitBlockSeconds: 0 });
    const client = new ClusterClient({ managementUrl: emulator.urls.managementUrl });
    const plan = await client.scaleBrokers(target);
    const acceptedAt = Date.now();
    const timeoutMs = change.operations * change.opMs * 5 + 30_000;
    const clusterUrl = `${client.managementUrl}${client.basePath}`;
    const sdk = waitForChange({
        changeId: plan.changeId,
        cluster: { readChange: (changeId, options) => client.readChange(changeId, options) },
        acceptedAt,
        timeoutMs,
    }).then((outcome) => ({ returnedAt: Date.now(), outcome }));
    const fixed = fixedIntervalsMs.map((intervalMs) =>
        pollAtFixedInterval({ clusterUrl, changeId: plan.changeId, intervalMs, tag: fixedPoller(intervalMs), timeoutMs }),
    );
    const [{ returnedAt, outcome }, ...fixedResults] = await Promise.all([sdk, ...fixed]);
    const { startedAt, completedAt } = outcome.lastChange;
    if (completedAt.epochMs === null || startedAt.epochMs === null) throw new Error(`change ${plan.changeId} has no completion time`);
    const end = completedAt.epochMs;
    const lagMs: Record<Poller, number> = { [SDK]: returnedAt - end };
    fixedIntervalsMs.forEach((intervalMs, i) => (lagMs[fixedPoller(intervalMs)] = fixedResults[i].returnedAt - end));
    return {
        changeId: plan.changeId,
        operations: plan.plannedChanges.length,
        durationMs: end - startedAt.epochMs,
        lagMs,
        gets: await countClusterGets(emulator, clusterUrl, Object.keys(lagMs)),
    };
}

/** GETs of the cluster by each poller, from the emulator's log (the SDK's carry no poller tag). */
async function countClusterGets(emulator: BenchEmulator, clusterUrl: string, pollers: readonly Poller[]): Promise<Record<Poller, number>> {
    const clusterPath = new URL(clusterUrl).pathname;
    const gets: Record<Poller, number> = Object.fromEntries(pollers.map((p) => [p, 0]));
    for (const entry of await emulator.requests()) {
        if (entry.interface !== "management" || entry.method !== "GET" || entry.path !== clusterPath) continue;
        const poller = entry.query.poller ?? SDK;
        if (poller in gets) gets[poller]++;
    }
    return gets;
}

export function lagFigures(results: readonly CaseResult[]): Figure[] {
    const figures: Figure[] = [];
    for (const result of results) {
        const n = result.samples.length;
        const ops = result.operations;
        for (const poller of Object.keys(result.samples[0]?.lagMs ?? {})) {
            const lags = result.samples.map((s) => s.lagMs[poller]);
            const gets = result.samples.map((s) => s.gets[poller]);
            const isSdk = poller === SDK;
            const key = `${poller}[${result.name}]`;
            const label = `${result.name}: ${pollerLabel(poller)}`;
            figures.push(
                figure(
                    "completionLag",
                    `${key}.medianLagMs`,
                    `${label}, median lag`,
                    round(median(lags), 1),
                    "ms",
                    isSdk ? { op: "<=", value: TARGET_MEDIAN_LAG_MS } : null,
                    n,
                ),
                figure("completionLag", `${key}.p95LagMs`, `${label}, p95 lag`, round(percentile(lags, 95), 1), "ms", null, n),
                figure(
                    "completionLag",
                    `${key}.maxGets`,
                    `${label}, GETs per change (max)`,
                    max(gets),
                    "GETs",
                    isSdk ? { op: "<=", value: ops + TARGET_EXTRA_GETS } : null,
                    n,
                ),
            );
            if (isSdk) figures.push(figure("completionLag", `${key}.medianGets`, `${label}, GETs per change (median)`, median(gets), "GETs", null, n));
        }
    }
    return figures;
}

export interface LagOptions {
    cases: readonly ChangeCase[];
    /** Changes per case. */
    repeats: number;
    fixedIntervalsMs: readonly number[];
}

export async function benchCompletionLag(emulators: readonly BenchEmulator[], options: LagOptions): Promise<SectionResult> {
    const { cases, repeats, fixedIntervalsMs } = options;
    if (emulators.length < cases.length) throw new Error("one emulator per case is needed");
    // The cases run side by side, each on its own emulator: the fixed 5 s loop makes every change last
    // about 5 s, and one after another they would take most of the time the whole bench may use.
    const results = await Promise.all(cases.map((c, i) => measureCase(emulators[i], c, repeats, fixedIntervalsMs)));
    for (const result of results) {
        const wrong = result.samples.find((s) => s.operations !== result.operations);
        if (wrong) throw new Error(`${result.name}: the plan had ${wrong.operations} operations, not ${result.operations}`);
    }
    return {
        figures: lagFigures(results),
        details: { repeats, fixedIntervalsMs, casesRunConcurrently: cases.length, cases: results },
    };
}

function range(count: number): number[] {
    return Array.from({ length: count }, (_, i) => i);
}
