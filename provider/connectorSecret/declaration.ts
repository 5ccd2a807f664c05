// ConnectorSecret's inputs and outputs as the package schema declares them (see ../plugin/schema.ts).
import { z } from "zod";
import { adminCredentialsDeclaration } from "../shared/declarations";

export const connectorSecretDeclaration = {
    description: "A secret of a cluster that its connectors read by name.",
    inputs: z.object({
        clusterId: z
            .string()
            .meta({ replaceOnChanges: true })
            .describe("The cluster (a Cluster's id, or the id of one made elsewhere). A change replaces the secret."),
        secretName: z
            .string()
            .meta({ replaceOnChanges: true })
            .describe("Shorter than 50 characters. A change replaces the secret (the old one is deleted first)."),
        value: z.string().meta({ secret: true }).describe("Stored as a secret; a change is written in place."),
        adoptExisting: z
            .boolean()
            .optional()
            .describe("Write the value into a secret of this name that exists already (made outside the stack) instead of refusing."),
        credentials: adminCredentialsDeclaration.optional().meta({ secret: true }),
    }),
    outputs: z.object({
        clusterId: z.string(),
        secretName: z.string(),
        value: z.string().meta({ secret: true }).describe("The value as the cluster lists it (a secret)."),
    }),
};
