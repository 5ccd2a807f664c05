// The first checks of an input that is an object of known fields: given at all, known yet, an object, no stranger.

import { containsUnknown } from "./unknowns";

export type ObjectInput = { kind: "absent" } | { kind: "unknown" } | { kind: "invalid" } | { kind: "object"; fields: Record<string, unknown> };

/** Reports a failure naming `property` when the value is not an object of `known` fields (`shape` says what it should be). */
export function objectInput(
    value: unknown,
    property: string,
    known: readonly string[],
    shape: string,
    fail: (property: string, reason: string) => void,
): ObjectInput {
    if (value === undefined || value === null) return { kind: "absent" };
    if (containsUnknown(value)) return { kind: "unknown" };
    if (typeof value !== "object" || Array.isArray(value)) {
        fail(property, `${property} must be an object with ${shape}`);
        return { kind: "invalid" };
    }
    const fields = value as Record<string, unknown>;
    const extra = Object.keys(fields).filter((key) => !known.includes(key) && fields[key] !== undefined);
    if (extra.length > 0) {
        fail(property, `${property} has unknown field(s) ${extra.join(", ")}: use ${known.join(", ")}`);
        return { kind: "invalid" };
    }
    return { kind: "object", fields };
}
