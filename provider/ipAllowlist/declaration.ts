// IpAllowlist's inputs and outputs as the package schema declares them (see ../plugin/schema.ts).
import { z } from "zod";
import { adminCredentialsDeclaration } from "../shared/declarations";

export const ipAllowlistDeclaration = {
    description:
        "The IP allowlist of a cluster (it guards the engine's gRPC and REST ingress, not the web applications): the whole list, replaced at once. Destroying the resource lifts every restriction.",
    inputs: z.object({
        clusterId: z
            .string()
            .meta({ replaceOnChanges: true })
            .describe("The cluster whose allowlist this is (one IpAllowlist per cluster). A change replaces the resource."),
        entries: z
            .array(
                z
                    .object({
                        ip: z.string().describe("An IPv4 or IPv6 address or CIDR range, or several separated by commas."),
                        description: z.string().optional(),
                    })
                    .meta({ id: "IpAllowlistEntry" }),
            )
            .describe("The whole list; empty lifts every restriction."),
        credentials: adminCredentialsDeclaration.optional().meta({ secret: true }),
    }),
    outputs: z.object({
        clusterId: z.string(),
        entries: z.array(z.object({ ip: z.string(), description: z.string() }).meta({ id: "IpAllowlistEntryState" })),
    }),
};
