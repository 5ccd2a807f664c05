// Our providers (and the trivial yardstick) as the engine hands them to the dynamic-provider host:
// serialized exactly as dynamic.Resource serializes them (our resources: the shims that require dist/), with the stack config and the inputs of one
// resource aimed at an emulator.

import { runtime } from "@pulumi/pulumi";
import { DEMO_CLIENT } from "../emulator/settings";
import type { EmulatorUrls } from "../emulator/emulator";
import { adminClientShim } from "../../provider/adminClient/resource";
import { clusterScaleProvider } from "../../provider/clusterScale/provider";
import { clusterScaleShim } from "../../provider/clusterScale/resource";
import { BENCH_PROJECT, HostedProvider } from "./coldStart";
import { oneReadProvider, trivialProvider } from "./trivialProvider";

async function serialize(provider: object): Promise<string> {
    return (await runtime.serializeFunction(() => provider, { allowSecrets: true })).text;
}

/** Why ClusterScale cannot be measured yet, or undefined when its provider has the methods a preview calls. */
export function clusterScaleUnavailable(): string | undefined {
    const provider = clusterScaleProvider as Partial<Record<"check" | "diff", unknown>>;
    const missing = (["check", "diff"] as const).filter((method) => typeof provider[method] !== "function");
    return missing.length === 0 ? undefined : `provider/clusterScale/provider.ts has no ${missing.join(" or ")} yet`;
}

export const TRIVIAL = "trivial";

export async function trivialHosted(): Promise<HostedProvider> {
    return {
        key: TRIVIAL,
        name: "trivial provider",
        type: "pulumi-nodejs:dynamic:Resource",
        serialized: await serialize(trivialProvider),
        config: {},
        inputs: { value: 1 },
    };
}

/** The trivial provider that reads `url` once with Node's fetch in its Check. */
export async function oneReadHosted(url: string): Promise<HostedProvider> {
    return {
        key: "oneRead",
        name: "trivial provider reading one URL",
        type: "pulumi-nodejs:dynamic:Resource",
        serialized: await serialize(oneReadProvider),
        config: {},
        inputs: { url },
    };
}

/** A ClusterScale of the emulator's cluster; `layout` holds the layout inputs (brokerCount, replicationFactor, ...). */
export async function clusterScaleHosted(urls: EmulatorUrls, layout: Record<string, number>, auth = false): Promise<HostedProvider> {
    return {
        key: "clusterScale",
        name: "ClusterScale",
        type: "pulumi-nodejs:dynamic/platform:ClusterScale",
        serialized: await serialize(clusterScaleShim),
        config: {},
        inputs: {
            resourceName: "cluster",
            managementUrl: urls.managementUrl,
            gatewayUrl: urls.gatewayUrl,
            ...layout,
            ...(auth
                ? { auth: { clientId: DEMO_CLIENT.clientId, clientSecret: DEMO_CLIENT.clientSecret, oauthUrl: urls.authUrl, audience: DEMO_CLIENT.audience } }
                : {}),
        },
    };
}

/** ClusterScale for a resource in the state (Check sends nothing), and for a new one (Check sends a dry run). */
export async function clusterScaleColdStartCases(urls: EmulatorUrls, layout: Record<string, number>): Promise<HostedProvider[]> {
    const hosted = await clusterScaleHosted(urls, layout);
    return [
        { ...hosted, name: "ClusterScale, resource in state", olds: hosted.inputs },
        { ...hosted, key: "clusterScaleNew", name: "ClusterScale, new resource (Check sends a dry run)" },
    ];
}

export async function adminClientHosted(urls: EmulatorUrls): Promise<HostedProvider> {
    return {
        key: "adminClient",
        name: "AdminClient",
        type: "pulumi-nodejs:dynamic/platform:AdminClient",
        serialized: await serialize(adminClientShim),
        config: { [`${BENCH_PROJECT}:unused`]: "x" },
        inputs: {
            resourceName: "admin",
            clientId: DEMO_CLIENT.clientId,
            clientSecret: DEMO_CLIENT.clientSecret,
            oauthUrl: urls.authUrl,
            baseUrl: urls.baseUrl,
        },
    };
}
