// Shapes of AdminClient's settings and outputs, shared by the resource class, its provider and getMembers.

/** A member of the organization, as the administration API lists it. */
export interface OrganizationMemberInfo {
    name: string;
    email: string;
    roles: string[];
    invitePending: boolean;
}

export type { AdminSettings } from "../shared/adminSettings";
