// The inputs a resource's declaration marks secret (`.meta({ secret: true })`): kept secret in what the plugin returns.
import { z } from "zod";
import { SERVED_RESOURCES } from "./resources";

const cache = new Map<string, string[]>();

export function secretInputs(typeName: string): string[] {
    let names = cache.get(typeName);
    if (names === undefined) {
        const inputs = SERVED_RESOURCES[typeName]?.declaration.inputs;
        const json = inputs === undefined ? {} : (z.toJSONSchema(inputs, { io: "input" }) as { properties?: Record<string, { secret?: boolean }> });
        names = Object.entries(json.properties ?? {})
            .filter(([, property]) => property.secret === true)
            .map(([name]) => name);
        cache.set(typeName, names);
    }
    return names;
}
