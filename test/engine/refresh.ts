// `refresh`: Read every custom dynamic resource in state, as the engine does without running the program. The read
// properties become the outputs, read inputs (when returned) the inputs; an empty id means the resource is gone.
import { Display } from "./display";
import { DynamicHost } from "./dynamicHost";
import { LiveState } from "./liveState";
import { annotateSecrets, deepEqual, unwrapSecretsInMap } from "./propertyValues";
import { ResourceState } from "./stateFile";
import { StepError } from "./stepError";
import { isDynamicType } from "./urns";

export async function refresh(live: LiveState, host: () => Promise<DynamicHost>, display: Display): Promise<void> {
    for (const [urn, resource] of live.entries()) {
        if (!isReadable(resource)) {
            display.step("same", urn, resource.type);
            continue;
        }
        let read;
        try {
            read = await (await host()).read(urn, resource.id ?? "", unwrapSecretsInMap(resource.outputs), unwrapSecretsInMap(resource.inputs));
        } catch (error) {
            throw new StepError(resource.type, urn, error);
        }
        if (!read.id) {
            live.remove(urn);
            display.step("delete", urn, resource.type);
            continue;
        }
        // The engine carries secretness over by property name, since the host could not see it.
        const outputs = annotateSecrets(read.properties, resource.outputs);
        const inputs = read.inputs ? annotateSecrets(read.inputs, resource.inputs) : resource.inputs;
        const changed = read.id !== resource.id || !deepEqual(outputs, resource.outputs) || !deepEqual(inputs, resource.inputs);
        live.set(urn, { ...resource, id: read.id, outputs, inputs });
        display.step(changed ? "update" : "same", urn, resource.type);
    }
}

function isReadable(resource: ResourceState): boolean {
    return resource.custom && isDynamicType(resource.type) && !resource.pendingReplacement;
}
