// The administration API: GET {baseUrl}/members behind a bearer token from the token issuer.
// Authentication failures answer 401 with a JSON body {"message": "Unauthorized: <reason>"} and a
// WWW-Authenticate challenge; the token itself is never echoed. Any unexpired token of this
// emulator's issuer is accepted, whatever its audience.

import { Call, Reply, jsonReply } from "./httpServer";
import { JwtSigner } from "./jwt";
import { Settings } from "./settings";

export interface AdminApiDeps {
    settings: () => Settings;
    signer: JwtSigner;
    /** The issuer URL tokens must carry in `iss`. */
    issuer: () => string;
}

function unauthorized(reason: string): Reply {
    return jsonReply(401, { message: `Unauthorized: ${reason}` }, { "www-authenticate": 'Bearer error="invalid_token"' });
}

export function createAdminApi(deps: AdminApiDeps): (call: Call) => Reply {
    return (call) => {
        const header = call.headers.authorization ?? "";
        const match = /^Bearer +(\S+)$/i.exec(header);
        if (!match) return unauthorized("missing bearer token");
        const verified = deps.signer.verify(match[1], Math.floor(Date.now() / 1000));
        if ("reason" in verified) return unauthorized(verified.reason);
        if (verified.claims.iss !== deps.issuer()) return unauthorized("token from another issuer");

        if (call.path !== "/members") return jsonReply(404, { message: "Not Found" });
        if (call.method !== "GET") return jsonReply(405, { message: "Method Not Allowed" }, { allow: "GET" });
        return jsonReply(200, deps.settings().members);
    };
}
