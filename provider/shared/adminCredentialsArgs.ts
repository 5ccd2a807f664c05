// The `credentials` argument every administration resource takes (checked by adminCredentials.ts in the provider).
import type * as pulumi from "@pulumi/pulumi";
import type { TlsArgs } from "./tlsArgs";

/**
 * How an administration resource reaches the API: each setting falls back to stack config `platform:<name>`, then to
 * an environment variable (as AdminClient's do). Stored as a secret; a client secret from config or the environment is
 * never stored.
 */
export interface AdminCredentialsArgs {
    /** Else `platform:clientId`, else PLATFORM_CONSOLE_CLIENT_ID. */
    clientId?: pulumi.Input<string>;
    /** Else `platform:clientSecret`, else PLATFORM_CONSOLE_CLIENT_SECRET. */
    clientSecret?: pulumi.Input<string>;
    /** The token issuer's endpoint. Else `platform:oauthUrl`, else PLATFORM_OAUTH_URL. */
    oauthUrl?: pulumi.Input<string>;
    /** Else `platform:audience`, else PLATFORM_CONSOLE_OAUTH_AUDIENCE, else the host name of `baseUrl`. */
    audience?: pulumi.Input<string>;
    /** Base URL of the administration API. Else `platform:baseUrl`, else PLATFORM_CONSOLE_BASE_URL. */
    baseUrl?: pulumi.Input<string>;
    /** A private CA to trust and a client certificate, for the token issuer and the administration API. */
    tls?: pulumi.Input<TlsArgs>;
}
