// Shared helpers of the emulator suites: HTTP over loopback with Node's global fetch, polling, the
// URLs and calls most suites make (emulatorApi), and compact renderings of layouts and plans that
// read like the reference's worked examples.

import { strict as assert } from "node:assert";
import { RunningEmulator, startEmulator, EmulatorOptions, ResetBody } from "./index";
import type { Release } from "./settings";

/** A parsed JSON body; assertions navigate response bodies of many shapes. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface HttpResult {
    status: number;
    headers: Headers;
    text: string;
    /** The body parsed as JSON, or undefined when it is not JSON. */
    json: Json;
}

export interface RequestOptions {
    body?: unknown;
    /** Sent verbatim instead of JSON-encoding `body`. */
    rawBody?: string;
    headers?: Record<string, string>;
}

export async function http(method: string, url: string, options: RequestOptions = {}): Promise<HttpResult> {
    const headers: Record<string, string> = { ...options.headers };
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers["content-type"] ??= "application/json";
    }
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    let json: unknown;
    try {
        json = JSON.parse(text);
    } catch {
        json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
}

export async function waitFor<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 5000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
        const value = await probe();
        if (value !== undefined) return value;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
    }
}

/** Starts an emulator before the suite's tests and closes it after them. */
export function useEmulator(options: EmulatorOptions = {}): () => RunningEmulator {
    let emulator: RunningEmulator | undefined;
    before(async () => {
        emulator = await startEmulator({ opMs: 10, ...options });
    });
    after(async () => {
        await emulator?.close();
    });
    return () => {
        if (!emulator) throw new Error("emulator not started");
        return emulator;
    };
}

export const CLUSTER = "/actuator/cluster";

/** The URLs and calls most suites make against the running emulator. */
export interface EmulatorApi {
    /** A URL of the cluster management endpoint, e.g. management("/brokers?force=true"). */
    management(path?: string): string;
    /** A URL of the control API, e.g. control("/brokers/3/start"). */
    control(path: string): string;
    /** POST /reset with the suite's defaults, overridden by `body`; fails unless it answers 200. */
    reset(body?: ResetBody): Promise<void>;
    /** GET of the cluster; fails unless it answers 200. */
    cluster(): Promise<Json>;
    /** Waits until `changeId` is the last change and nothing is pending; returns that cluster. */
    completion(changeId: number): Promise<Json>;
}

/** `resetDefaults` is where the suite's tests start from; each reset(body) overrides some of it. */
export function emulatorApi(emulator: () => RunningEmulator, resetDefaults: ResetBody = {}): EmulatorApi {
    const management = (path = ""): string => `${emulator().managementUrl}${CLUSTER}${path}`;
    const control = (path: string): string => `${emulator().controlUrl}${path}`;
    async function reset(body: ResetBody = {}): Promise<void> {
        const result = await http("POST", control("/reset"), { body: { ...resetDefaults, ...body } });
        assert.equal(result.status, 200, result.text);
    }
    async function cluster(): Promise<Json> {
        const result = await http("GET", management());
        assert.equal(result.status, 200, result.text);
        return result.json;
    }
    function completion(changeId: number): Promise<Json> {
        return waitFor(async () => {
            const json = await cluster();
            return json.lastChange?.id === changeId && !json.pendingChange ? json : undefined;
        }, `change ${changeId} to finish`);
    }
    return { management, control, reset, cluster, completion };
}

interface BrokerLike {
    id: number;
    version: number;
    state: string;
    partitions: { id: number; priority: number; state: string }[];
}

/** "0: {1=3,2=1} v8 · 1: {...} v7", brokers by id; non-ACTIVE states are shown, e.g. 3=1/JOINING. */
export function layout(brokers: BrokerLike[]): string {
    return [...brokers]
        .sort((a, b) => a.id - b.id)
        .map((b) => {
            const partitions = b.partitions.map((p) => `${p.id}=${p.priority}${p.state === "ACTIVE" ? "" : `/${p.state}`}`).join(",");
            return `${b.id}${b.state === "ACTIVE" ? "" : `/${b.state}`}: {${partitions}} v${b.version}`;
        })
        .join(" · ");
}

interface OperationLike {
    operation: string;
    brokerId?: number;
    partitionId?: number;
    priority?: number;
    brokers?: number[];
}

/** One line per operation: "ADD 3", "p2 JOIN(3,1)", "p2 LEAVE(0)", "p5 PRIO(0:=1)", "REMOVE 3". */
export function plan(operations: OperationLike[]): string[] {
    return operations.map((op) => {
        const p = `p${op.partitionId}`;
        switch (op.operation) {
            case "BROKER_ADD":
                return `ADD ${op.brokerId}`;
            case "BROKER_REMOVE":
                return op.brokers && op.brokers.length > 0 ? `FORCE_REMOVE ${op.brokers.join(",")} by ${op.brokerId}` : `REMOVE ${op.brokerId}`;
            case "PARTITION_JOIN":
                return `${p} JOIN(${op.brokerId},${op.priority})`;
            case "PARTITION_LEAVE":
                return `${p} LEAVE(${op.brokerId})`;
            case "PARTITION_RECONFIGURE_PRIORITY":
                return `${p} PRIO(${op.brokerId}:=${op.priority})`;
            case "PARTITION_BOOTSTRAP":
                return `${p} BOOTSTRAP(${op.brokerId},${op.priority})`;
            case "PARTITION_FORCE_RECONFIGURE":
                return `${p} FORCE(${op.brokerId} keeps ${op.brokers?.join(",")})`;
            case "PRE_SCALING":
            case "POST_SCALING":
                return `${op.operation} by ${op.brokerId} [${op.brokers?.join(",")}]`;
            default:
                return op.brokerId === undefined ? op.operation : `${op.operation}(${op.brokerId})`;
        }
    });
}

/**
 * The plan (as plan() renders it) that `release` gives a change of the member set: 8.9 has the coordinator run
 * PRE_SCALING first and POST_SCALING last, each naming the final members; 8.8 plans the operations alone.
 */
export function releasePlan(release: Release, coordinator: number, members: readonly number[], operations: readonly string[]): string[] {
    if (release === "8.8") return [...operations];
    const set = `[${members.join(",")}]`;
    return [`PRE_SCALING by ${coordinator} ${set}`, ...operations, `POST_SCALING by ${coordinator} ${set}`];
}

/**
 * Leaves the next operation of `brokerId` started but unfinished: with a very long operation time
 * the broker is started (it begins the operation at once) and stopped again, then the operation
 * time is set back to `opMs`. Starting the broker later finishes the operation.
 */
export async function holdStartedOperation(controlUrl: string, brokerId: number, opMs: number): Promise<void> {
    await http("PUT", `${controlUrl}/settings`, { body: { opMs: 600_000 } });
    await http("POST", `${controlUrl}/brokers/${brokerId}/start`);
    await http("POST", `${controlUrl}/brokers/${brokerId}/stop`);
    await http("PUT", `${controlUrl}/settings`, { body: { opMs } });
}
