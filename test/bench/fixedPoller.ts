// The baseline the SDK's completion detection is compared with: the loop a script would write, sleeping
// a fixed interval, then reading the cluster, until the change shows as the last one. Each loop tags its
// GETs (?poller=...) so the emulator's request log tells them apart from the SDK's.

import { setTimeout as sleep } from "timers/promises";
import { request } from "undici";

export interface FixedPollResult {
    /** Local epoch ms when the loop saw the change ended. */
    returnedAt: number;
    status: string;
}

export async function pollAtFixedInterval(options: {
    /** GET {managementUrl}{basePath}. */
    clusterUrl: string;
    changeId: number;
    intervalMs: number;
    /** Value of the poller query parameter that marks this loop's requests. */
    tag: string;
    timeoutMs: number;
}): Promise<FixedPollResult> {
    const deadline = Date.now() + options.timeoutMs;
    const url = `${options.clusterUrl}?poller=${encodeURIComponent(options.tag)}`;
    for (;;) {
        await sleep(options.intervalMs);
        const response = await request(url);
        const body = JSON.parse(await response.body.text()) as { lastChange?: { id: number; status: string } };
        if (body.lastChange?.id === options.changeId) return { returnedAt: Date.now(), status: body.lastChange.status };
        if (Date.now() > deadline) throw new Error(`${options.tag}: change ${options.changeId} not seen ended within ${options.timeoutMs} ms`);
    }
}
