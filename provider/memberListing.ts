// Lists the organization's members through the SDK: a token from the process-wide token cache (shared
// with every other client of the same issuer, client id and audience; single-flight, rate limited,
// backed by the disk cache), then GET {baseUrl}/members.

import { AdminClient } from "../sdk/adminClient";
import { redact } from "../sdk/errors";
import { TokenClient, jwtExpiry } from "../sdk/tokenClient";
import type { TokenProvider } from "../sdk/tokenClient";
import type { AdminSettings, OrganizationMember } from "./adminClientTypes";

export interface MemberListing {
    members: OrganizationMember[];
    /** When the token used expires (ISO 8601), if the token says so. */
    tokenExpiresAt?: string;
}

/** The members, or an error that names the client and the API (never the secret or a token). */
export async function listOrganizationMembers(settings: AdminSettings, clientSecret: string): Promise<MemberListing> {
    const handedOut: string[] = [];
    try {
        const tokens = new TokenClient({
            clientId: settings.clientId,
            clientSecret,
            authUrl: settings.oauthUrl,
            audience: settings.audience,
        });
        // Remembers the tokens the listing used (a refused token is replaced once), to report the expiry.
        const recording: TokenProvider = {
            getToken: async (options) => {
                const token = await tokens.getToken(options);
                handedOut.push(token);
                return token;
            },
            invalidate: (token) => tokens.invalidate(token),
        };
        const found = await new AdminClient({ baseUrl: settings.baseUrl, tokenProvider: recording }).listMembers();
        const members = found.map(({ name, email, roles, invitePending }) => ({ name, email, roles: [...roles], invitePending }));
        return { members, tokenExpiresAt: expiryOf(handedOut[handedOut.length - 1]) };
    } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        // The SDK never puts secrets into messages; this is the second line of defence.
        throw new Error(
            `Cannot list the members at ${settings.baseUrl} as client '${settings.clientId}': ${redact(message, [clientSecret, ...handedOut])}`,
        );
    }
}

function expiryOf(token: string | undefined): string | undefined {
    const exp = token === undefined ? undefined : jwtExpiry(token);
    return exp === undefined ? undefined : new Date(exp * 1_000).toISOString();
}
