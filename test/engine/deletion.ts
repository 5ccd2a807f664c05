// Deleting resources as the engine does: dependents before what they depend on (children before parents, resources
// before their provider); only custom dynamic resources reach the provider.
import { Display } from "./display";
import type { ProviderPlugin } from "./dynamicHost";
import { LiveState } from "./liveState";
import { unwrapSecretsInMap } from "./propertyValues";
import { PendingDelete, ResourceState } from "./stateFile";
import { StepError } from "./stepError";
import { isDynamicType } from "./urns";

export interface Condemned {
    urn: string;
    resource: ResourceState;
    /** The old instance of a resource replaced create-before-delete. */
    replaced: boolean;
}

/** Orders deletions so nothing is deleted while a remaining condemned resource depends on it. */
export function deletionOrder(condemned: readonly Condemned[]): Condemned[] {
    let remaining = [...condemned];
    const ordered: Condemned[] = [];
    while (remaining.length > 0) {
        const dependedOn = new Set<string>();
        for (const { resource } of remaining) {
            for (const dependency of resource.dependencies) dependedOn.add(dependency);
            if (resource.parent) dependedOn.add(resource.parent);
            if (resource.provider) dependedOn.add(providerUrnOf(resource.provider));
        }
        let free = remaining.filter((c) => !dependedOn.has(c.urn));
        // A dependency cycle cannot come from a program; should a hand-edited state have one, fall back to
        // reverse state order rather than never finishing.
        if (free.length === 0) free = remaining;
        ordered.push(...[...free].reverse());
        remaining = remaining.filter((c) => !free.includes(c));
    }
    return ordered;
}

/** The URN in a provider reference, `<urn>::<id>`. */
export function providerUrnOf(reference: string): string {
    return reference.slice(0, reference.lastIndexOf("::"));
}

/** True when deleting this resource means a provider Delete call. */
export function needsProviderDelete(resource: ResourceState): boolean {
    return resource.custom && isDynamicType(resource.type) && !resource.pendingReplacement;
}

export async function deleteWithProvider(host: ProviderPlugin, urn: string, resource: ResourceState, live: LiveState): Promise<void> {
    const id = resource.id;
    if (!id) throw new Error(`${urn} has no id to delete`);
    await live.track(urn, resource.type, "deleting", () => host.delete(urn, id, unwrapSecretsInMap(resource.outputs), unwrapSecretsInMap(resource.inputs)));
}

export interface DeletionContext {
    host: () => Promise<ProviderPlugin>;
    live: LiveState;
    display: Display;
    preview: boolean;
}

/** Deletes (or, in preview, shows) each condemned resource in dependency order; stops at the first failure. */
export async function deleteAll(condemned: readonly Condemned[], context: DeletionContext): Promise<void> {
    const { host, live, display, preview } = context;
    for (const { urn, resource, replaced } of deletionOrder(condemned)) {
        const op = replaced ? "delete-replaced" : "delete";
        if (!preview) {
            try {
                if (needsProviderDelete(resource)) await deleteWithProvider(await host(), urn, resource, live);
            } catch (error) {
                throw new StepError(resource.type, urn, error);
            }
            if (replaced) live.removePendingDelete(resource as PendingDelete);
            else live.remove(urn);
        }
        display.step(op, urn, resource.type);
    }
}
