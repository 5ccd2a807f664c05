// What the emulated organization may create clusters with (GET /clusters/parameters): two channels, each with a
// default and its allowed generations (the stable channel allows two, so that an upgrade to the newest can be tried),
// three plan types and three regions. Ids are fixed, so tests and examples can name them.

export interface NamedRef {
    uuid: string;
    name: string;
}

export interface Channel extends NamedRef {
    defaultGeneration: NamedRef;
    /** Oldest first: the last is the newest, the one an upgrade moves to. */
    allowedGenerations: (NamedRef & { classification?: string })[];
}

export interface Parameters {
    channels: Channel[];
    clusterPlanTypes: NamedRef[];
    regions: (NamedRef & { provider: string })[];
}

const GENERATION_88 = { uuid: "gen-8-8-5", name: "Camunda 8.8.5" };
const GENERATION_89 = { uuid: "gen-8-9-1", name: "Camunda 8.9.1" };
const GENERATION_810_ALPHA = { uuid: "gen-8-10-alpha2", name: "Camunda 8.10.0-alpha2" };

export const PARAMETERS: Parameters = {
    channels: [
        {
            uuid: "channel-stable",
            name: "Stable",
            defaultGeneration: GENERATION_88,
            allowedGenerations: [
                { ...GENERATION_88, classification: "channel" },
                { ...GENERATION_89, classification: "channel" },
            ],
        },
        {
            uuid: "channel-alpha",
            name: "Alpha",
            defaultGeneration: GENERATION_810_ALPHA,
            allowedGenerations: [{ ...GENERATION_810_ALPHA, classification: "channel" }],
        },
    ],
    clusterPlanTypes: [
        { uuid: "plan-trial", name: "Trial Package" },
        { uuid: "plan-basic", name: "Basic" },
        { uuid: "plan-advanced", name: "Advanced" },
    ],
    regions: [
        { uuid: "region-bel", name: "Belgium, Europe (europe-west1)", provider: "gcp" },
        { uuid: "region-iowa", name: "Iowa, North America (us-central1)", provider: "gcp" },
        { uuid: "region-frankfurt", name: "Frankfurt, Europe (eu-central-1)", provider: "aws" },
    ],
};

export function channelById(id: string): Channel | undefined {
    return PARAMETERS.channels.find((channel) => channel.uuid === id);
}

export function generationById(channel: Channel, id: string): NamedRef | undefined {
    const found = channel.allowedGenerations.find((generation) => generation.uuid === id);
    return found && { uuid: found.uuid, name: found.name };
}

export function refById(list: readonly NamedRef[], id: string): NamedRef | undefined {
    const found = list.find((ref) => ref.uuid === id);
    return found && { uuid: found.uuid, name: found.name };
}
