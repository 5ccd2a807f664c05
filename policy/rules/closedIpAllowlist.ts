// On production an allowlist restricts: an empty one "lifts every restriction", and a range of prefix length 0
// (0.0.0.0/0, ::/0) lets every address in.

import { isIP } from "node:net";
import { PRODUCTION_STACKS_SCHEMA, type ResourceRule, type RuleOptions, resourcePolicy, subject } from "../resourceRule";

export interface ClosedIpAllowlistConfig {
    productionStacks?: string[];
}

const rule: ResourceRule<ClosedIpAllowlistConfig> = {
    name: "platform-closed-ip-allowlist",
    description: "On production stacks, an IpAllowlist has entries, none of them open to every address (0.0.0.0/0, ::/0).",
    enforcementLevel: "mandatory",
    resources: ["IpAllowlist"],
    configSchema: { productionStacks: PRODUCTION_STACKS_SCHEMA },
    defaults: {},
    check(resource, _config, stack) {
        if (!stack.production) return [];
        const entries = resource.props.entries;
        if (Array.isArray(entries) && entries.length === 0) {
            return [`${subject(resource)}: entries is empty on ${stack.text}: an empty allowlist lifts every restriction; list the addresses that may connect`];
        }
        const open = (Array.isArray(entries) ? entries : []).flatMap((entry: { ip?: unknown }, index) => {
            const ranges = typeof entry?.ip === "string" ? openRanges(entry.ip) : [];
            return ranges.length > 0 ? [`entries[${index}].ip has ${ranges.join(", ")}`] : [];
        });
        return open.map(
            (where) => `${subject(resource)}: ${where} on ${stack.text}: a range of prefix length 0 lets every address in; list the addresses that may connect`,
        );
    },
};

/** The parts of a comma-separated ip that match every address. */
export function openRanges(ip: string): string[] {
    return ip
        .split(",")
        .map((part) => part.trim())
        .filter((part) => {
            const [address, prefix] = part.split("/");
            return isIP(address) !== 0 && prefix !== undefined && Number(prefix) === 0;
        });
}

export function closedIpAllowlist(options?: RuleOptions<ClosedIpAllowlistConfig>) {
    return resourcePolicy(rule, options);
}
