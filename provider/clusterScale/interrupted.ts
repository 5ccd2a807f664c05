// The partial failure ClusterScale raises when a change it started does not complete: the resource stays in state
// with the change's id, so the next up waits for that change instead of sending a second request.
//
// The host sends a partial failure's properties in a gRPC trailer, and a trailer over 64 KiB never arrives
// (measured: the call hangs), so the properties are kept within a budget. They hold the resource's `__provider`
// (the small shim that loads the installed provider; refresh and destroy load it from the stored outputs) and
// keep no credentials: the next up takes them from its inputs.

import type { ClusterScaleOutputs } from "./outputs";

/** Properties above this size are cut down (topology first, then the plan); the next up reads both back. */
const PROPERTIES_BUDGET = 32_000;

/** The error the host turns into a partial failure (an id, the properties to keep, including `__provider`, and the reasons). */
export function partialFailure(id: string, properties: ClusterScaleOutputs & { __provider: unknown }, message: string): Error {
    const kept = withinBudget(JSON.parse(JSON.stringify(properties)) as ClusterScaleOutputs);
    const error = new Error(message) as Error & { id: string; properties: Record<string, unknown>; reasons: string[] };
    error.id = id;
    error.properties = { ...kept, __provider: properties.__provider };
    error.reasons = [message];
    return error;
}

/** Whether an error is such a partial failure. */
export function isPartialFailure(error: unknown): boolean {
    return error instanceof Error && typeof (error as { id?: unknown }).id === "string" && typeof (error as { properties?: unknown }).properties === "object";
}

function withinBudget(outputs: ClusterScaleOutputs): ClusterScaleOutputs {
    const size = (value: unknown) => JSON.stringify(value).length;
    if (size(outputs) <= PROPERTIES_BUDGET) return outputs;
    const withoutTopology = { ...outputs, topology: [] };
    if (size(withoutTopology) <= PROPERTIES_BUDGET) return withoutTopology;
    return { ...withoutTopology, plannedChanges: [] };
}
