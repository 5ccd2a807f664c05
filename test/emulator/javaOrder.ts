// The reference implementation keeps broker ids in Java hash maps and hash sets, so several lists it
// returns (brokers in GET, leave and priority groups of a plan, BROKER_REMOVE groups) come out in
// the iteration order of such a map, not sorted: brokers 0..5 appear as 1, 2, 3, 4, 5, 0. The
// emulator reproduces that order so that clients are exercised against it instead of a sorted list.

/** String.hashCode() of Java: s[0]*31^(n-1) + ... + s[n-1], in 32-bit arithmetic. */
function javaStringHash(text: string): number {
    let hash = 0;
    for (let i = 0; i < text.length; i++) {
        hash = (Math.imul(31, hash) + text.charCodeAt(i)) | 0;
    }
    return hash;
}

/** hashCode() of a member id: Objects.hash(id) over its string form. */
function memberIdHash(id: number): number {
    return (31 + javaStringHash(String(id))) | 0;
}

/** Table size a java.util.HashMap grows to while n entries are put one by one (load factor 0.75). */
function tableSize(entries: number): number {
    let capacity = 16;
    while (entries > capacity * 0.75) capacity *= 2;
    return capacity;
}

/**
 * Orders broker ids as a java.util.HashMap keyed by member id iterates them, assuming the ids were
 * inserted in ascending order (which decides the order inside a bucket).
 */
export function javaHashOrder(ids: Iterable<number>): number[] {
    const ascending = [...new Set(ids)].sort((a, b) => a - b);
    const mask = tableSize(ascending.length) - 1;
    const bucketOf = (id: number): number => {
        const hash = memberIdHash(id);
        return (hash ^ (hash >>> 16)) & mask;
    };
    // Array.prototype.sort is stable, so ids sharing a bucket keep their insertion order.
    return ascending.sort((a, b) => bucketOf(a) - bucketOf(b));
}

/** Java's Set/List toString for broker or partition ids: "[1, 2, 0]". */
export function javaListString(values: readonly number[]): string {
    return `[${values.join(", ")}]`;
}
