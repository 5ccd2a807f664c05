// The creation parameters a program names (a display name or an id) resolved against GET /clusters/parameters: a pure
// function, so that check refuses an unknown one naming the valid ones, and a preview shows the ids up will send.

import type { ClusterParameters, NamedRef } from "../../sdk/adminSchemas";

export interface ResolvedParameters {
    channelId: string;
    channelName: string;
    regionId: string;
    regionName: string;
    planTypeId: string;
    planTypeName: string;
    /** The generation given, else the channel's default. */
    generationId: string;
    generationName: string;
    /** The newest generation the channel allows: the only one an upgrade can go to. */
    newestGenerationId: string;
    newestGenerationName: string;
}

export interface ParameterNames {
    channel: string;
    region: string;
    planType: string;
    generation?: string;
}

export function resolveParameters(
    names: ParameterNames,
    parameters: ClusterParameters,
): { resolved?: ResolvedParameters; failures: { property: string; reason: string }[] } {
    const failures: { property: string; reason: string }[] = [];
    const pick = <T extends NamedRef>(property: string, what: string, value: string, options: readonly T[]): T | undefined => {
        const found =
            options.find((option) => option.uuid === value) ?? options.find((option) => option.name.trim().toLowerCase() === value.trim().toLowerCase());
        if (found === undefined)
            failures.push({ property, reason: `${property}: ${quote(value)} is not ${what}: use ${listNames(options)} (a name or its id)` });
        return found;
    };
    const channel = pick("channel", "a channel of the organization", names.channel, parameters.channels);
    const region = pick("region", "a region of the organization", names.region, parameters.regions);
    const planType = pick("planType", "a plan type of the organization", names.planType, parameters.clusterPlanTypes);
    if (channel === undefined || region === undefined || planType === undefined) return { failures };
    const allowed = channel.allowedGenerations;
    const generation =
        names.generation === undefined
            ? channel.defaultGeneration
            : pick(
                  "generation",
                  `a generation the channel ${channel.name} allows`,
                  names.generation,
                  allowed.length > 0 ? allowed : [channel.defaultGeneration],
              );
    if (generation === undefined) return { failures };
    const newest = allowed.at(-1) ?? channel.defaultGeneration;
    return {
        failures,
        resolved: {
            channelId: channel.uuid,
            channelName: channel.name,
            regionId: region.uuid,
            regionName: region.name,
            planTypeId: planType.uuid,
            planTypeName: planType.name,
            generationId: generation.uuid,
            generationName: generation.name,
            newestGenerationId: newest.uuid,
            newestGenerationName: newest.name,
        },
    };
}

/** A value the program gave, shown in a failure only when it reads as a name (no secret would). */
function quote(value: string): string {
    return value.length <= 80 && !/[\r\n]/.test(value) ? `"${value}"` : "the value given";
}

function listNames(options: readonly NamedRef[]): string {
    return options.map((option) => option.name).join(", ");
}
