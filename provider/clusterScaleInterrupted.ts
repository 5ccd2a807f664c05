// The partial failure ClusterScale raises when a change it started does not complete: the resource stays in state
// with the change's id, so the next up waits for that change instead of sending a second request.
//
// Why it does not carry the provider's own code: the host sends a partial failure's properties in a gRPC trailer,
// and a trailer over 64 KiB never arrives (measured: the call hangs). The serialized ClusterScale provider is far
// larger than that. The properties must still hold a `__provider` (refresh and destroy load it from the stored
// outputs), so they hold the small provider below. It serves exactly refresh and destroy until the next up, whose
// update stores the full provider again. It sends no request, so these properties keep no credentials (no `auth`):
// the next up takes them from its inputs.

import type { ClusterScaleOutputs } from "./clusterScaleOutputs";

/** Properties above this size are cut down (topology first, then the plan); the next up reads both back. */
const PROPERTIES_BUDGET = 32_000;

/** Serialized-provider text (what `__provider` holds) for a resource whose last change was interrupted. */
export const INTERRUPTED_CHANGE_PROVIDER = [
    "exports.handler = function () {",
    "    function note(props) {",
    "        var name = (props && props.resourceName) || 'cluster';",
    "        return 'ClusterScale \"' + name + '\": change ' + (props && props.changeId) + ' had not completed when last applied; run up to resume waiting for it';",
    "    }",
    "    return {",
    "        read: async function (id, props) {",
    "            console.log(note(props) + ' (refresh keeps the layout recorded then)');",
    "            return { id: id, props: props };",
    "        },",
    "        delete: async function (id, props) {",
    "            console.log(note(props) + '; removed from the stack only, nothing is sent to the cluster');",
    "        },",
    "    };",
    "};",
].join("\n");

/** The error the host turns into a partial failure (an id, the properties to keep, and the reasons). */
export function partialFailure(id: string, outputs: ClusterScaleOutputs, message: string): Error {
    const properties = withinBudget(JSON.parse(JSON.stringify(outputs)) as ClusterScaleOutputs);
    const error = new Error(message) as Error & { id: string; properties: Record<string, unknown>; reasons: string[] };
    error.id = id;
    error.properties = { ...properties, __provider: INTERRUPTED_CHANGE_PROVIDER };
    error.reasons = [message];
    return error;
}

function withinBudget(outputs: ClusterScaleOutputs): ClusterScaleOutputs {
    const size = (value: unknown) => JSON.stringify(value).length;
    if (size(outputs) <= PROPERTIES_BUDGET) return outputs;
    const withoutTopology = { ...outputs, topology: [] };
    if (size(withoutTopology) <= PROPERTIES_BUDGET) return withoutTopology;
    return { ...withoutTopology, plannedChanges: [] };
}
