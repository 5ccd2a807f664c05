// Values Pulumi does not know yet: during a preview, an input that depends on a resource still to be created
// arrives as this sentinel, anywhere in a value. Checks let such values through; plans wait for them.

/** The engine's stand-in for a value that is not known yet. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function isUnknown(value: unknown): boolean {
    return value === UNKNOWN;
}

/** True when the value, or anything inside it, is not known yet. */
export function containsUnknown(value: unknown): boolean {
    if (value === UNKNOWN) return true;
    if (Array.isArray(value)) return value.some(containsUnknown);
    if (typeof value === "object" && value !== null) return Object.values(value).some(containsUnknown);
    return false;
}

/**
 * A checked value typed as known. The sentinel stays in the value during a preview: every caller of check's inputs
 * looks at containsUnknown (or hasUnknowns) before it uses one, so this is where that promise is written once.
 */
export function asChecked<T>(value: T | typeof UNKNOWN | (T extends readonly (infer E)[] ? (E | typeof UNKNOWN)[] : never)): T {
    return value as T;
}
