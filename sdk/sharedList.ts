// Whole-list reads shared by every caller of the process. The administration API serves members, clients and secrets
// only as whole lists, so N resources that each read "their" entry would fetch the N-long list N times. A list read
// once is kept for a short while (the length of one operation) under a key that names the API, the caller's identity
// and the list; concurrent readers share the one request (single flight), and the caller's own writes patch the kept
// list instead of forgetting it. A failed read is not kept.

interface Entry<T> {
    value: Promise<T>;
    fetchedAt: number;
}

const lists = new Map<string, Entry<unknown>>();

/** How long a list read is reused: long enough for one preview or up of many resources, short enough to stay current. */
export const SHARED_LIST_TTL_MS = 60_000;

/**
 * The list under `key`: the one kept if it is fresh, else the one `fetch` reads (once, however many ask at the same
 * time). `reread`: read it now whatever is kept (a wait for a change someone else makes), and keep that.
 */
export function sharedList<T>(key: string, fetch: () => Promise<T>, reread = false, now: number = Date.now()): Promise<T> {
    const kept = lists.get(key) as Entry<T> | undefined;
    if (!reread && kept !== undefined && now - kept.fetchedAt < SHARED_LIST_TTL_MS) return kept.value;
    return keep(key, { value: fetch(), fetchedAt: now }).value;
}

/** Applies a write the caller made to the list kept under `key`, if one is kept (the next read sees it without a request). */
export function patchSharedList<T>(key: string, patch: (list: T) => T): void {
    const kept = lists.get(key) as Entry<T> | undefined;
    if (kept === undefined) return;
    keep(key, { value: kept.value.then(patch), fetchedAt: kept.fetchedAt });
}

/** Forgets the list under `key` (after a write whose effect on it is not known), or every list. */
export function forgetSharedList(key?: string): void {
    if (key === undefined) lists.clear();
    else lists.delete(key);
}

/** Keeps an entry until its read fails. */
function keep<T>(key: string, entry: Entry<T>): Entry<T> {
    lists.set(key, entry);
    entry.value.catch(() => {
        if (lists.get(key) === entry) lists.delete(key);
    });
    return entry;
}
