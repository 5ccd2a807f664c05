// 4. Scale: a cluster of 64 brokers, 512 partitions and replication factor 5. The dry-run answer for
// scaling 32 brokers to 64 (thousands of operations, about 0.9 MB) and the cluster state of the result,
// decoded by the SDK (parse + schema validation) vs a bare JSON.parse of the same text, with the heap
// each result keeps. The decoding runs in a child process started with --expose-gc.
//
// The target compares medians: the garbage collection that the SDK's extra allocations cause is part of
// what decoding costs. The best of N timings (a run that happened to need no collection) is reported
// next to it, as the cost of the parsing and validation work alone.

import { mkdtempSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import * as path from "path";
import { request } from "undici";
import { BenchEmulator } from "./emulatorProcess";
import { Figure, SectionResult, figure } from "./figures";
import { ScalePayload, ScaleWorkerResult } from "./scaleWorker";
import { median, round } from "./stats";
import { runTsChild } from "./tsChild";

export const TARGET_DECODE_RATIO = 2;

export interface ScaleOptions {
    /** Brokers before and after the scale-up, partitions and replication factor. */
    fromBrokers: number;
    toBrokers: number;
    partitions: number;
    replicationFactor: number;
    iterations: number;
}

export const DEFAULT_SCALE: ScaleOptions = { fromBrokers: 32, toBrokers: 64, partitions: 512, replicationFactor: 5, iterations: 30 };

/** The raw answers, fetched with bare undici (no SDK code involved). */
async function fetchPayloads(emulator: BenchEmulator, options: ScaleOptions): Promise<{ payloads: ScalePayload[]; operations: number }> {
    const { fromBrokers, toBrokers, partitions, replicationFactor } = options;
    const cluster = `${emulator.urls.managementUrl}/actuator/cluster`;
    const all = Array.from({ length: toBrokers }, (_, i) => i);
    await emulator.reset({ brokers: fromBrokers, partitions, replicationFactor, running: all });
    const plan = await request(`${cluster}/brokers?dryRun=true`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(all),
    });
    const planText = await plan.body.text();
    if (plan.statusCode !== 202) throw new Error(`the dry run answered ${plan.statusCode}: ${planText.slice(0, 200)}`);
    const operations = (JSON.parse(planText) as { plannedChanges: unknown[] }).plannedChanges.length;
    await emulator.reset({ brokers: toBrokers, partitions, replicationFactor, running: all });
    const state = await request(cluster);
    const stateText = await state.body.text();
    return {
        payloads: [
            { name: "plan", status: plan.statusCode, text: planText },
            { name: "clusterState", status: state.statusCode, text: stateText },
        ],
        operations,
    };
}

export async function benchScale(emulator: BenchEmulator, options: ScaleOptions = DEFAULT_SCALE): Promise<SectionResult> {
    const { payloads, operations } = await fetchPayloads(emulator, options);
    const dir = mkdtempSync(path.join(tmpdir(), "bench-scale-"));
    try {
        const file = path.join(dir, "payloads.json");
        writeFileSync(file, JSON.stringify(payloads));
        const result = await runTsChild<ScaleWorkerResult>(path.join(__dirname, "scaleWorker.ts"), [file, String(options.iterations)], {
            nodeFlags: ["--expose-gc"],
        });
        return { figures: scaleFigures(result, operations, options), details: { ...options, operations, measurements: result.measurements } };
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
}

export function scaleFigures(result: ScaleWorkerResult, operations: number, options: ScaleOptions): Figure[] {
    const { fromBrokers, toBrokers, partitions, replicationFactor } = options;
    const layout = `${fromBrokers} -> ${toBrokers} brokers, ${partitions} partitions, replication factor ${replicationFactor}`;
    const figures: Figure[] = [figure("scale", "plan.operations", `dry-run answer (${layout}): operations`, operations, "ops")];
    const MB = 1024 * 1024;
    for (const m of result.measurements) {
        const what = m.name === "plan" ? "dry-run answer" : "cluster state";
        const n = m.iterations;
        const best = { json: Math.min(...m.jsonParseMs), sdk: Math.min(...m.sdkDecodeMs) };
        const typical = { json: median(m.jsonParseMs), sdk: median(m.sdkDecodeMs) };
        const target = m.name === "plan" ? { op: "<=" as const, value: TARGET_DECODE_RATIO } : null;
        figures.push(
            figure("scale", `${m.name}.bytes`, `${what}: size`, round(m.bytes / MB, 2), "MB"),
            figure("scale", `${m.name}.jsonParseMedianMs`, `${what}: bare JSON.parse, median`, round(typical.json, 2), "ms", null, n),
            figure("scale", `${m.name}.sdkDecodeMedianMs`, `${what}: SDK parse + validate, median`, round(typical.sdk, 2), "ms", null, n),
            figure("scale", `${m.name}.decodeRatio`, `${what}: SDK / bare JSON.parse, medians`, round(typical.sdk / typical.json, 2), "x", target, n),
            figure("scale", `${m.name}.jsonParseBestMs`, `${what}: bare JSON.parse, best of ${n}`, round(best.json, 2), "ms", null, n),
            figure("scale", `${m.name}.sdkDecodeBestMs`, `${what}: SDK parse + validate, best of ${n}`, round(best.sdk, 2), "ms", null, n),
            figure("scale", `${m.name}.decodeRatioBest`, `${what}: SDK / bare JSON.parse, best of ${n}`, round(best.sdk / best.json, 2), "x", null, n),
            figure("scale", `${m.name}.firstJsonParseMs`, `${what}: bare JSON.parse, first in the process`, round(m.firstMs.jsonParse, 2), "ms"),
            figure("scale", `${m.name}.firstSdkDecodeMs`, `${what}: SDK parse + validate, first in the process`, round(m.firstMs.sdkDecode, 2), "ms"),
            figure(
                "scale",
                `${m.name}.heapGrowthJsonParse`,
                `${what}: heap growth of one bare JSON.parse (garbage included)`,
                round(m.growthBytes.jsonParse / MB, 2),
                "MB",
            ),
            figure(
                "scale",
                `${m.name}.heapGrowthSdk`,
                `${what}: heap growth of one SDK decode (garbage included)`,
                round(m.growthBytes.sdkDecode / MB, 2),
                "MB",
            ),
            figure(
                "scale",
                `${m.name}.retainedHeapJsonParse`,
                `${what}: heap held by the bare JSON.parse result`,
                round(m.retainedBytes.jsonParse / MB, 2),
                "MB",
            ),
            figure("scale", `${m.name}.retainedHeapSdk`, `${what}: heap held by the SDK's decoded result`, round(m.retainedBytes.sdkDecode / MB, 2), "MB"),
        );
    }
    return figures;
}
