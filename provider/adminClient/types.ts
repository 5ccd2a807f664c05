// Shapes of AdminClient's settings and outputs, shared by the resource class, its provider and getMembers.

/** A member of the organization, as the administration API lists it. */
export interface OrganizationMemberInfo {
    name: string;
    email: string;
    roles: string[];
    invitePending: boolean;
}

/** Where AdminClient gets its tokens and members: every setting except the secret, resolved. */
export interface AdminSettings {
    clientId: string;
    /** The token issuer's endpoint. */
    oauthUrl: string;
    audience: string;
    /** Base URL of the administration API. */
    baseUrl: string;
}
