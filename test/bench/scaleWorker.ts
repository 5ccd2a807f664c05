// Child-process entry (run with --expose-gc): times the SDK's decoding (JSON.parse + schema validation)
// of large management-API answers against a bare JSON.parse of the same text, and measures the heap
// each result keeps alive. Alone in its process so that nothing else allocates meanwhile.
// Usage: node --expose-gc -r ts-node/register/transpile-only scaleWorker.ts <payloads.json>
// Prints one JSON line: ScaleWorkerResult.

import { readFileSync } from "fs";
import { performance } from "perf_hooks";
import { HttpResponse, decodeJsonBody } from "../../sdk/http/request";
import { clusterStateSchema, decoder, changePlanSchema } from "../../sdk/schemas";

export interface ScalePayload {
    name: "plan" | "clusterState";
    status: number;
    text: string;
}

export interface DecodeMeasurement {
    name: ScalePayload["name"];
    bytes: number;
    iterations: number;
    /** The first decode in the process (schemas built, code not yet optimised), as one `pulumi up` pays it. */
    firstMs: { jsonParse: number; sdkDecode: number };
    /** Wall-clock time of each iteration. */
    jsonParseMs: number[];
    sdkDecodeMs: number[];
    /** CPU time of each iteration (process.cpuUsage, user + system): less disturbed by other processes on a shared machine. */
    jsonParseCpuMs: number[];
    sdkDecodeCpuMs: number[];
    /** Heap still used after a full GC while the decoded value is held, minus the heap before (bytes). */
    retainedBytes: { jsonParse: number; sdkDecode: number };
    /** Heap used right after decoding, garbage included, minus the heap before (bytes): the growth a decode causes. */
    growthBytes: { jsonParse: number; sdkDecode: number };
}

export type ScaleWorkerResult = { measurements: DecodeMeasurement[] };

const WARM_UP = 10;

function collectGarbage(): void {
    const gc = (globalThis as { gc?: () => void }).gc;
    if (gc === undefined) throw new Error("run with --expose-gc");
    gc();
    gc();
}

/** What the ClusterClient does with a response: decodeJsonBody with the answer's schema. */
function sdkDecoder(name: ScalePayload["name"]): (res: HttpResponse) => unknown {
    if (name === "plan") {
        const decodePlan = decoder("planned change", changePlanSchema);
        return (res) => decodeJsonBody(res, decodePlan);
    }
    const decodeState = decoder("cluster state", clusterStateSchema);
    return (res) => decodeJsonBody(res, decodeState);
}

interface Timing {
    wallMs: number;
    cpuMs: number;
}

function timed(run: () => unknown): Timing {
    const cpu = process.cpuUsage();
    const start = performance.now();
    run();
    const wallMs = performance.now() - start;
    const used = process.cpuUsage(cpu);
    return { wallMs, cpuMs: (used.user + used.system) / 1000 };
}

/** Heap growth right after `make` (garbage included), and after a full collection while its result is alive. */
function heapUse(make: () => unknown): { growth: number; retained: number } {
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    const kept = make();
    const growth = process.memoryUsage().heapUsed - before;
    collectGarbage();
    const retained = process.memoryUsage().heapUsed - before;
    if (kept === undefined) throw new Error("nothing was decoded");
    return { growth, retained };
}

export function measurePayload(payload: ScalePayload, iterations: number): DecodeMeasurement {
    const response: HttpResponse = {
        status: payload.status,
        headers: { "content-type": "application/json" },
        text: payload.text,
        request: { method: "GET", path: "/actuator/cluster" },
    };
    const bare = (): unknown => JSON.parse(payload.text);
    const sdk = sdkDecoder(payload.name);
    const firstMs = { jsonParse: timed(bare).wallMs, sdkDecode: timed(() => sdk(response)).wallMs };
    for (let i = 0; i < WARM_UP; i++) {
        bare();
        sdk(response);
    }
    const jsonParse: Timing[] = [];
    const sdkDecode: Timing[] = [];
    // Interleaved, so that a burst of load from elsewhere on the machine hits both alike.
    for (let i = 0; i < iterations; i++) {
        collectGarbage();
        jsonParse.push(timed(bare));
        collectGarbage();
        sdkDecode.push(timed(() => sdk(response)));
    }
    const heapOfBare = heapUse(bare);
    const heapOfSdk = heapUse(() => sdk(response));
    return {
        name: payload.name,
        bytes: Buffer.byteLength(payload.text),
        iterations,
        firstMs,
        jsonParseMs: jsonParse.map((t) => t.wallMs),
        sdkDecodeMs: sdkDecode.map((t) => t.wallMs),
        jsonParseCpuMs: jsonParse.map((t) => t.cpuMs),
        sdkDecodeCpuMs: sdkDecode.map((t) => t.cpuMs),
        retainedBytes: { jsonParse: heapOfBare.retained, sdkDecode: heapOfSdk.retained },
        growthBytes: { jsonParse: heapOfBare.growth, sdkDecode: heapOfSdk.growth },
    };
}

if (require.main === module) {
    const [file, iterationsText] = process.argv.slice(2);
    const payloads = JSON.parse(readFileSync(file, "utf8")) as ScalePayload[];
    const iterations = Number(iterationsText ?? "15");
    const result: ScaleWorkerResult = { measurements: payloads.map((p) => measurePayload(p, iterations)) };
    process.stdout.write(`${JSON.stringify(result)}\n`);
}
