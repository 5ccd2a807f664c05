// The administration API's settings (AdminClient's, and every administration resource's `credentials`): resolved
// through the fallbacks (given value, stack config, environment) and validated by zod schemas without any request. During preview a given value may be the engine's unknown sentinel; it
// is kept as it is and never validated.

import { z } from "zod";
import { CredentialSettingName, Environment, StackCredentialConfig, describeSources, settingFromConfigOrEnv } from "./credentials";
import { UNKNOWN } from "./unknowns";
import { UrlProblem, hostNameOf, httpUrlProblem, protocolOf } from "./urlRules";

export { UNKNOWN } from "./unknowns";

/** Where the administration API's tokens and answers come from: every setting except the secret, resolved. */
export interface AdminSettings {
    clientId: string;
    /** The token issuer's endpoint. */
    oauthUrl: string;
    audience: string;
    /** Base URL of the administration API. */
    baseUrl: string;
}

export interface SettingFailure {
    property: string;
    reason: string;
}

/** The settings as the program gives them; anything may arrive, so nothing is assumed about the types. */
export type GivenAdminSettings = Partial<Record<keyof AdminSettings, unknown>>;

export interface ResolvedAdminSettings {
    /** Complete only when `failures` is empty. Values may be UNKNOWN during preview. */
    settings: AdminSettings;
    failures: SettingFailure[];
}

/**
 * Resolves and validates clientId, oauthUrl, audience and baseUrl. Never sends a request. `inputPrefix` names the
 * object input that holds them (`credentials.`), so that a failure names the field as the program spells it.
 */
export function resolveAdminSettings(given: GivenAdminSettings, config: StackCredentialConfig, env: Environment, inputPrefix = ""): ResolvedAdminSettings {
    const failures: SettingFailure[] = [];
    const schemas = settingSchemas(inputPrefix);
    const setting = (name: keyof AdminSettings, fallback?: () => string | undefined): string => {
        const raw = given[name] !== undefined ? given[name] : (settingFromConfigOrEnv(name, config, env) ?? fallback?.());
        if (raw === UNKNOWN) return UNKNOWN;
        const result = schemas[name].safeParse(raw);
        if (result.success) return result.data;
        failures.push({ property: `${inputPrefix}${name}`, reason: result.error.issues[0].message });
        return "";
    };
    const clientId = setting("clientId");
    const oauthUrl = setting("oauthUrl");
    const baseUrl = setting("baseUrl");
    // Unset, the audience is the host name of baseUrl: unknown while baseUrl is unknown, and not
    // reported as missing when baseUrl itself failed (its failure says enough).
    const audienceSet = given.audience !== undefined || settingFromConfigOrEnv("audience", config, env) !== undefined;
    const audience = !audienceSet && (baseUrl === UNKNOWN || baseUrl === "") ? baseUrl : setting("audience", () => hostNameOf(baseUrl));
    return { settings: { clientId, oauthUrl, audience, baseUrl }, failures };
}

/** Checks that some client secret is available; the secret itself is never returned from here. */
export function clientSecretProblem(given: unknown, config: StackCredentialConfig, env: Environment, inputPrefix = ""): SettingFailure | undefined {
    const result = settingSchema("clientSecret", inputPrefix).safeParse(given !== undefined ? given : settingFromConfigOrEnv("clientSecret", config, env));
    return result.success ? undefined : { property: `${inputPrefix}clientSecret`, reason: result.error.issues[0].message };
}

/** The client secret to use now: the given one, else stack config, else the environment. */
export function clientSecretFor(given: unknown, config: StackCredentialConfig, env: Environment): string | undefined {
    if (typeof given === "string" && given !== "") return given;
    return settingFromConfigOrEnv("clientSecret", config, env);
}

/** One sentence listing the failures, for callers that throw instead of reporting check failures. */
export function describeFailures(failures: SettingFailure[]): string {
    return failures.map((failure) => failure.reason).join("; ");
}

/** A setting: required, a string, not blank; trimmed. */
function settingSchema(name: CredentialSettingName, inputPrefix: string) {
    const field = `${inputPrefix}${name}`;
    const defaulted = name === "audience" ? ` (by default the host name of ${inputPrefix}baseUrl)` : "";
    return z
        .string({
            error: (issue) =>
                issue.input === undefined ? `${field} is required: set ${describeSources(name, field)}${defaulted}` : `${field} must be a string`,
        })
        .trim()
        .min(1, `${field} must not be empty`);
}

/** A URL setting: also absolute, http or https, without credentials. */
function urlSettingSchema(name: CredentialSettingName, inputPrefix: string) {
    return settingSchema(name, inputPrefix).check(
        z.superRefine((url, ctx) => {
            const problem = httpUrlProblem(url);
            if (problem !== undefined) ctx.addIssue({ code: "custom", message: URL_REASONS[problem](`${inputPrefix}${name}`, url) });
        }),
    );
}

const URL_REASONS: Record<UrlProblem, (name: string, url: string) => string> = {
    "not absolute": (name) => `${name} must be an absolute http(s) URL, such as https://host/path`,
    "not http": (name, url) => `${name} must be an http or https URL, not ${protocolOf(url)}`,
    credentials: (name) => `${name} must not contain a user name or password`,
    "not an origin": (name) => `${name} must be an absolute http(s) URL, such as https://host/path`,
};

/** The settings' schemas for each input prefix in use, built once. */
const SETTING_SCHEMAS = new Map<string, Record<keyof AdminSettings, z.ZodType<string>>>();

function settingSchemas(inputPrefix: string): Record<keyof AdminSettings, z.ZodType<string>> {
    let schemas = SETTING_SCHEMAS.get(inputPrefix);
    if (schemas === undefined) {
        schemas = {
            clientId: settingSchema("clientId", inputPrefix),
            oauthUrl: urlSettingSchema("oauthUrl", inputPrefix),
            audience: settingSchema("audience", inputPrefix),
            baseUrl: urlSettingSchema("baseUrl", inputPrefix),
        };
        SETTING_SCHEMAS.set(inputPrefix, schemas);
    }
    return schemas;
}
