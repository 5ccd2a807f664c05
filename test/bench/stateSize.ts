// 6. State size and host memory: what one ClusterScale keeps in the stack's state (checked inputs plus outputs,
// both holding the serialized provider) after the demo's change and after a large one, and the provider host's peak
// resident memory while it waits for the large change, beside two floors: a host that ran the trivial provider, and one
// whose trivial provider read the cluster once with Node's fetch. Driven through the real dynamic-provider host.

import { readFileSync } from "fs";
import * as path from "path";
import { DynamicHost } from "../engine";
import type { PropertyMap } from "../engine";
import { BENCH_PROJECT, HostedProvider, urnOf } from "./coldStart";
import { BenchEmulator } from "./emulatorProcess";
import { Figure, SectionResult, figure } from "./figures";
import { clusterScaleHosted, oneReadHosted, trivialHosted } from "./hostedProviders";
import { round } from "./stats";

const REPOSITORY_ROOT = path.resolve(__dirname, "..", "..");
export const TARGET_DEMO_STATE_KB = 16;
export const TARGET_LARGE_STATE_KB = 128;
/** The host's peak during the large change may exceed the trivial host's (the floor every host starts from) by this much. */
export const TARGET_HOST_PEAK_RSS_ABOVE_TRIVIAL_MB = 40;

export interface StateOptions {
    /** The large change: from 3 brokers to `brokers`, with this many partitions and replication factor 3. */
    largeBrokers: number;
    largePartitions: number;
}

export const DEFAULT_STATE: StateOptions = { largeBrokers: 48, largePartitions: 256 };

interface Applied {
    stateBytes: number;
    operations: number;
    peakRssMB: number | undefined;
}

/** The emulator's cluster grows from 3 brokers to `layout.brokerCount`; every broker of the target runs already. */
async function applyThroughHost(emulator: BenchEmulator, partitions: number, layout: Record<string, number>): Promise<Applied> {
    await emulator.reset({
        brokers: 3,
        partitions,
        replicationFactor: 3,
        partitionScaling: true,
        running: Array.from({ length: layout.brokerCount }, (_, id) => id),
        opMs: 1,
    });
    const hosted = await clusterScaleHosted(emulator.urls, layout);
    const urn = urnOf(hosted, "cluster");
    const host = await DynamicHost.start({ cwd: REPOSITORY_ROOT, project: BENCH_PROJECT, env: { PLATFORM_TOKEN_DISK_CACHE: "off" } });
    try {
        await host.configure(hosted.config);
        const news = { ...hosted.inputs, timeoutSeconds: 600, __provider: hosted.serialized } as PropertyMap;
        const checked = await host.check(urn, {}, news);
        if (checked.failures.length > 0) throw new Error(`check failed: ${JSON.stringify(checked.failures)}`);
        const created = await host.create(urn, checked.inputs);
        const stateBytes = Buffer.byteLength(JSON.stringify({ inputs: checked.inputs, outputs: created.properties }));
        return { stateBytes, operations: Number(created.properties.plannedChangeCount ?? 0), peakRssMB: await settledPeakRssMB(host.pid) };
    } finally {
        await host.stop();
    }
}

/** A host's peak RSS after one Check of a provider that needs no emulator (`key` names its URN). */
async function checkedHostPeakRssMB(hosted: HostedProvider): Promise<number | undefined> {
    const host = await DynamicHost.start({ cwd: REPOSITORY_ROOT, project: BENCH_PROJECT });
    try {
        await host.configure(hosted.config);
        const checked = await host.check(urnOf(hosted, hosted.key), {}, { ...hosted.inputs, __provider: hosted.serialized });
        if (checked.failures.length > 0) throw new Error(`check failed: ${JSON.stringify(checked.failures)}`);
        return await settledPeakRssMB(host.pid);
    } finally {
        await host.stop();
    }
}

/**
 * The process's peak resident set once it has stopped growing for half a second (3 s at most): what a call set going in
 * the background counts too. The first HTTP answer read through undici makes V8 compile its parser again with the
 * optimizing compiler, on a worker thread, over the next 100 ms or so.
 */
async function settledPeakRssMB(pid: number | undefined): Promise<number | undefined> {
    let peak = peakRssMB(pid);
    let unchangedSince = Date.now();
    const deadline = unchangedSince + 3_000;
    while (Date.now() - unchangedSince < 500 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        const now = peakRssMB(pid);
        if (now !== peak) [peak, unchangedSince] = [now, Date.now()];
    }
    return peak;
}

/** The process's peak resident set (VmHWM), where /proc tells it. */
function peakRssMB(pid: number | undefined): number | undefined {
    if (pid === undefined) return undefined;
    try {
        const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
        return match ? Number(match[1]) / 1024 : undefined;
    } catch {
        return undefined;
    }
}

export async function benchState(emulator: BenchEmulator, options: StateOptions = DEFAULT_STATE): Promise<SectionResult> {
    const demo = await applyThroughHost(emulator, 6, { brokerCount: 5, partitionCount: 8, replicationFactor: 3 });
    const large = await applyThroughHost(emulator, options.largePartitions, { brokerCount: options.largeBrokers, replicationFactor: 3 });
    const largeCase = `${options.largeBrokers} brokers, ${options.largePartitions} partitions, replication factor 3`;
    const figures: Figure[] = [
        figure("state", "demo.stateKB", "ClusterScale state after the demo's change", round(demo.stateBytes / 1024, 1), "kB", {
            op: "<=",
            value: TARGET_DEMO_STATE_KB,
        }),
        figure("state", "large.operations", `operations of the change to ${largeCase}`, large.operations, "ops"),
        figure("state", "large.stateKB", `ClusterScale state after the change to ${largeCase}`, round(large.stateBytes / 1024, 1), "kB", {
            op: "<=",
            value: TARGET_LARGE_STATE_KB,
        }),
    ];
    const floor = await checkedHostPeakRssMB(await trivialHosted());
    if (floor !== undefined) figures.push(figure("state", "trivialHostPeakRssMB", "peak RSS of a host that ran the trivial provider", round(floor, 1), "MB"));
    // The emulator's cluster is the large change's result by now (48 brokers): the one read is of that size.
    const oneRead = await checkedHostPeakRssMB(await oneReadHosted(`${emulator.urls.managementUrl}/actuator/cluster`));
    if (oneRead !== undefined) {
        const label = "peak RSS of a host whose trivial provider read the cluster once with Node's fetch";
        figures.push(figure("state", "oneReadHostPeakRssMB", label, round(oneRead, 1), "MB"));
    }
    if (large.peakRssMB !== undefined) {
        const target = floor === undefined ? null : { op: "<=" as const, value: round(floor + TARGET_HOST_PEAK_RSS_ABOVE_TRIVIAL_MB, 1) };
        figures.push(figure("state", "large.hostPeakRssMB", "provider host peak RSS during that change", round(large.peakRssMB, 1), "MB", target));
    }
    return { figures, details: { demo, large, largeCase } };
}
