// Lists the organization's members through the SDK: a token from the process-wide token cache (shared
// with every other client of the same issuer, client id and audience; single-flight, rate limited,
// backed by the disk cache), then GET {baseUrl}/members.

import { AdminApiClient } from "../../sdk/adminApiClient";
import { redact } from "../../sdk/errors";
import { TokenClient } from "../../sdk/auth/tokenClient";
import type { TokenInfo, TokenProvider } from "../../sdk/auth/tokenClient";
import type { ConnectionSettings } from "../../sdk/http/transport";
import { messageOf } from "../shared/messageOf";
import type { AdminSettings, OrganizationMemberInfo } from "./types";

export interface MemberListing {
    members: OrganizationMemberInfo[];
    /** When the token used expires (ISO 8601), as the token client knows it. */
    tokenExpiresAt: string;
}

export interface MemberListingOptions {
    /**
     * Prove the secret with the issuer instead of trusting a token from the disk cache, which cannot tell
     * which secret obtained it: for a secret that has just changed.
     */
    verifySecret?: boolean;
    /** Proxies, TLS and debug lines of the token and member requests. */
    connection?: ConnectionSettings;
}

/** The members, or an error that names the client and the API (never the secret or a token). */
export async function listOrganizationMembers(settings: AdminSettings, clientSecret: string, options: MemberListingOptions = {}): Promise<MemberListing> {
    const used: TokenInfo[] = [];
    try {
        const tokens = new TokenClient({
            clientId: settings.clientId,
            clientSecret,
            authUrl: settings.oauthUrl,
            audience: settings.audience,
            connection: options.connection,
        });
        // Remembers the tokens the listing used (a refused token is replaced once), to report the expiry.
        const recording: TokenProvider = {
            getToken: async (callOptions) => {
                const info = await tokens.getTokenInfo({ ...callOptions, verifySecret: options.verifySecret });
                used.push(info);
                return info.token;
            },
            invalidate: (token) => tokens.invalidate(token),
        };
        const found = await new AdminApiClient({ baseUrl: settings.baseUrl, tokenProvider: recording, connection: options.connection }).listMembers();
        const members = found.map(({ name, email, roles, invitePending }) => ({ name, email, roles: [...roles], invitePending }));
        const last = used[used.length - 1];
        if (last === undefined) throw new Error("the administration client used no token");
        return { members, tokenExpiresAt: last.expiresAt.toISOString() };
    } catch (error) {
        // The SDK never puts secrets into messages; this is the second line of defence.
        throw new Error(
            `Cannot list the members at ${settings.baseUrl} as client '${settings.clientId}': ${redact(messageOf(error), [
                clientSecret,
                ...used.map((info) => info.token),
            ])}`,
        );
    }
}
