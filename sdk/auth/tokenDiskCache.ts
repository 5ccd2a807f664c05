// The on-disk token cache: lets later processes (the next `pulumi up`, another script) reuse a token
// instead of asking the rate-limited issuer again. One file per set of credentials (issuer, client id,
// audience and secret), named by the key the token client derives from them with scrypt (tokenClient.ts).
// A file holds that key, the token and its expiry: never the secret. A wrong secret finds no file.
// The directory is 0700 and the files 0600; files are written atomically (temporary file + rename).
// A file that is corrupt, foreign (another key, another owner) or readable by others is ignored and
// replaced by the next write. Disk errors never fail a token request: the cache is best effort.

import { randomBytes } from "crypto";
import { chmod, lstat, mkdir, readFile, rename, stat, unlink, writeFile } from "fs/promises";
import { homedir } from "os";
import { join } from "path";

export interface CachedToken {
    accessToken: string;
    /** When the token expires (epoch ms). */
    expiresAt: number;
    /** When it should be replaced, a safety margin before expiresAt (epoch ms). */
    renewAt: number;
}

const FILE_FORMAT = "pulumi-platform-token/1";

/** ~/.pulumi-platform/tokens, or PLATFORM_TOKEN_CACHE_DIR. */
export function defaultTokenCacheDir(env: Record<string, string | undefined> = process.env): string {
    const fromEnv = env.PLATFORM_TOKEN_CACHE_DIR;
    return fromEnv !== undefined && fromEnv.trim() !== "" ? fromEnv : join(homedir(), ".pulumi-platform", "tokens");
}

/** False when PLATFORM_TOKEN_DISK_CACHE is off, false, 0 or no. */
export function diskCacheEnabledByEnv(env: Record<string, string | undefined> = process.env): boolean {
    const value = env.PLATFORM_TOKEN_DISK_CACHE?.trim().toLowerCase();
    return !(value === "off" || value === "false" || value === "0" || value === "no");
}

export function tokenCacheFile(dir: string, keyHash: string): string {
    return join(dir, `${keyHash}.json`);
}

/** The cached token for this key, or undefined when there is none usable. */
export async function readCachedToken(dir: string, keyHash: string): Promise<CachedToken | undefined> {
    const file = tokenCacheFile(dir, keyHash);
    try {
        const info = await lstat(file);
        if (!info.isFile() || (info.mode & 0o077) !== 0 || !ownedByUs(info.uid)) return undefined;
        const data: unknown = JSON.parse(await readFile(file, "utf8"));
        return asCachedToken(data, keyHash);
    } catch {
        return undefined;
    }
}

/** Writes the token atomically. Returns false if the disk refused (the token is still usable). */
export async function writeCachedToken(dir: string, keyHash: string, token: CachedToken): Promise<boolean> {
    const file = tokenCacheFile(dir, keyHash);
    const temporary = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
    const content = JSON.stringify({ format: FILE_FORMAT, key: keyHash, ...token });
    try {
        await ensurePrivateDirectory(dir);
        await writeFile(temporary, content, { mode: 0o600, flag: "wx" });
        await rename(temporary, file);
        return true;
    } catch {
        await unlink(temporary).catch(() => undefined);
        return false;
    }
}

/** Removes the cached token if it is still the given one. */
export async function deleteCachedToken(dir: string, keyHash: string, accessToken: string): Promise<void> {
    const cached = await readCachedToken(dir, keyHash);
    if (cached?.accessToken === accessToken) await unlink(tokenCacheFile(dir, keyHash)).catch(() => undefined);
}

async function ensurePrivateDirectory(dir: string): Promise<void> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const info = await stat(dir);
    if ((info.mode & 0o077) !== 0 && ownedByUs(info.uid)) await chmod(dir, 0o700);
}

function ownedByUs(uid: number): boolean {
    return typeof process.getuid !== "function" || process.getuid() === uid;
}

function asCachedToken(data: unknown, keyHash: string): CachedToken | undefined {
    if (typeof data !== "object" || data === null) return undefined;
    const fields = data as Record<string, unknown>;
    const { accessToken, expiresAt, renewAt } = fields;
    if (fields.format !== FILE_FORMAT || fields.key !== keyHash) return undefined;
    if (typeof accessToken !== "string" || accessToken === "") return undefined;
    if (typeof expiresAt !== "number" || typeof renewAt !== "number" || renewAt > expiresAt) return undefined;
    return { accessToken, expiresAt, renewAt };
}
