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
                        description: z.string().optional().describe("What the entry is for."),
                    })
                    .meta({ id: "IpAllowlistEntry", description: "One entry of a cluster's IP allowlist." }),
            )
            .describe("The whole list; empty lifts every restriction."),
        credentials: adminCredentialsDeclaration.optional().meta({ secret: true }),
    }),
    outputs: z.object({
        clusterId: z.string(),
        entries: z
            .array(
                z
                    .object({
                        ip: z.string().describe("The address or range as the platform lists it."),
                        description: z.string().describe("What the entry is for (empty when none)."),
                    })
                    .meta({ id: "IpAllowlistEntryState", description: "One entry of a cluster's IP allowlist as the platform lists it." }),
            )
            .describe("The list as the platform holds it."),
    }),
};
