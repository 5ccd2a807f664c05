// Minimal HS256 JSON Web Tokens (RFC 7519) for the emulated token issuer and administration API.

import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export interface AccessTokenClaims {
    iss: string;
    sub: string;
    aud: string;
    iat: number;
    exp: number;
    jti: string;
}

function base64url(data: Buffer | string): string {
    return Buffer.from(data).toString("base64url");
}

export class JwtSigner {
    /** A fresh random key per emulator: tokens from another instance never verify here. */
    private readonly key = randomBytes(32);

    sign(claims: AccessTokenClaims): string {
        const header = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
        const payload = base64url(JSON.stringify(claims));
        return `${header}.${payload}.${this.signature(`${header}.${payload}`)}`;
    }

    /** Returns the claims of a token signed by this signer, or the reason it is unacceptable. */
    verify(token: string, nowSeconds: number): { claims: AccessTokenClaims } | { reason: string } {
        const parts = token.split(".");
        if (parts.length !== 3) return { reason: "malformed token" };
        const [header, payload, signature] = parts;
        const expected = Buffer.from(this.signature(`${header}.${payload}`));
        const given = Buffer.from(signature);
        if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { reason: "invalid signature" };
        let claims: AccessTokenClaims;
        try {
            const decodedHeader = JSON.parse(Buffer.from(header, "base64url").toString("utf8")) as { alg?: unknown };
            if (decodedHeader.alg !== "HS256") return { reason: "unsupported algorithm" };
            claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as AccessTokenClaims;
        } catch {
            return { reason: "malformed token" };
        }
        if (typeof claims.exp !== "number" || nowSeconds >= claims.exp) return { reason: "token expired" };
        return { claims };
    }

    private signature(input: string): string {
        return createHmac("sha256", this.key).update(input).digest("base64url");
    }
}
