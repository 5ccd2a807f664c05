// AdminClient's settings: resolved through the fallbacks (given value, stack config, environment) and
// validated without any request. During preview a given value may be the engine's unknown sentinel; it
// is kept as it is and never validated.

import type { AdminSettings } from "./types";
import { CredentialSettingName, Environment, StackCredentialConfig, defaultAudience, describeSources, settingFromConfigOrEnv } from "../shared/credentials";

import { UNKNOWN } from "../shared/unknowns";

export { UNKNOWN } from "../shared/unknowns";

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

/** Resolves and validates clientId, oauthUrl, audience and baseUrl. Never sends a request. */
export function resolveAdminSettings(given: GivenAdminSettings, config: StackCredentialConfig, env: Environment): ResolvedAdminSettings {
    const failures: SettingFailure[] = [];
    const setting = (name: keyof AdminSettings, isUrl: boolean, fallback?: () => string | undefined): string => {
        const raw = given[name] !== undefined ? given[name] : (settingFromConfigOrEnv(name, config, env) ?? fallback?.());
        const reason = settingProblem(name, raw, isUrl);
        if (reason !== undefined) {
            failures.push({ property: name, reason });
            return "";
        }
        return (raw as string).trim();
    };
    const clientId = setting("clientId", false);
    const oauthUrl = setting("oauthUrl", true);
    const baseUrl = setting("baseUrl", true);
    // Unset, the audience is the host name of baseUrl: unknown while baseUrl is unknown, and not
    // reported as missing when baseUrl itself failed (its failure says enough).
    const audienceSet = given.audience !== undefined || settingFromConfigOrEnv("audience", config, env) !== undefined;
    const audience = !audienceSet && (baseUrl === UNKNOWN || baseUrl === "") ? baseUrl : setting("audience", false, () => defaultAudience(baseUrl));
    return { settings: { clientId, oauthUrl, audience, baseUrl }, failures };
}

/** Checks that some client secret is available; the secret itself is never returned from here. */
export function clientSecretProblem(given: unknown, config: StackCredentialConfig, env: Environment): SettingFailure | undefined {
    if (given === undefined) {
        return settingFromConfigOrEnv("clientSecret", config, env) === undefined
            ? { property: "clientSecret", reason: `clientSecret is required: set ${describeSources("clientSecret")}` }
            : undefined;
    }
    if (typeof given !== "string") return { property: "clientSecret", reason: "clientSecret must be a string" };
    if (given === "") return { property: "clientSecret", reason: "clientSecret must not be empty" };
    return undefined;
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

function settingProblem(name: CredentialSettingName, value: unknown, isUrl: boolean): string | undefined {
    if (value === undefined) {
        const defaulted = name === "audience" ? " (by default the host name of baseUrl)" : "";
        return `${name} is required: set ${describeSources(name)}${defaulted}`;
    }
    if (value === UNKNOWN) return undefined;
    if (typeof value !== "string") return `${name} must be a string`;
    if (value.trim() === "") return `${name} must not be empty`;
    return isUrl ? urlProblem(name, value.trim()) : undefined;
}

function urlProblem(name: CredentialSettingName, value: string): string | undefined {
    let url: URL;
    try {
        url = new URL(value);
    } catch {
        return `${name} must be an absolute http(s) URL, such as https://host/path`;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return `${name} must be an http or https URL, not ${url.protocol}`;
    // Such a URL would put a password into the state and into log lines.
    if (url.username !== "" || url.password !== "") return `${name} must not contain a user name or password`;
    return undefined;
}
