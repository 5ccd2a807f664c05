// The plugin's own configuration, as every Pulumi provider takes it: the default provider's from stack config
// (`pulumi config set [--secret] platform:<key> …`, the engine passes the `platform:` keys as its inputs), an explicit
// provider's from its inputs (`platform.Provider("prod", client_secret=…)`). The keys are those a TypeScript program's
// dynamic providers read from stack config, and they mean the same there: resource inputs come first, then these,
// then the environment. Secrets (the client secret, the kubeconfig) stay secrets. A key whose value breaks its rule
// is refused by CheckConfig, naming it, before any resource is read.
import { z } from "zod";
import { CONFIG_NAMESPACE } from "../shared/credentials";
import { httpUrlProblem } from "../shared/urlRules";

export const providerConfigDeclaration = z.object({
    managementUrl: z
        .string()
        .optional()
        .describe("Origin of the clusters' management API, for ClusterScale without managementUrl. Else PLATFORM_MANAGEMENT_URL."),
    gatewayUrl: z.string().optional().describe("Origin of the gateway REST API, for ClusterScale without gatewayUrl. Else PLATFORM_GATEWAY_URL."),
    clientId: z.string().optional().describe("The administration API client's id. Else PLATFORM_CONSOLE_CLIENT_ID."),
    clientSecret: z.string().optional().meta({ secret: true }).describe("The administration API client's secret. Else PLATFORM_CONSOLE_CLIENT_SECRET."),
    oauthUrl: z.string().optional().describe("The token issuer's endpoint. Else PLATFORM_OAUTH_URL."),
    audience: z.string().optional().describe("The token's audience. Else PLATFORM_CONSOLE_OAUTH_AUDIENCE, else the host name of baseUrl."),
    baseUrl: z.string().optional().describe("Base URL of the administration API. Else PLATFORM_CONSOLE_BASE_URL."),
    kubeconfig: z
        .string()
        .optional()
        .meta({ secret: true })
        .describe("kubeconfig YAML content or a file path, for ClusterScale's kubernetes route without its own. Else KUBECONFIG, else ~/.kube/config."),
});

export type ProviderConfig = z.infer<typeof providerConfigDeclaration>;
export const PROVIDER_CONFIG_KEYS = Object.keys(providerConfigDeclaration.shape) as (keyof ProviderConfig)[];
/** The keys the declaration marks secret. */
export const SECRET_CONFIG_KEYS = PROVIDER_CONFIG_KEYS.filter((key) => providerConfigDeclaration.shape[key].meta()?.secret === true);

const ORIGINS: (keyof ProviderConfig)[] = ["managementUrl", "gatewayUrl"];
const URLS: (keyof ProviderConfig)[] = ["oauthUrl", "baseUrl"];

/** What breaks the keys' rules, each failure naming its key. Keys the plugin does not know are left alone. */
export function providerConfigFailures(given: Record<string, unknown>): { property: string; reason: string }[] {
    const failures: { property: string; reason: string }[] = [];
    for (const key of PROVIDER_CONFIG_KEYS) {
        const value = given[key];
        if (value === undefined || value === null || value === "") continue;
        if (typeof value !== "string") {
            failures.push({ property: key, reason: `${CONFIG_NAMESPACE}:${key} must be a string` });
        } else if (ORIGINS.includes(key) && httpUrlProblem(value, { originOnly: true }) !== undefined) {
            failures.push({
                property: key,
                reason: `${CONFIG_NAMESPACE}:${key} must be an absolute http(s) origin without path, query or credentials, e.g. http://gateway:9600`,
            });
        } else if (URLS.includes(key) && httpUrlProblem(value) !== undefined) {
            failures.push({ property: key, reason: `${CONFIG_NAMESPACE}:${key} must be an absolute http(s) URL without credentials` });
        }
    }
    return failures;
}

/** The settings as a TypeScript program's stack config holds them, by key (`platform:managementUrl`, `kubernetes:kubeconfig`). */
export function asStackConfig(given: Record<string, unknown>): Record<string, string> {
    const config: Record<string, string> = {};
    for (const key of PROVIDER_CONFIG_KEYS) {
        const value = given[key];
        if (typeof value !== "string" || value === "") continue;
        config[key === "kubeconfig" ? "kubernetes:kubeconfig" : `${CONFIG_NAMESPACE}:${key}`] = value;
    }
    return config;
}
