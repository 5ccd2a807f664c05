// The one clean environment of the test runs: loaded by mocha before any suite (.mocharc.json), it removes every
// variable the package reads (PLATFORM_*, the proxy variables, KUBECONFIG) and the engine's switches from this
// process, so nothing of the machine's environment reaches the code under test, in this process or in the programs
// and hosts it starts. A test that needs one sets it on the run it starts.

/** Every environment variable the package reads besides the standard Node ones; test/support/environment.spec.ts keeps it complete. */
export const PACKAGE_ENVIRONMENT = [
    "PLATFORM_CONSOLE_CLIENT_ID",
    "PLATFORM_CONSOLE_CLIENT_SECRET",
    "PLATFORM_OAUTH_URL",
    "PLATFORM_CONSOLE_OAUTH_AUDIENCE",
    "PLATFORM_CONSOLE_BASE_URL",
    "PLATFORM_MANAGEMENT_URL",
    "PLATFORM_GATEWAY_URL",
    "PLATFORM_LOG_LEVEL",
    "PLATFORM_PREVIEW_REQUIRE_CLUSTER",
    "PLATFORM_TLS_CA_FILE",
    "PLATFORM_TOKEN_CACHE_DIR",
    "PLATFORM_TOKEN_DISK_CACHE",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "http_proxy",
    "https_proxy",
    "no_proxy",
    "KUBECONFIG",
] as const;

/** Switches of Pulumi's engine that test/engine honours as the engine does. */
export const ENGINE_ENVIRONMENT = ["PULUMI_ENABLE_LEGACY_REFRESH_DIFF"] as const;

for (const name of [...PACKAGE_ENVIRONMENT, ...ENGINE_ENVIRONMENT]) delete process.env[name];
