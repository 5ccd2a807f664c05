// Cluster's inputs and outputs, and getClusterParameters', as the package schema declares them (see ../plugin/schema.ts).
import { z } from "zod";
import { CLUSTER_STAGES } from "../../sdk/adminSchemas";
import { adminCredentialsDeclaration } from "../shared/declarations";

const replaces = { replaceOnChanges: true };

export const clusterDeclaration = {
    description:
        "A hosted cluster of the organization. up creates it and waits until it is Healthy; name, description and stage label change in place, the generation through the upgrade; a new channel, region or plan type replaces it, which deletes the cluster and its data. Its id is the cluster's id.",
    inputs: z.object({
        name: z.string().describe("The cluster's name (at most 50 characters); changed in place."),
        channel: z.string().meta(replaces).describe("The channel, by its display name or id (see getClusterParameters). A change replaces the cluster."),
        region: z.string().meta(replaces).describe("The region, by its display name or id. A change replaces the cluster."),
        planType: z.string().meta(replaces).describe("The plan type, by its display name or id. A change replaces the cluster."),
        generation: z
            .string()
            .optional()
            .describe("The generation (name or id) to create with; default: the channel's default. Later, with autoUpdate off, the one to run."),
        description: z.string().optional().describe("At most 150 characters; changed in place."),
        stageLabel: z
            .string()
            .optional()
            .describe(`${CLUSTER_STAGES.join(", ")}; changed in place.`),
        autoUpdate: z.boolean().optional().describe("Whether the platform updates the cluster to new releases; set at creation only."),
        timeoutSeconds: z
            .number()
            .int()
            .optional()
            .describe("The longest up waits for the cluster to be Healthy (and destroy for it to be gone); default 1800."),
        existingClusterId: z.string().optional().describe("The id of a cluster that exists already: create takes it over instead of creating one."),
        credentials: adminCredentialsDeclaration.optional().meta({ secret: true }),
    }),
    outputs: z.object({
        name: z.string(),
        description: z.string().optional(),
        stageLabel: z.string().optional(),
        autoUpdate: z.boolean(),
        status: z.string().describe("The status the cluster last reported: Healthy after an up that succeeded."),
        generation: z.string().describe("The generation the cluster runs (its name)."),
        generationId: z.string().describe("The id of the generation the cluster runs."),
        channelId: z.string().describe("The id of the cluster's channel."),
        regionId: z.string().describe("The id of the cluster's region."),
        planTypeId: z.string().describe("The id of the cluster's plan type."),
        links: z.record(z.string(), z.string()).describe("Where the cluster's applications answer: zeebe, operate, tasklist, optimize, console, connectors."),
        created: z.string().describe("When the cluster was created (ISO 8601)."),
    }),
};

const namedOption = z
    .object({ id: z.string().describe("The option's id."), name: z.string().describe("The option's display name.") })
    .meta({ id: "NamedOption", description: "A generation or plan type: its id and its display name." });

export const getClusterParametersDeclaration = {
    description: "What clusters of the organization can be created with: channels (with their generations), plan types and regions.",
    inputs: z.object(adminCredentialsDeclaration.shape),
    outputs: z.object({
        channels: z
            .array(
                z
                    .object({
                        id: z.string().describe("The channel's id."),
                        name: z.string().describe("The channel's display name."),
                        defaultGeneration: namedOption.describe("The generation a cluster of this channel gets unless one is named."),
                        allowedGenerations: z.array(namedOption).describe("The generations a cluster of this channel may run."),
                    })
                    .meta({ id: "ClusterChannel", description: "A release channel and its generations." }),
            )
            .describe("The channels clusters can be created on."),
        planTypes: z.array(namedOption).describe("The plan types clusters can be created with."),
        regions: z
            .array(
                z
                    .object({
                        id: z.string().describe("The region's id."),
                        name: z.string().describe("The region's display name."),
                        provider: z.string().optional().describe("The cloud provider of the region, where the API names it."),
                    })
                    .meta({ id: "ClusterRegion", description: "A region clusters can be created in." }),
            )
            .describe("The regions clusters can be created in."),
    }),
};
