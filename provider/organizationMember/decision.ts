// What happens to a person: a pure decision from the roles the program gives, the organization's member list as read
// now, and whether the resource is already in the stack. Preview words it, create and update carry it out, and diff
// asks whether it sends anything or records anything new.

import { ASSIGNABLE_ROLES, type Member } from "../../sdk/adminSchemas";

export type MemberAction =
    /** Not in the organization: POST invites the email (it takes a seat). */
    | { kind: "invite"; again: boolean }
    /** In the organization, declared for the first time: its roles are set (POST) when they differ, else nothing is sent. */
    | { kind: "adopt"; from: string[]; changes: boolean }
    /** In the stack, and its roles in the organization differ from the program's: POST sets them. */
    | { kind: "change-roles"; from: string[] }
    /** The organization's owner: nothing is ever sent; the program's roles are recorded. */
    | { kind: "owner" }
    /** Nothing to send. */
    | { kind: "none" };

/** What the state records of a member: exactly the resource's public outputs. */
export interface MemberRecord {
    email: string;
    roles: string[];
    name: string;
    invitePending: boolean;
    owner: boolean;
}

export function isOwner(member: Member | undefined): boolean {
    return member?.roles.includes("owner") === true;
}

/** The roles the program can give that the member has, sorted. */
export function assignableRoles(member: Member): string[] {
    return member.roles.filter((role) => (ASSIGNABLE_ROLES as readonly string[]).includes(role)).sort();
}

export function sameRoles(a: readonly string[], b: readonly string[]): boolean {
    const left = [...new Set(a)].sort();
    const right = [...new Set(b)].sort();
    return left.length === right.length && left.every((role, index) => role === right[index]);
}

export function decideMember(desiredRoles: readonly string[], live: Member | undefined, inStack: boolean): MemberAction {
    if (live === undefined) return { kind: "invite", again: inStack };
    if (isOwner(live)) return { kind: "owner" };
    const from = assignableRoles(live);
    const differs = !sameRoles(from, desiredRoles);
    if (!inStack) return { kind: "adopt", from, changes: differs };
    return differs ? { kind: "change-roles", from } : { kind: "none" };
}

/** Whether the action sends a request. */
export function sends(action: MemberAction): boolean {
    return action.kind === "invite" || action.kind === "change-roles" || (action.kind === "adopt" && action.changes);
}

/** The record after the action: the member as the organization lists it then (an owner's roles: the program's). */
export function recordAfter(email: string, desiredRoles: readonly string[], live: Member | undefined, action: MemberAction): MemberRecord {
    const roles = [...new Set(desiredRoles)].sort();
    if (action.kind === "owner") return { email, roles, name: live?.name ?? "", invitePending: false, owner: true };
    if (live === undefined) return { email, roles, name: "", invitePending: true, owner: false };
    return { email, roles: sends(action) ? roles : assignableRoles(live), name: live.name, invitePending: live.invitePending, owner: false };
}

/**
 * The fields of the record that differ from what the state holds and that up must record: the roles and whether the
 * person is the owner. The name and whether the invitation is pending are the organization's to fill in (the listing
 * may name a pending invitation after its email, and the person accepts it when they do): refresh records them, and
 * they never make a preview show a change the program did not ask for.
 */
export function recordChanges(recorded: Partial<MemberRecord>, next: MemberRecord): string[] {
    const changed: string[] = [];
    if (recorded.owner !== next.owner) changed.push(`owner ${recorded.owner} → ${next.owner}`);
    if (!sameRoles(recorded.roles ?? [], next.roles)) changed.push(`roles ${list(recorded.roles ?? [])} → ${list(next.roles)}`);
    return changed;
}

/** What preview says will happen to the person. */
export function previewLine(email: string, desiredRoles: readonly string[], action: MemberAction): string {
    const to = list([...desiredRoles].sort());
    switch (action.kind) {
        case "invite":
            return action.again ? `invites ${email} again: no longer in the organization (uses a seat)` : `invites ${email} (uses a seat)`;
        case "adopt":
            return action.changes
                ? `adopts existing member ${email} (roles ${list(action.from)} → ${to})`
                : `adopts existing member ${email} (roles ${to}, unchanged)`;
        case "change-roles":
            return `changes roles of ${email} (${list(action.from)} → ${to})`;
        case "owner":
            return `${email} is the organization owner: roles are left as they are`;
        case "none":
            return `${email} has roles ${to}: nothing to change`;
    }
}

/** What create and update say they did. */
export function doneLine(email: string, desiredRoles: readonly string[], action: MemberAction): string {
    const to = list([...desiredRoles].sort());
    switch (action.kind) {
        case "invite":
            return `invited ${email} with roles ${to}`;
        case "adopt":
            return action.changes
                ? `adopted existing member ${email} (roles ${list(action.from)} → ${to})`
                : `adopted existing member ${email} (roles ${to}, unchanged)`;
        case "change-roles":
            return `changed roles of ${email} (${list(action.from)} → ${to})`;
        case "owner":
            return `${email} is the organization owner: roles are left as they are (recorded: ${to}); nothing was sent`;
        case "none":
            return `${email} has roles ${to}: nothing was sent`;
    }
}

function list(roles: readonly string[]): string {
    return roles.length === 0 ? "none" : roles.join(", ");
}
