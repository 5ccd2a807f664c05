// `refresh`: each custom dynamic resource in state is read, then diffed, as the engine's RefreshStep.Apply does
// (pkg/resource/deploy/step.go), without running the program:
// - Read gets the old inputs and outputs; an empty id means the resource is gone and leaves the state. The read
//   properties become the outputs, the read inputs (when the provider returns them) the inputs.
// - A successful read clears the resource's init errors (a partial failure of an earlier up).
// - Then the provider's Diff runs as if an `up` of an unchanged program came right after: the refreshed inputs and
//   outputs stand where the old ones go, the old inputs where the new ones go. A Diff that fails fails the refresh,
//   but the state keeps what was read (as the CLI's does), and the step stays `refresh`. The step is `update` unless
//   the diff says no change.
// - With PULUMI_ENABLE_LEGACY_REFRESH_DIFF set, no Diff: the step is `update` when the outputs changed.
// Components, providers and resources waiting for their replacement are left as they are.
import { Display } from "./display";
import type { ProviderPlugin } from "./dynamicHost";
import { LiveState } from "./liveState";
import { annotateSecrets, deepEqual, PropertyMap, unwrapSecretsInMap } from "./propertyValues";
import { ResourceState } from "./stateFile";
import { StepError } from "./stepError";
import { isDynamicType } from "./urns";

export async function refresh(live: LiveState, host: () => Promise<ProviderPlugin>, display: Display): Promise<void> {
    const legacyDiff = legacyRefreshDiff();
    for (const [urn, resource] of live.entries()) {
        if (!isReadable(resource)) {
            display.step("same", urn, resource.type);
            continue;
        }
        let refreshed: ResourceState | undefined;
        let changed: boolean;
        try {
            const provider = await host();
            const read = await provider.read(urn, resource.id ?? "", unwrapSecretsInMap(resource.outputs), unwrapSecretsInMap(resource.inputs));
            if (read.id) {
                // The engine carries secretness over by property name, since the host could not see it.
                const outputs = annotateSecrets(read.properties, resource.outputs);
                const inputs = read.inputs ? annotateSecrets(read.inputs, resource.inputs) : resource.inputs;
                const { initErrors: _cleared, ...kept } = resource;
                refreshed = { ...kept, id: read.id, inputs, outputs };
                if (!legacyDiff) live.set(urn, refreshed);
                changed = legacyDiff ? !deepEqual(outputs, resource.outputs) : await differs(provider, urn, refreshed, resource.inputs);
            } else {
                changed = true;
            }
        } catch (error) {
            display.step("refresh", urn, resource.type);
            throw new StepError(resource.type, urn, error);
        }
        if (refreshed === undefined) {
            live.remove(urn);
            display.step("delete", urn, resource.type);
            continue;
        }
        live.set(urn, refreshed);
        display.step(changed ? "update" : "same", urn, resource.type);
    }
}

/** The refresh diff: what an `up` of the unchanged program would see, the program's old inputs as the new ones. */
async function differs(provider: ProviderPlugin, urn: string, refreshed: ResourceState, oldInputs: PropertyMap): Promise<boolean> {
    const diff = await provider.diff(
        urn,
        refreshed.id ?? "",
        unwrapSecretsInMap(refreshed.outputs),
        unwrapSecretsInMap(oldInputs),
        unwrapSecretsInMap(refreshed.inputs),
    );
    // DIFF_UNKNOWN (no diff() in the provider): the engine compares the inputs itself (diffResource in step_generator.go).
    return diff.changes === "unknown" ? !deepEqual(refreshed.inputs, oldInputs) : diff.changes === "some";
}

/** PULUMI_ENABLE_LEGACY_REFRESH_DIFF, read as the engine reads a boolean variable ("1" or "true", any case). */
export function legacyRefreshDiff(): boolean {
    const value = process.env.PULUMI_ENABLE_LEGACY_REFRESH_DIFF ?? "";
    return value === "1" || value.toLowerCase() === "true";
}

function isReadable(resource: ResourceState): boolean {
    return resource.custom && isDynamicType(resource.type) && !resource.pendingReplacement;
}
