// `destroy`: delete every resource in state (and old instances still waiting for deletion), dependents first. Its
// preview shows the deletions and asks no provider anything (DeleteStep.Apply in pkg/resource/deploy/step.go).
import { Display } from "./display";
import type { ProviderPlugin } from "./dynamicHost";
import { deleteAll } from "./deletion";
import { LiveState } from "./liveState";

export async function destroy(live: LiveState, host: () => Promise<ProviderPlugin>, display: Display, preview: boolean): Promise<void> {
    const condemned = [
        ...live.entries().map(([urn, resource]) => ({ urn, resource, replaced: false })),
        ...live.pendingDeletes().map((pending) => ({ urn: pending.urn, resource: pending, replaced: true })),
    ];
    await deleteAll(condemned, { host, live, display, preview });
}
