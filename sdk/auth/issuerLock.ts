// One token request at a time per issuer among the processes that share a token cache directory. The disk cache lets a
// process reuse the token of one that ran before it; processes that start together (a pipeline's stacks run side by
// side) would each find it empty and ask the issuer at once, which allows about one request per second per address
// and blocks it when exceeded. So a process asks the issuer only while it holds the issuer's lock file in the cache
// directory (issuers/): the others wait for it (the directory watched, a slow poll besides), then find the token it wrote, or,
// with other credentials, ask in turn, spaced as one process spaces its own requests (the pacing file beside the lock
// says when the last request ended and until when the issuer blocked the address).
// A lock whose holder died (no such process on this host) or that is older than any token request can take is taken
// over, by one waiter at a time. Disk errors never fail a token request: without a usable directory there is no lock.

import { randomBytes } from "crypto";
import { watch } from "fs";
import { mkdir, open, readFile, rename, stat, unlink, writeFile } from "fs/promises";
import { hostname } from "os";
import { dirname, join } from "path";

export interface IssuerPacing {
    /** When the last token request of any process ended (epoch ms). */
    lastEndedAt: number;
    /** No request before this time (epoch ms): the issuer blocked the address. */
    blockedUntil: number;
}

export interface IssuerLockOptions {
    /** A lock older than this is taken over whoever holds it: the longest a holder's token request may take. */
    staleAfterMs: number;
    /** The pacing the last holder left, to be honoured before this process's request. */
    onAcquired?: (pacing: IssuerPacing) => void;
    /** The pacing to leave for the next holder. */
    pacing: () => IssuerPacing;
}

const FALLBACK_POLL_MS = 500;
/** A takeover lasts two file operations: one older than this was left by a waiter that died during it. */
const TAKEOVER_STALE_MS = 10_000;

/** Runs `work` holding the issuer's lock in `dir`; `work` runs unlocked when the directory cannot be used. */
export async function withIssuerLock<T>(dir: string, issuerKey: string, options: IssuerLockOptions, work: () => Promise<T>): Promise<T> {
    const locks = join(dir, "issuers");
    const lockFile = join(locks, `${issuerKey}.lock`);
    const pacingFile = join(locks, `${issuerKey}.pacing.json`);
    const held = await acquire(locks, lockFile, options.staleAfterMs);
    if (!held) return work();
    try {
        options.onAcquired?.(await readPacing(pacingFile));
        return await work();
    } finally {
        await writePacing(pacingFile, options.pacing());
        await unlink(lockFile).catch(() => undefined);
    }
}

/** True once this process holds the lock; false when the directory cannot hold one. */
async function acquire(dir: string, lockFile: string, staleAfterMs: number): Promise<boolean> {
    try {
        await mkdir(dir, { recursive: true, mode: 0o700 });
    } catch {
        return false;
    }
    for (;;) {
        try {
            const handle = await open(lockFile, "wx", 0o600);
            await handle.writeFile(JSON.stringify({ pid: process.pid, host: hostname() }));
            await handle.close();
            return true;
        } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== "EEXIST") return false;
        }
        if (await isStale(lockFile, staleAfterMs)) {
            await takeOver(lockFile, staleAfterMs);
            continue;
        }
        await released(dir, lockFile);
    }
}

/**
 * Removes a stale lock, one waiter at a time: the waiter that creates the takeover file judges the lock again and
 * removes it only if it is still stale, so a lock another waiter has just taken is never removed.
 */
async function takeOver(lockFile: string, staleAfterMs: number): Promise<void> {
    const takeover = `${lockFile}.takeover`;
    try {
        const handle = await open(takeover, "wx", 0o600);
        await handle.close();
    } catch {
        // Another waiter takes it over; a takeover file left by one that died meanwhile goes after a while.
        const info = await stat(takeover).catch(() => undefined);
        if (info !== undefined && Date.now() - info.mtimeMs > TAKEOVER_STALE_MS) await unlink(takeover).catch(() => undefined);
        await released(dirname(lockFile), lockFile);
        return;
    }
    try {
        if (await isStale(lockFile, staleAfterMs)) await unlink(lockFile).catch(() => undefined);
    } finally {
        await unlink(takeover).catch(() => undefined);
    }
}

async function isStale(lockFile: string, staleAfterMs: number): Promise<boolean> {
    try {
        const [info, text] = await Promise.all([stat(lockFile), readFile(lockFile, "utf8")]);
        if (Date.now() - info.mtimeMs > staleAfterMs) return true;
        const holder = JSON.parse(text) as { pid?: unknown; host?: unknown };
        return holder.host === hostname() && typeof holder.pid === "number" && !isRunning(holder.pid);
    } catch {
        // Gone meanwhile (released), or not yet written by its holder: not stale.
        return false;
    }
}

function isRunning(pid: number): boolean {
    try {
        process.kill(pid, 0);
        return true;
    } catch (error) {
        return (error as NodeJS.ErrnoException).code === "EPERM";
    }
}

/** Settles when something in the directory changed (the lock released, say), or after a slow poll's interval. */
function released(dir: string, lockFile: string): Promise<void> {
    return new Promise((resolve) => {
        let watcher: ReturnType<typeof watch> | undefined;
        const done = () => {
            clearTimeout(timer);
            watcher?.close();
            resolve();
        };
        const timer = setTimeout(done, FALLBACK_POLL_MS);
        try {
            watcher = watch(dir, (_event, file) => {
                if (file === null || lockFile.endsWith(file)) done();
            });
            watcher.on("error", done);
        } catch {
            // No watch on this file system: the poll alone.
        }
        // Released before the watch began: no event will say so.
        stat(lockFile).catch(done);
    });
}

async function readPacing(file: string): Promise<IssuerPacing> {
    try {
        const data = JSON.parse(await readFile(file, "utf8")) as Partial<IssuerPacing>;
        return {
            lastEndedAt: typeof data.lastEndedAt === "number" ? data.lastEndedAt : 0,
            blockedUntil: typeof data.blockedUntil === "number" ? data.blockedUntil : 0,
        };
    } catch {
        return { lastEndedAt: 0, blockedUntil: 0 };
    }
}

async function writePacing(file: string, pacing: IssuerPacing): Promise<void> {
    const temporary = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
    try {
        await writeFile(temporary, JSON.stringify(pacing), { mode: 0o600, flag: "wx" });
        await rename(temporary, file);
    } catch {
        await unlink(temporary).catch(() => undefined);
    }
}
