// The allowlist's entries: each an IPv4 or IPv6 address or CIDR range, or several of them separated by commas (as the
// API takes them), with an optional description. Checked without a request, compared and described as sets.

import { isIP } from "node:net";
import type { IpAllowlistEntry } from "../../sdk/adminSchemas";
import { containsUnknown } from "../shared/unknowns";

/** Why the ip is not an address or range, or undefined when every part is one. */
export function ipProblem(ip: string): string | undefined {
    const parts = ip.split(",").map((part) => part.trim());
    if (parts.some((part) => part === "")) return "has an empty part between commas";
    for (const part of parts) {
        const [address, prefix, extra] = part.split("/");
        const version = isIP(address);
        if (version === 0 || extra !== undefined) return `has ${quote(part)}, which is not an IPv4 or IPv6 address or CIDR range`;
        if (prefix !== undefined && (!/^\d{1,3}$/.test(prefix) || Number(prefix) > (version === 4 ? 32 : 128))) {
            return `has ${quote(part)}, whose prefix length is not 0 to ${version === 4 ? 32 : 128}`;
        }
    }
    return undefined;
}

/** The entries checked (a description defaults to ""); failures name the entry. */
export function checkEntries(value: unknown, fail: (property: string, reason: string) => void): IpAllowlistEntry[] | undefined {
    if (containsUnknown(value)) return value as IpAllowlistEntry[];
    if (!Array.isArray(value)) {
        fail("entries", "entries must be a list of { ip, description? } (an empty list lifts every restriction)");
        return undefined;
    }
    const entries: IpAllowlistEntry[] = [];
    value.forEach((entry: unknown, index) => {
        const where = `entries[${index}]`;
        const fields = typeof entry === "object" && entry !== null && !Array.isArray(entry) ? (entry as Record<string, unknown>) : undefined;
        const unknownFields =
            fields === undefined ? [] : Object.keys(fields).filter((key) => key !== "ip" && key !== "description" && fields[key] !== undefined);
        if (fields === undefined || typeof fields.ip !== "string" || unknownFields.length > 0) {
            fail("entries", `${where} must be an object with ip (a string) and an optional description`);
            return;
        }
        if (fields.description !== undefined && fields.description !== null && typeof fields.description !== "string") {
            fail("entries", `${where}.description must be a string`);
            return;
        }
        const problem = ipProblem(fields.ip);
        if (problem !== undefined) fail("entries", `${where}.ip ${problem}`);
        else entries.push({ ip: fields.ip.trim(), description: (fields.description as string | undefined | null) ?? "" });
    });
    return entries.length === value.length ? entries : undefined;
}

/** What changes from `live` to `desired`: entries added and removed, each as `ip (description)`. */
export function entryChanges(live: readonly IpAllowlistEntry[], desired: readonly IpAllowlistEntry[]): { added: string[]; removed: string[] } {
    const key = (entry: IpAllowlistEntry) => `${entry.ip} (${entry.description})`;
    const before = new Set(live.map(key));
    const after = new Set(desired.map(key));
    return { added: [...after].filter((entry) => !before.has(entry)), removed: [...before].filter((entry) => !after.has(entry)) };
}

function quote(part: string): string {
    return part.length <= 60 ? `"${part}"` : "a part";
}
