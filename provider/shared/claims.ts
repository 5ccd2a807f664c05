// One cluster, one ClusterScale. Two resources on the same management API would move the cluster back and forth
// on every up, each `up` exiting 0. The provider host serves every resource of a deployment, so the check of the
// second resource sees the claim the first one made.

/** Cluster id (management URL and base path) → the resource that declared it first, for the whole host process. */
const claims = new Map<string, string>();

/** Claims the cluster for the resource; returns the name of another resource that claimed it already, if any. */
export function claimCluster(clusterId: string, resourceName: string): string | undefined {
    const holder = claims.get(clusterId);
    if (holder !== undefined && holder !== resourceName) return holder;
    claims.set(clusterId, resourceName);
    return undefined;
}
