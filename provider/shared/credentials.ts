// Where the settings of a client-credentials grant come from: the value the program gives, else the
// stack config `platform:<name>`, else the environment variable the seed names. Shared by AdminClient,
// getMembers and any resource that authenticates with client credentials.

/** The settings of a client-credentials grant plus the administration API it is for. */
export type CredentialSettingName = "clientId" | "clientSecret" | "oauthUrl" | "audience" | "baseUrl";

/** Stack config namespace of the settings: `platform:clientId`, `platform:baseUrl`, ... */
export const CONFIG_NAMESPACE = "platform";

/** The environment variable of each setting. */
export const CREDENTIAL_ENV: Readonly<Record<CredentialSettingName, string>> = {
    clientId: "PLATFORM_CONSOLE_CLIENT_ID",
    clientSecret: "PLATFORM_CONSOLE_CLIENT_SECRET",
    oauthUrl: "PLATFORM_OAUTH_URL",
    audience: "PLATFORM_CONSOLE_OAUTH_AUDIENCE",
    baseUrl: "PLATFORM_CONSOLE_BASE_URL",
};

/** The settings found in stack config, by setting name. */
export type StackCredentialConfig = Partial<Record<CredentialSettingName, string>>;

export type Environment = Record<string, string | undefined>;

/**
 * Reads every credential setting from stack config. `get` takes a setting name and reads it in the
 * `platform` namespace: from a dynamic provider's `configure` request, or with `pulumi.Config` in a program.
 */
export function readCredentialConfig(get: (name: CredentialSettingName) => string | undefined): StackCredentialConfig {
    const found: StackCredentialConfig = {};
    for (const name of Object.keys(CREDENTIAL_ENV) as CredentialSettingName[]) {
        const value = get(name);
        if (value !== undefined && value !== "") found[name] = value;
    }
    return found;
}

/**
 * A setting from config, else from the environment; undefined when neither sets it. An empty variable
 * counts as unset. The value a program gives explicitly comes first and is the caller's to check.
 */
export function settingFromConfigOrEnv(name: CredentialSettingName, config: StackCredentialConfig, env: Environment): string | undefined {
    const fromConfig = config[name];
    if (fromConfig !== undefined && fromConfig !== "") return fromConfig;
    const fromEnv = env[CREDENTIAL_ENV[name]];
    return fromEnv !== undefined && fromEnv !== "" ? fromEnv : undefined;
}

/** "the clientId input, stack config platform:clientId or environment variable PLATFORM_CONSOLE_CLIENT_ID". */
export function describeSources(name: CredentialSettingName, input: string = name): string {
    return `the ${input} input, stack config ${CONFIG_NAMESPACE}:${name} or environment variable ${CREDENTIAL_ENV[name]}`;
}
