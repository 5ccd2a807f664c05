// Whether a secret setting (a credential, a TLS key, a kubeconfig) differs from the one a resource's outputs keep:
// compared by value, whatever the key order of an object, and never shown.

export function secretChanged(kept: unknown, given: unknown): boolean {
    return canonicalJson(kept) !== canonicalJson(given);
}

/** JSON with object keys sorted, so that equal values compare equal whatever their key order. */
function canonicalJson(value: unknown): string | undefined {
    if (value === undefined) return undefined;
    return JSON.stringify(value, (_key, item: unknown) =>
        typeof item === "object" && item !== null && !Array.isArray(item)
            ? Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
            : item,
    );
}
