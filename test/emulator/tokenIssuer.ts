// The OAuth 2.0 token endpoint (client-credentials grant) of the emulated platform. Request bodies
// carry client secrets, so nothing from them is ever logged or echoed.

import { randomUUID, timingSafeEqual } from "node:crypto";
import { Call, Reply, jsonReply } from "./httpServer";
import { JwtSigner } from "./jwt";
import { TokenRateLimiter } from "./rateLimiter";
import { Settings } from "./settings";

export const TOKEN_PATH = "/oauth/token";

const FORM_FIELDS = ["grant_type", "audience", "client_id", "client_secret"] as const;

export interface TokenIssuerDeps {
    settings: () => Settings;
    signer: JwtSigner;
    limiter: TokenRateLimiter;
    /** The full token endpoint URL, used as the `iss` claim. */
    issuer: () => string;
}

function oauthError(status: number, error: string, description: string, headers: Record<string, string> = {}): Reply {
    return jsonReply(status, { error, error_description: description }, { "cache-control": "no-store", ...headers });
}

function sameSecret(expected: string, given: string): boolean {
    const a = Buffer.from(expected);
    const b = Buffer.from(given);
    return a.length === b.length && timingSafeEqual(a, b);
}

function mediaType(call: Call): string {
    return (call.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
}

export function createTokenIssuer(deps: TokenIssuerDeps): (call: Call) => Reply {
    return (call) => {
        if (call.path !== TOKEN_PATH) return jsonReply(404, { error: "not_found", error_description: "Unknown endpoint" });

        // Every request to the endpoint counts against the limit, whatever its outcome.
        const decision = deps.limiter.admit(call.remoteAddress, call.receivedAt);
        if (!decision.allowed) {
            return oauthError(429, "too_many_requests", "Too many token requests from this address; try again later", {
                "retry-after": String(decision.retryAfterSeconds),
            });
        }
        if (call.method !== "POST") {
            return oauthError(405, "invalid_request", "The token endpoint only accepts POST", { allow: "POST" });
        }
        if (mediaType(call) !== "application/x-www-form-urlencoded") {
            return oauthError(400, "invalid_request", "Content-Type must be application/x-www-form-urlencoded");
        }
        const form = new URLSearchParams(call.body.toString("utf8"));
        for (const field of FORM_FIELDS) {
            const values = form.getAll(field);
            if (values.length === 0 || values[0] === "") {
                return oauthError(400, "invalid_request", `Missing form parameter: ${field}`);
            }
            if (values.length > 1) return oauthError(400, "invalid_request", `Repeated form parameter: ${field}`);
        }
        if (form.get("grant_type") !== "client_credentials") {
            return oauthError(400, "unsupported_grant_type", "Only the client_credentials grant is supported");
        }
        const clientId = form.get("client_id")!;
        const audience = form.get("audience")!;
        const secret = form.get("client_secret")!;
        const settings = deps.settings();
        const authenticated = settings.clients.filter((c) => c.clientId === clientId && sameSecret(c.clientSecret, secret));
        if (authenticated.length === 0) {
            return oauthError(401, "invalid_client", "Invalid client or invalid client credentials");
        }
        if (!authenticated.some((c) => c.audience === audience)) {
            return oauthError(401, "access_denied", `Client '${clientId}' may not request tokens for audience '${audience}'`);
        }

        const issuedAt = Math.floor(call.receivedAt / 1000);
        const lifetime = settings.tokenLifetimeSeconds;
        const token = deps.signer.sign({
            iss: deps.issuer(),
            sub: clientId,
            aud: audience,
            iat: issuedAt,
            exp: issuedAt + lifetime,
            jti: randomUUID(),
        });
        return jsonReply(
            200,
            { access_token: token, expires_in: lifetime, refresh_expires_in: 0, token_type: "Bearer", "not-before-policy": 0 },
            { "cache-control": "no-store", pragma: "no-cache" },
        );
    };
}
