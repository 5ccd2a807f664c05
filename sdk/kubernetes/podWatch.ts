// Waiting on pods with a watch: list them once, then follow the watch stream from the list's resourceVersion, and
// ask `decide` after the list and after every event. A stream the server ends is opened again from the last
// resourceVersion seen; a resourceVersion too old to watch from (410 Expired) is listed anew. Never a polling loop.

import { AbortedError, PodWaitTimeoutError } from "../errors";
import { PodView, podView } from "./podView";
import { podSchema, watchEventSchema } from "./workloadSchemas";

export interface PodSource {
    list(signal: AbortSignal): Promise<{ pods: PodView[]; resourceVersion: string }>;
    /** The watch stream (JSON lines) from a resourceVersion. */
    open(resourceVersion: string, signal: AbortSignal): Promise<AsyncIterable<Buffer>>;
}

export interface WatchPodsOptions {
    timeoutMs: number;
    signal?: AbortSignal;
    /** What is waited for, for the timeout's message ("pods platform-zeebe-3, platform-zeebe-4 to start"). */
    what: string;
}

export async function watchPods<T>(source: PodSource, decide: (pods: ReadonlyMap<string, PodView>) => T | undefined, options: WatchPodsOptions): Promise<T> {
    const deadline = AbortSignal.timeout(Math.max(1, options.timeoutMs));
    const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
    const pods = new Map<string, PodView>();
    try {
        for (;;) {
            const listed = await source.list(signal);
            pods.clear();
            for (const pod of listed.pods) pods.set(pod.name, pod);
            let decided = decide(pods);
            if (decided !== undefined) return decided;
            let resourceVersion = listed.resourceVersion;
            for (let expired = false; !expired;) {
                let stream: AsyncIterable<Buffer>;
                try {
                    stream = await source.open(resourceVersion, signal);
                } catch (error) {
                    if ((error as { status?: number }).status !== 410) throw error;
                    break; // too old to watch from: list again
                }
                let buffered = "";
                for await (const chunk of stream) {
                    buffered += chunk.toString("utf8");
                    const lines = buffered.split("\n");
                    buffered = lines.pop() ?? "";
                    for (const line of lines) {
                        if (line.trim() === "") continue;
                        const event = watchEventSchema.parse(JSON.parse(line));
                        if (event.type === "ERROR") {
                            expired = true;
                            break;
                        }
                        const version = (event.object as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion;
                        if (version) resourceVersion = version;
                        if (event.type === "BOOKMARK") continue;
                        const pod = podView(podSchema.parse(event.object));
                        if (event.type === "DELETED") pods.delete(pod.name);
                        else pods.set(pod.name, pod);
                        decided = decide(pods);
                        if (decided !== undefined) return decided;
                    }
                    if (expired) break;
                }
            }
        }
    } catch (error) {
        if (options.signal?.aborted) throw new AbortedError(`Waiting for ${options.what} was aborted`);
        if (deadline.aborted) {
            const seen = [...pods.values()].sort((a, b) => (a.ordinal ?? 0) - (b.ordinal ?? 0));
            const seconds = options.timeoutMs % 1000 === 0 ? String(options.timeoutMs / 1000) : (options.timeoutMs / 1000).toFixed(1);
            throw new PodWaitTimeoutError(`${options.what} did not happen within ${seconds} s`, seen);
        }
        throw error;
    }
}
