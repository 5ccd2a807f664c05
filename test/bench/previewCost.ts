// 1. Preview cost: what one ClusterScale diff (the call every preview makes for an existing resource)
// sends to the platform, counted from the emulator's request log, and how long it takes compared with
// a bare undici GET of the same emulator in the same run. Driven through the real dynamic-provider host,
// with client-credentials auth so that token requests show: the first host gets its token at create,
// a second, fresh host (a later `pulumi preview`) must find it in the disk cache.

import { mkdtempSync, rmSync } from "fs";
import { tmpdir } from "os";
import * as path from "path";
import { performance } from "perf_hooks";
import { request } from "undici";
import type { RequestLogEntry } from "../emulator";
import { DynamicHost } from "../engine";
import type { PropertyMap } from "../engine";
import { BENCH_PROJECT, HostedProvider, urnOf } from "./coldStart";
import { BenchEmulator } from "./emulatorProcess";
import { Figure, SectionResult, figure } from "./figures";
import { clusterScaleHosted } from "./hostedProviders";
import { max, median, round } from "./stats";

export const TARGET_DRY_RUNS_PER_DIFF = 1;
export const TARGET_TOKEN_REQUESTS_PER_DIFF = 0;
/** What a diff through the host may add to the bare dry-run request (median). */
export const TARGET_DIFF_OVER_DRY_RUN_MS = 15;
const REPOSITORY_ROOT = path.resolve(__dirname, "..", "..");

export interface RequestCounts {
    total: number;
    dryRuns: number;
    tokenRequests: number;
    gets: number;
}

export interface DiffSample extends RequestCounts {
    /** "warm": a host that already served this resource; "fresh host": the first call of a new host. */
    host: "warm" | "fresh host";
    latencyMs: number;
    changes: string;
}

function isDryRun(entry: RequestLogEntry): boolean {
    return entry.interface === "management" && entry.method !== "GET" && entry.query.dryRun === "true";
}

export function countRequests(log: readonly RequestLogEntry[]): RequestCounts {
    return {
        total: log.length,
        dryRuns: log.filter(isDryRun).length,
        tokenRequests: log.filter((e) => e.interface === "auth").length,
        gets: log.filter((e) => e.method === "GET").length,
    };
}

async function startHost(cacheDir: string): Promise<DynamicHost> {
    const host = await DynamicHost.start({ cwd: REPOSITORY_ROOT, project: BENCH_PROJECT, env: { PLATFORM_TOKEN_CACHE_DIR: cacheDir } });
    await host.configure({});
    return host;
}

/** Latencies of `count` bare undici requests (after one more that opens the connection). */
export async function bareLatenciesMs(send: () => Promise<unknown>, count: number): Promise<number[]> {
    const times: number[] = [];
    for (let i = 0; i <= count; i++) {
        const start = performance.now();
        await send();
        if (i > 0) times.push(performance.now() - start);
    }
    return times;
}

async function bareGet(url: string): Promise<void> {
    const response = await request(url);
    await response.body.text();
}

/** Sends again, with bare undici, a request the emulator logged. */
async function replay(origin: string, entry: RequestLogEntry): Promise<void> {
    const query = new URLSearchParams(entry.query).toString();
    const response = await request(`${origin}${entry.path}${query ? `?${query}` : ""}`, {
        method: entry.method as "POST" | "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(entry.body),
    });
    await response.body.text();
    if (response.statusCode !== 202) throw new Error(`the replayed dry run answered ${response.statusCode}`);
}

export interface PreviewCostOptions {
    /** Diffs timed on the warm host. */
    diffs: number;
}

interface ResourceState {
    id: string;
    outputs: PropertyMap;
    inputs: PropertyMap;
}

/** Check with failures turned into an error. */
async function checked(host: DynamicHost, urn: string, olds: PropertyMap, provider: HostedProvider): Promise<PropertyMap> {
    const result = await host.check(urn, olds, { ...provider.inputs, __provider: provider.serialized });
    if (result.failures.length > 0) throw new Error(`Check failed: ${JSON.stringify(result.failures)}`);
    return result.inputs;
}

/** One host: the resource is created with the cluster's current layout, then previewed with one broker more, `diffs` times. */
async function measureWarmHost(emulator: BenchEmulator, cacheDir: string, current: HostedProvider, wanted: HostedProvider, diffs: number) {
    const urn = urnOf(current, "cluster");
    const host = await startHost(cacheDir);
    try {
        const inputs = await checked(host, urn, {}, current);
        const created = await host.create(urn, inputs);
        const state: ResourceState = { id: created.id, outputs: created.properties, inputs };
        await emulator.clearRequests();
        const newInputs = await checked(host, urn, state.inputs, wanted);
        const check = countRequests(await emulator.requests());
        const samples: DiffSample[] = [];
        for (let i = 0; i < diffs; i++) samples.push(await timedDiff(emulator, host, urn, state, newInputs, "warm"));
        const dryRun = (await emulator.requests()).find(isDryRun);
        return { state, check, samples, dryRun };
    } finally {
        await host.stop();
    }
}

/** A later `pulumi preview`: a new host, Check then Diff; the token must come from the disk cache. */
async function measureFreshHost(emulator: BenchEmulator, cacheDir: string, wanted: HostedProvider, state: ResourceState) {
    const urn = urnOf(wanted, "cluster");
    const host = await startHost(cacheDir);
    try {
        await emulator.clearRequests();
        const newInputs = await checked(host, urn, state.inputs, wanted);
        const check = countRequests(await emulator.requests());
        return { check, sample: await timedDiff(emulator, host, urn, state, newInputs, "fresh host") };
    } finally {
        await host.stop();
    }
}

