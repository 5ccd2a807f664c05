// Property values in the engine's wire form: plain JSON in which a secret is an object tagged with the secret
// signature and an unknown (a value not known during preview) is the sentinel string below.

export type PropertyValue = null | boolean | number | string | PropertyValue[] | { [key: string]: PropertyValue };
export type PropertyMap = { [key: string]: PropertyValue };

export const SECRET_SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
/** How the engine represents a value that is unknown during preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function isObject(value: unknown): value is { [key: string]: PropertyValue } {
    return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isSecret(value: unknown): value is { [key: string]: PropertyValue; value: PropertyValue } {
    return isObject(value) && value[SECRET_SIG_KEY] === SECRET_SIG;
}

export function makeSecret(value: PropertyValue): PropertyValue {
    return isSecret(value) ? value : { [SECRET_SIG_KEY]: SECRET_SIG, value };
}

/** Plaintext, as the engine sends properties to a provider that reports acceptSecrets=false. */
export function unwrapSecrets(value: PropertyValue): PropertyValue {
    if (isSecret(value)) return unwrapSecrets(value.value);
    if (Array.isArray(value)) return value.map(unwrapSecrets);
    if (isObject(value)) return mapValues(value, unwrapSecrets);
    return value;
}

/** Every secret replaced by "[secret]", as `pulumi stack output` shows stack outputs. */
export function maskSecrets(value: PropertyValue): PropertyValue {
    if (isSecret(value)) return "[secret]";
    if (Array.isArray(value)) return value.map(maskSecrets);
    if (isObject(value)) return mapValues(value, maskSecrets);
    return value;
}

export function unwrapSecretsInMap(map: PropertyMap): PropertyMap {
    return mapValues(map, unwrapSecrets);
}

export function containsSecrets(value: PropertyValue): boolean {
    if (isSecret(value)) return true;
    if (Array.isArray(value)) return value.some(containsSecrets);
    if (isObject(value)) return Object.values(value).some(containsSecrets);
    return false;
}

/**
 * The engine's annotateSecrets: a provider that cannot take secrets loses the secret bit, so an output is marked
 * secret when the same-named input contained a secret. Objects are matched key by key; anything else (arrays too)
 * becomes wholly secret.
 */
export function annotateSecrets(outs: PropertyMap, ins: PropertyMap): PropertyMap {
    const result: PropertyMap = { ...outs };
    for (const [key, input] of Object.entries(ins)) {
        if (!(key in result)) continue;
        const output = result[key];
        if (isObject(output) && !isSecret(output) && isObject(input) && !isSecret(input)) {
            result[key] = annotateSecrets(output, input);
        } else if (!isSecret(output) && containsSecrets(input)) {
            result[key] = makeSecret(output);
        }
    }
    return result;
}

/** additionalSecretOutputs: the named top-level outputs become secret. */
export function markSecretOutputs(outs: PropertyMap, names: readonly string[]): PropertyMap {
    const result: PropertyMap = { ...outs };
    for (const name of names) {
        if (name in result) result[name] = makeSecret(result[name]);
    }
    return result;
}

export function containsUnknowns(value: PropertyValue): boolean {
    if (value === UNKNOWN) return true;
    if (Array.isArray(value)) return value.some(containsUnknowns);
    if (isObject(value)) return Object.values(value).some(containsUnknowns);
    return false;
}

/** Structural equality of two values, ignoring secretness (the engine compares the values a secret holds). */
export function deepEqual(a: PropertyValue, b: PropertyValue): boolean {
    const x = isSecret(a) ? a.value : a;
    const y = isSecret(b) ? b.value : b;
    if (Array.isArray(x) || Array.isArray(y)) {
        return Array.isArray(x) && Array.isArray(y) && x.length === y.length && x.every((v, i) => deepEqual(v, y[i]));
    }
    if (isObject(x) || isObject(y)) {
        if (!isObject(x) || !isObject(y)) return false;
        const keys = Object.keys(x);
        return keys.length === Object.keys(y).length && keys.every((k) => k in y && deepEqual(x[k], y[k]));
    }
    return x === y;
}

/** Text for display: secrets never shown, unknowns named. */
export function describeValue(value: PropertyValue): string {
    if (isSecret(value)) return "[secret]";
    if (value === UNKNOWN) return "[unknown]";
    if (Array.isArray(value)) return `[${value.map(describeValue).join(", ")}]`;
    if (isObject(value)) {
        return `{${Object.entries(value)
            .map(([k, v]) => `${JSON.stringify(k)}: ${describeValue(v)}`)
            .join(", ")}}`;
    }
    return JSON.stringify(value);
}

/**
 * A value as Pulumi's engine prints it with `%v` (resource.PropertyValue.String() in sdk/go/common/resource/properties.go,
 * Go's fmt underneath): `{6}`, `{text}`, `{[{a} {b}]}`, `{map[k:{v}]}` (keys sorted), `{<nil>}` for null or absent, and an
 * unknown as `output<string>{}`. A secret is printed with its plaintext (`{&{{value}}}`): the engine does that.
 */
export function goString(value: PropertyValue | undefined): string {
    if (value === UNKNOWN) return "output<string>{}";
    return `{${goOperand(value)}}`;
}

/**
 * A value as the engine prints it in a check failure (issueCheckFailures, pkg/resource/deploy/step_generator.go):
 * PropertyValue.RedactSecrets(), goString with every secret, however deep, as the text `[secret]` (`{[secret]}`,
 * `{map[kubeconfig:{[secret]}]}`). Only `--show-secrets` prints the plaintext, which this engine has no switch for.
 */
export function goStringRedacted(value: PropertyValue | undefined): string {
    return goString(redacted(value));
}

function redacted(value: PropertyValue | undefined): PropertyValue | undefined {
    if (isSecret(value)) return "[secret]";
    if (Array.isArray(value)) return value.map((item) => redacted(item) ?? null);
    if (isObject(value)) return mapValues(value, (item) => redacted(item) ?? null);
    return value;
}

function goOperand(value: PropertyValue | undefined): string {
    if (value === null || value === undefined) return "<nil>";
    if (isSecret(value)) return `&{${goString(value.value)}}`;
    if (Array.isArray(value)) return `[${value.map(goString).join(" ")}]`;
    if (isObject(value)) {
        const keys = Object.keys(value).sort();
        return `map[${keys.map((key) => `${key}:${goString(value[key])}`).join(" ")}]`;
    }
    if (typeof value === "number") return goFloat(value);
    return String(value);
}

/** A float64 as Go's %v prints it (%g, shortest): exponent form from 1e+06 up and below 1e-04. */
function goFloat(x: number): string {
    if (x === 0 || !Number.isFinite(x)) return Number.isNaN(x) ? "NaN" : x === 0 ? "0" : x > 0 ? "+Inf" : "-Inf";
    const [mantissa, exponentText] = x.toExponential().split("e");
    const exponent = Number(exponentText);
    if (exponent < -4 || exponent >= 6) return `${mantissa}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
    return String(x);
}

function mapValues(map: { [key: string]: PropertyValue }, f: (v: PropertyValue) => PropertyValue): PropertyMap {
    const result: PropertyMap = {};
    for (const [key, value] of Object.entries(map)) result[key] = f(value);
    return result;
}
