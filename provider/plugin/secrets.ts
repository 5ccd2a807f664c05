// Secret values as a provider plugin sees them: the engine sends a secret input wrapped in an envelope (a plugin
// accepts secrets), where a dynamic provider is given the plain value; the resources' code works on plain values, so
// the plugin unwraps what it is given and wraps again what must stay secret in what it returns.

const SIGNATURE_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIGNATURE = "1b47061264138c4ac30d75fd1eb44270";

export function isSecretEnvelope(value: unknown): value is { value: unknown } {
    return typeof value === "object" && value !== null && (value as Record<string, unknown>)[SIGNATURE_KEY] === SECRET_SIGNATURE;
}

/** The value with every envelope inside it replaced by what it holds. */
export function unwrapSecrets(value: unknown): unknown {
    if (isSecretEnvelope(value)) return unwrapSecrets(value.value);
    if (Array.isArray(value)) return value.map(unwrapSecrets);
    if (typeof value === "object" && value !== null) {
        return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, unwrapSecrets(inner)]));
    }
    return value;
}

/** The top-level properties that hold a secret anywhere inside them. */
export function secretProperties(properties: Record<string, unknown>): string[] {
    return Object.keys(properties).filter((key) => containsSecret(properties[key]));
}

function containsSecret(value: unknown): boolean {
    if (isSecretEnvelope(value)) return true;
    if (Array.isArray(value)) return value.some(containsSecret);
    if (typeof value === "object" && value !== null) return Object.values(value).some(containsSecret);
    return false;
}

/** The properties with each one named wrapped as a secret (those absent stay absent). */
export function wrapSecrets(properties: Record<string, unknown>, names: Iterable<string>): Record<string, unknown> {
    const wrapped = { ...properties };
    for (const name of names) {
        if (wrapped[name] !== undefined && !isSecretEnvelope(wrapped[name])) wrapped[name] = { [SIGNATURE_KEY]: SECRET_SIGNATURE, value: wrapped[name] };
    }
    return wrapped;
}
