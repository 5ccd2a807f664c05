// One remote thing, one resource. Two resources of a stack on the same cluster layout, member or allowlist would undo
// each other on every up, each up exiting 0. The provider host serves every resource of a deployment, so the check of
// the second resource sees the claim the first one made.

/** `<kind> <key>` → the resource that declared it first, for the whole host process. */
const claims = new Map<string, string>();

/** Claims the thing for the resource; returns the name of another resource that claimed it already, if any. */
export function claimOnce(kind: string, key: string, resourceName: string): string | undefined {
    const id = `${kind} ${key}`;
    const holder = claims.get(id);
    if (holder !== undefined && holder !== resourceName) return holder;
    claims.set(id, resourceName);
    return undefined;
}
