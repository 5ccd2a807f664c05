// The reference's round-robin partition distribution, used for the initial layout and for every
// scaling request.

/** partition id -> (broker id -> priority), replicas in round-robin order (primary first). */
export type Distribution = Map<number, Map<number, number>>;

/**
 * Partition p (index i = p - 1) is replicated on the brokers s[i], s[i+1], ... (modulo the member
 * count L, at most L replicas), where s are the member ids sorted numerically. The primary s[i]
 * gets priority R; the other replicas get R-1 ... 1 when floor(i / L) is even and 1 ... R-1 when it
 * is odd, so the second choice of leader rotates too.
 */
export function roundRobinDistribution(memberIds: Iterable<number>, partitionCount: number, replicationFactor: number): Distribution {
    const sorted = [...new Set(memberIds)].sort((a, b) => a - b);
    const distribution: Distribution = new Map();
    const memberCount = sorted.length;
    if (memberCount === 0) return distribution;
    const replicas = Math.min(replicationFactor, memberCount);
    for (let index = 0; index < partitionCount; index++) {
        const ascending = Math.floor(index / memberCount) % 2 === 1;
        const priorities = new Map<number, number>();
        priorities.set(sorted[index % memberCount], replicationFactor);
        for (let k = 1; k < replicas; k++) {
            priorities.set(sorted[(index + k) % memberCount], ascending ? k : replicationFactor - k);
        }
        distribution.set(index + 1, priorities);
    }
    return distribution;
}
