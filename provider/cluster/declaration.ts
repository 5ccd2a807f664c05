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
        generationId: z.string(),
        channelId: z.string(),
        regionId: z.string(),
        planTypeId: z.string(),
        links: z.record(z.string(), z.string()).describe("Where the cluster's applications answer: zeebe, operate, tasklist, optimize, console, connectors."),
        created: z.string(),
    }),
};

const namedOption = z.object({ id: z.string(), name: z.string() }).meta({ id: "NamedOption" });

export const getClusterParametersDeclaration = {
    description: "What clusters of the organization can be created with: channels (with their generations), plan types and regions.",
    inputs: z.object(adminCredentialsDeclaration.shape),
    outputs: z.object({
        channels: z.array(
            z
                .object({ id: z.string(), name: z.string(), defaultGeneration: namedOption, allowedGenerations: z.array(namedOption) })
                .meta({ id: "ClusterChannel" }),
        ),
        planTypes: z.array(namedOption),
        regions: z.array(z.object({ id: z.string(), name: z.string(), provider: z.string().optional() }).meta({ id: "ClusterRegion" })),
    }),
};
