// The properties a resource's declaration marks secret (`.meta({ secret: true })`), inputs and outputs: kept secret
// in what the plugin returns.
import { z } from "zod";
import { SERVED_RESOURCES } from "./resources";

const cache = new Map<string, string[]>();

export function declaredSecrets(typeName: string): string[] {
    let names = cache.get(typeName);
    if (names === undefined) {
        const declaration = SERVED_RESOURCES[typeName]?.declaration;
        names = declaration === undefined ? [] : [...new Set([...secretsOf(declaration.inputs), ...secretsOf(declaration.outputs)])];
        cache.set(typeName, names);
    }
    return names;
}

function secretsOf(schema: z.ZodObject): string[] {
    const json = z.toJSONSchema(schema, { io: "input" }) as { properties?: Record<string, { secret?: boolean }> };
    return Object.entries(json.properties ?? {})
        .filter(([, property]) => property.secret === true)
        .map(([name]) => name);
}
