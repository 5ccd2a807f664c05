// ClusterClient's inputs and outputs as the package schema declares them (see ../plugin/schema.ts).
import { z } from "zod";
import { CLUSTER_CLIENT_PERMISSIONS } from "../../sdk/adminSchemas";
import { adminCredentialsDeclaration } from "../shared/declarations";

const replaces = { replaceOnChanges: true };

export const clusterClientDeclaration = {
    description:
        "An API client of a cluster, for the workers that connect to it. Its secret is shown only once, when it is created: it lands in the stack as a secret output. Any change of its inputs replaces it (a new id and secret).",
    inputs: z.object({
        clusterId: z.string().meta(replaces).describe("The cluster (a Cluster's id, or the id of one made elsewhere)."),
        clientName: z.string().meta(replaces).describe("Unique in the cluster, at most 50 characters."),
        permissions: z
            .array(z.string())
            .optional()
            .meta(replaces)
            .describe(`What the client may reach: ${CLUSTER_CLIENT_PERMISSIONS.join(", ")}. Default: all of them.`),
        triggers: z.unknown().optional().meta(replaces).describe("Any value: a change replaces the client, which rotates its secret."),
        replaceExisting: z.boolean().optional().describe("A client of this name that exists outside the stack is deleted and made anew, instead of refused."),
        timeoutSeconds: z
            .number()
            .int()
            .optional()
            .describe("The longest up waits for the cluster to be ready to show the client's connection details; default 600."),
        credentials: adminCredentialsDeclaration.optional().meta({ secret: true }),
    }),
    outputs: z.object({
        clientId: z.string().describe("The client's id, for its client-credentials grant."),
        clientSecret: z.string().meta({ secret: true }).describe("The client's secret (a secret)."),
        zeebeAddress: z.string().describe("The address the cluster's engine answers on for this client."),
        authorizationServerUrl: z.string().describe("The token endpoint the client gets its tokens from."),
        audience: z.string().describe("The audience the client's token requests name."),
        permissions: z.array(z.string()),
    }),
};
