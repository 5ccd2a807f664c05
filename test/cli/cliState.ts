// A stack's state as the CLI's backend holds it (`pulumi stack export --show-secrets`), in test/engine's form
// (StackState), so that the two engines' states compare field by field. Secrets, shown by the CLI as their plaintext
// JSON, become the engine's wire form again; timestamps and the CLI's bookkeeping fields are left out.
import { type PropertyMap, type PropertyValue, SECRET_SIG, SECRET_SIG_KEY, isObject } from "../engine/propertyValues";
import type { PendingOperation, ResourceState, StackState } from "../engine/stateFile";
import type { StackExport } from "./cliStack";

interface ExportedResource {
    urn: string;
    custom?: boolean;
    delete?: boolean;
    type: string;
    id?: string;
    parent?: string;
    inputs?: PropertyMap;
    outputs?: PropertyMap;
    dependencies?: string[];
    initErrors?: string[];
    pendingReplacement?: boolean;
    provider?: string;
}

export function stackStateOf(exported: StackExport): StackState {
    const state: StackState = { resources: {}, pendingDeletes: [], pendingOperations: [] };
    for (const resource of (exported.deployment.resources ?? []) as ExportedResource[]) {
        const kept: ResourceState = {
            type: resource.type,
            custom: resource.custom === true,
            inputs: plain(resource.inputs ?? {}) as PropertyMap,
            outputs: plain(resource.outputs ?? {}) as PropertyMap,
            dependencies: resource.dependencies ?? [],
        };
        if (resource.id !== undefined && resource.id !== "") kept.id = resource.id;
        if (resource.parent !== undefined && resource.parent !== "") kept.parent = resource.parent;
        if (resource.initErrors !== undefined && resource.initErrors.length > 0) kept.initErrors = resource.initErrors;
        if (resource.pendingReplacement === true) kept.pendingReplacement = true;
        if (resource.provider !== undefined && resource.provider !== "") kept.provider = resource.provider;
        if (resource.delete === true) state.pendingDeletes.push({ ...kept, urn: resource.urn });
        else state.resources[resource.urn] = kept;
    }
    for (const pending of exported.deployment.pending_operations ?? []) {
        const resource = pending.resource as { urn: string; type: string };
        state.pendingOperations.push({ urn: resource.urn, type: resource.type, operation: pending.type as PendingOperation["operation"] });
    }
    return state;
}

/** The CLI shows a secret as `{sig, plaintext: "<json>"}`: the engine's form is `{sig, value}`. */
function plain(value: unknown): PropertyValue {
    if (Array.isArray(value)) return value.map(plain);
    if (!isObject(value)) return value as PropertyValue;
    if (value[SECRET_SIG_KEY] === SECRET_SIG) {
        const inner = "plaintext" in value ? (JSON.parse(String(value.plaintext)) as unknown) : value.value;
        return { [SECRET_SIG_KEY]: SECRET_SIG, value: plain(inner) };
    }
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, plain(entry)]));
}