export async function benchPreviewCost(emulator: BenchEmulator, options: PreviewCostOptions = { diffs: 20 }): Promise<SectionResult> {
    await emulator.reset({ brokers: 3, partitions: 3, replicationFactor: 3, running: [0, 1, 2, 3], opMs: 10, rateLimitBlockSeconds: 10 });
    const current = await clusterScaleHosted(emulator.urls, { brokerCount: 3, partitionCount: 3, replicationFactor: 3 }, true);
    const wanted: HostedProvider = { ...current, inputs: { ...current.inputs, brokerCount: 4 } };
    const cacheDir = mkdtempSync(path.join(tmpdir(), "bench-preview-"));
    let warm: Awaited<ReturnType<typeof measureWarmHost>>;
    let fresh: Awaited<ReturnType<typeof measureFreshHost>>;
    try {
        warm = await measureWarmHost(emulator, cacheDir, current, wanted, options.diffs);
        fresh = await measureFreshHost(emulator, cacheDir, wanted, warm.state);
    } finally {
        rmSync(cacheDir, { recursive: true, force: true });
    }
    const { managementUrl } = emulator.urls;
    const gets = await bareLatenciesMs(() => bareGet(`${managementUrl}/actuator/cluster`), options.diffs);
    const { dryRun } = warm;
    const dryRuns = dryRun === undefined ? [] : await bareLatenciesMs(() => replay(managementUrl, dryRun), options.diffs);
    const samples = [...warm.samples, fresh.sample];
    return {
        figures: previewFigures(samples, gets, dryRuns, warm.check, fresh.check),
        details: { diffs: samples, warmCheckRequests: warm.check, freshCheckRequests: fresh.check, dryRun, bareGetMs: gets, bareDryRunMs: dryRuns },
    };
}

async function timedDiff(
    emulator: BenchEmulator,
    host: DynamicHost,
    urn: string,
    state: ResourceState,
    newInputs: PropertyMap,
    kind: DiffSample["host"],
): Promise<DiffSample> {
    await emulator.clearRequests();
    const start = performance.now();
    const result = await host.diff(urn, state.id, state.outputs, newInputs, state.inputs);
    const latencyMs = performance.now() - start;
    return { host: kind, latencyMs, changes: result.changes, ...countRequests(await emulator.requests()) };
}

export function previewFigures(
    samples: readonly DiffSample[],
    bareGetMs: readonly number[],
    bareDryRunMs: readonly number[],
    check: RequestCounts,
    freshCheck: RequestCounts,
): Figure[] {
    const warm = samples.filter((s) => s.host === "warm");
    const fresh = samples.filter((s) => s.host === "fresh host");
    const all = samples;
    const diffMs = median(warm.map((s) => s.latencyMs));
    const getMs = median(bareGetMs);
    const n = all.length;
    const dryRuns = all.map((s) => s.dryRuns);
    const figures = [
        figure("previewCost", "dryRunsPerDiff", "dry runs per diff (max)", max(dryRuns), "requests", { op: "==", value: TARGET_DRY_RUNS_PER_DIFF }, n),
        figure(
            "previewCost",
            "diffsWithoutExactlyOneDryRun",
            "diffs with no dry run or more than one",
            dryRuns.filter((d) => d !== TARGET_DRY_RUNS_PER_DIFF).length,
            "diffs",
            { op: "==", value: 0 },
            n,
        ),
        figure(
            "previewCost",
            "tokenRequestsPerDiff",
            "token requests per diff, token cached (max)",
            max(all.map((s) => s.tokenRequests)),
            "requests",
            { op: "==", value: TARGET_TOKEN_REQUESTS_PER_DIFF },
            n,
        ),
        figure(
            "previewCost",
            "freshHostTokenRequests",
            "token requests, Check + Diff of a fresh host (disk cache)",
            freshCheck.tokenRequests + max(fresh.map((s) => s.tokenRequests)),
            "requests",
            { op: "==", value: 0 },
            fresh.length,
        ),
        figure("previewCost", "requestsPerDiff", "requests per diff, all interfaces (max)", max(all.map((s) => s.total)), "requests", null, n),
        figure("previewCost", "requestsPerCheck", "requests during the preview's Check (warm host)", check.total, "requests"),
        figure("previewCost", "requestsPerFreshCheck", "requests during the preview's Check (fresh host)", freshCheck.total, "requests"),
        figure("previewCost", "diffLatencyMs", "diff latency through the host, median", round(diffMs, 1), "ms", null, warm.length),
        figure("previewCost", "bareGetLatencyMs", "bare undici GET of the cluster, median", round(getMs, 2), "ms", null, bareGetMs.length),
        figure("previewCost", "diffToGetRatio", "diff latency / bare GET latency", round(diffMs / getMs, 1), "x", null, warm.length),
        figure("previewCost", "freshHostDiffMs", "first diff of a fresh host", round(median(fresh.map((s) => s.latencyMs)), 1), "ms", null, fresh.length),
    ];
    if (bareDryRunMs.length > 0) {
        const dryRunMs = median(bareDryRunMs);
        figures.push(
            figure(
                "previewCost",
                "bareDryRunLatencyMs",
                "bare undici request of the same dry run, median",
                round(dryRunMs, 2),
                "ms",
                null,
                bareDryRunMs.length,
            ),
            figure("previewCost", "diffToDryRunRatio", "diff latency / bare dry-run latency", round(diffMs / dryRunMs, 1), "x", null, warm.length),
            figure(
                "previewCost",
                "diffOverDryRunMs",
                "diff latency minus bare dry-run latency, medians",
                round(diffMs - dryRunMs, 1),
                "ms",
                { op: "<=", value: TARGET_DIFF_OVER_DRY_RUN_MS },
                warm.length,
            ),
        );
    }
    return figures;
}
