// The `credentials` input of every administration resource (OrganizationMember, Cluster, ClusterClient, …):
// `{ clientId, clientSecret, oauthUrl, audience, baseUrl, tls }`, each optional, each falling back to stack config
// `platform:<name>` and then to the environment, as AdminClient's settings do. check resolves them, so a preview shows
// the values used and refresh and destroy need neither config nor environment; a secret the program gives stays in the
// (secret) input, one from config or the environment is read where it is used and written nowhere.
//
// The client these resources talk through shares, per host process: one token per client id and audience (the token
// cache), and each whole list the API serves (members, a cluster's clients and secrets) per operation (sdk/sharedList).

import { AdminApiClient } from "../../sdk/adminApiClient";
import { TokenClient } from "../../sdk/auth/tokenClient";
import type { RetryNotice } from "../../sdk/http/request";
import { type AdminSettings, clientSecretFor, clientSecretProblem, resolveAdminSettings } from "./adminSettings";
import { Environment, StackCredentialConfig, describeSources } from "./credentials";
import { connectionFor } from "./connection";
import { objectInput } from "./objectInput";
import { type TlsInput, checkTls } from "./tlsInput";
import { UNKNOWN, containsUnknown } from "./unknowns";

/** The credentials after check: every setting resolved; the secret and tls only when the program gave them. */
export interface AdminCredentials extends AdminSettings {
    clientSecret?: string;
    tls?: TlsInput;
}

const FIELDS = ["clientId", "clientSecret", "oauthUrl", "audience", "baseUrl", "tls"];

/**
 * Checks and resolves the credentials input. Failures name the field (`credentials.clientId …`). During a preview a
 * value not known yet is kept as it is: the result is then undefined-free but may hold the unknown sentinel.
 */
export function checkAdminCredentials(
    value: unknown,
    config: StackCredentialConfig,
    env: Environment,
    fail: (property: string, reason: string) => void,
): AdminCredentials | undefined {
    const input = objectInput(value, "credentials", FIELDS, "clientId, clientSecret, oauthUrl, audience, baseUrl and tls, each optional", fail);
    if (input.kind === "invalid") return undefined;
    if (input.kind === "unknown") return value as AdminCredentials;
    const given = input.kind === "object" ? input.fields : {};
    const { settings, failures } = resolveAdminSettings(given, config, env, "credentials.");
    if (given.clientSecret !== UNKNOWN) {
        const problem = clientSecretProblem(given.clientSecret, config, env, "credentials.");
        if (problem !== undefined) failures.push(problem);
    }
    const tls = checkTls(given.tls, (property, reason) => failures.push({ property: `credentials.${property}`, reason: `credentials.${reason}` }));
    for (const failure of failures) fail(failure.property, failure.reason);
    if (failures.length > 0) return undefined;
    const credentials: AdminCredentials = { ...settings };
    if (typeof given.clientSecret === "string") credentials.clientSecret = given.clientSecret;
    if (tls !== undefined) credentials.tls = tls;
    return credentials;
}

/** Says what a retry does, in a line of the resource's own. */
export type RetryLine = (notice: RetryNotice) => void;

/** The administration API as these credentials reach it (the secret given, else the one from config or the environment). */
export function adminApiFor(
    credentials: AdminCredentials,
    config: StackCredentialConfig,
    env: Environment,
    subject: string,
    onRetry: RetryLine,
): AdminApiClient {
    if (containsUnknown(credentials)) throw new Error(`${subject}: credentials are not known yet`);
    const secret = clientSecretFor(credentials.clientSecret, config, env);
    if (secret === undefined) throw new Error(`${subject}: no client secret: set ${describeSources("clientSecret", "credentials.clientSecret")}`);
    const connection = connectionFor(subject, credentials.tls);
    const tokenProvider = new TokenClient({
        clientId: credentials.clientId,
        clientSecret: secret,
        authUrl: credentials.oauthUrl,
        audience: credentials.audience,
        connection,
    });
    return new AdminApiClient({
        baseUrl: credentials.baseUrl,
        tokenProvider,
        connection,
        shareListsAs: JSON.stringify([credentials.oauthUrl, credentials.clientId, credentials.audience]),
        onRetry,
    });
}

/** "the administration API answered 429 to GET /members: retrying in 1.2 s". */
export function retryText(notice: RetryNotice): string {
    const what = notice.status === undefined ? "did not answer" : `answered ${notice.status}${notice.status === 429 ? " (rate limited)" : ""}`;
    return `the administration API ${what} to ${notice.method} ${notice.path}: retrying in ${(notice.delayMs / 1000).toFixed(1)} s`;
}
