// One cluster, one ClusterScale. Two resources on the same management API would move the cluster back and forth
// on every up, each `up` exiting 0. The provider host serves every resource of a deployment, so the check of the
// second resource sees the claim the first one made.

/** Claims the cluster for the resource; returns the name of another resource that claimed it already, if any. */
export function claimCluster(clusterId: string, resourceName: string): string | undefined {
    const claims = clusterClaims();
    const holder = claims.get(clusterId);
    if (holder !== undefined && holder !== resourceName) return holder;
    claims.set(clusterId, resourceName);
    return undefined;
}

/** Cluster id (management URL and base path) → the resource that declared it first, for the whole host process. */
function clusterClaims(): Map<string, string> {
    // On globalThis, not in a module constant: each serialized copy of the provider has its own module scope.
    const key = Symbol.for("pulumi-platform.clusterClaims.v1");
    const holder = globalThis as unknown as Record<symbol, Map<string, string> | undefined>;
    return (holder[key] ??= new Map());
}
