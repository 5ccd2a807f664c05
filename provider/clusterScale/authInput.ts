// ClusterScale's `auth` input: fixed headers, or a client-credentials grant, for a management API behind
// authentication. Never echoes a credential in a failure.

import { z } from "zod";
import { checkObjectInput } from "../shared/objectSchema";
import { httpUrlProblem } from "../shared/urlRules";

/** Credentials for the management and gateway APIs, as the provider receives them (plaintext). */
export interface ManagementAuth {
    headers?: Record<string, string>;
    clientId?: string;
    clientSecret?: string;
    oauthUrl?: string;
    audience?: string;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const GRANT_FIELDS = ["clientId", "clientSecret", "oauthUrl", "audience"] as const;
const REQUIRED_GRANT_FIELDS = ["clientId", "clientSecret", "oauthUrl"] as const;

const text = z.string().nullish();

const authSchema = z
    .object({ headers: z.record(z.string(), z.string()).nullish(), clientId: text, clientSecret: text, oauthUrl: text, audience: text })
    .superRefine((auth, ctx) => {
        const problem = (field: string | undefined, message: string) => ctx.addIssue({ code: "custom", path: field === undefined ? [] : [field], message });
        if (auth.headers != null) {
            if (GRANT_FIELDS.some((key) => auth[key] != null)) {
                problem(undefined, "auth takes either headers or a client-credentials grant (clientId, clientSecret, oauthUrl), not both");
                return;
            }
            const names = Object.keys(auth.headers);
            const badName = names.find((name) => !HEADER_NAME.test(name));
            if (names.length === 0) problem("headers", "auth.headers is empty");
            else if (badName !== undefined) problem("headers", `auth.headers has an invalid header name ${JSON.stringify(badName)}`);
            return;
        }
        for (const key of REQUIRED_GRANT_FIELDS) {
            if (!auth[key]) problem(key, `auth.${key} is required (a non-empty string) for a client-credentials grant`);
        }
        if (auth.oauthUrl && httpUrlProblem(auth.oauthUrl) !== undefined) {
            problem("oauthUrl", "auth.oauthUrl must be an absolute http(s) URL of the token endpoint, without credentials");
        }
    });

const REASONS: Record<string, string> = {
    headers: "auth.headers must map header names to string values",
    audience: "auth.audience must be a string",
    ...Object.fromEntries(REQUIRED_GRANT_FIELDS.map((key) => [key, `auth.${key} is required (a non-empty string) for a client-credentials grant`])),
};

export function checkAuth(value: unknown, fail: (property: string, reason: string) => void): ManagementAuth | undefined {
    const shape = "headers, or clientId, clientSecret and oauthUrl";
    const checked = checkObjectInput(value, "auth", authSchema, { shape, reasons: REASONS }, fail);
    if (checked.kind === "unknown") return value as ManagementAuth;
    if (checked.kind !== "valid") return undefined;
    const { headers, clientId, clientSecret, oauthUrl, audience } = checked.value;
    if (headers != null) return { headers: { ...headers } };
    const auth: ManagementAuth = { clientId: clientId!, clientSecret: clientSecret!, oauthUrl: oauthUrl! };
    if (audience) auth.audience = audience;
    return auth;
}
