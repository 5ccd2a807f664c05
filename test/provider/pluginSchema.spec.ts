// The plugin's schema cannot drift: plugin/schema.json is what the zod declarations generate (run `npm run schema`
// after changing one), each declaration has the inputs and outputs of the TypeScript resource it serves (the compile
// fails otherwise, see the type checks below), and every resource and function is served by the same code as the
// TypeScript program's (one implementation, two doors).
import assert from "node:assert/strict";
import * as fs from "fs";
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import * as entry from "../../index";
import type { AdminClient, AdminClientArgs, Cluster, ClusterArgs, ClusterClient, ClusterClientArgs, ClusterScale, ClusterScaleArgs } from "../../index";
import type { ConnectorSecret, ConnectorSecretArgs, IpAllowlist, IpAllowlistArgs, OrganizationMember, OrganizationMemberArgs } from "../../index";
import type { GetClusterParametersArgs, GetMembersArgs } from "../../index";
import { ENTRY_POINTS } from "../../provider/shared/entryPoints";
import { packageSchema } from "../../provider/plugin/schema";
import { SERVED_FUNCTIONS, SERVED_RESOURCES } from "../../provider/plugin/resources";
import { adminClientDeclaration, getMembersDeclaration } from "../../provider/adminClient/declaration";
import { clusterDeclaration, getClusterParametersDeclaration } from "../../provider/cluster/declaration";
import { clusterClientDeclaration } from "../../provider/clusterClient/declaration";
import { clusterScaleDeclaration } from "../../provider/clusterScale/declaration";
import { connectorSecretDeclaration } from "../../provider/connectorSecret/declaration";
import { ipAllowlistDeclaration } from "../../provider/ipAllowlist/declaration";
import { organizationMemberDeclaration } from "../../provider/organizationMember/declaration";
import { SCHEMA_FILE, packageInfo } from "../tools/writeSchema";

// The type checks: a declaration's inputs are the resource's arguments (their names, and each value assignable both
// ways once Pulumi's Input wrappers are taken off); its outputs are the resource's Output properties.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type InputsOf<D extends { inputs: z.ZodObject }> = z.input<D["inputs"]>;
type Outputs<R> = { [K in keyof R as R[K] extends pulumi.Output<unknown> ? K : never]: R[K] };
type OutputNames<R> = Exclude<keyof Outputs<R>, "id" | "urn">;
// Pulumi's Unwrap makes no `unknown` of an `Input<unknown>` (ClusterClient's triggers): such values are named in Loose.
type Declares<Args, D extends { inputs: z.ZodObject }, Loose extends keyof Args = never> =
    Same<keyof Args, keyof InputsOf<D>> extends true ? Same<pulumi.Unwrap<Omit<Args, Loose>>, Omit<InputsOf<D>, Loose>> : false;

const inputsMatch: Record<string, true> = {
    ClusterScale: true satisfies Declares<ClusterScaleArgs, typeof clusterScaleDeclaration>,
    OrganizationMember: true satisfies Declares<OrganizationMemberArgs, typeof organizationMemberDeclaration>,
    Cluster: true satisfies Declares<ClusterArgs, typeof clusterDeclaration>,
    ClusterClient: true satisfies Declares<ClusterClientArgs, typeof clusterClientDeclaration, "triggers">,
    ConnectorSecret: true satisfies Declares<ConnectorSecretArgs, typeof connectorSecretDeclaration>,
    IpAllowlist: true satisfies Declares<IpAllowlistArgs, typeof ipAllowlistDeclaration>,
    AdminClient: true satisfies Declares<AdminClientArgs, typeof adminClientDeclaration>,
    getMembers: true satisfies Same<keyof GetMembersArgs, keyof InputsOf<typeof getMembersDeclaration>>,
    getClusterParameters: true satisfies Same<keyof GetClusterParametersArgs, keyof InputsOf<typeof getClusterParametersDeclaration>>,
};
// A Cluster's clusterId is its id in the plugin (`id` in every SDK).
const outputsMatch: Record<string, true> = {
    ClusterScale: true satisfies Same<OutputNames<ClusterScale>, keyof z.output<typeof clusterScaleDeclaration.outputs>>,
    OrganizationMember: true satisfies Same<OutputNames<OrganizationMember>, keyof z.output<typeof organizationMemberDeclaration.outputs>>,
    Cluster: true satisfies Same<Exclude<OutputNames<Cluster>, "clusterId">, keyof z.output<typeof clusterDeclaration.outputs>>,
    ClusterClient: true satisfies Same<OutputNames<ClusterClient>, keyof z.output<typeof clusterClientDeclaration.outputs>>,
    ConnectorSecret: true satisfies Same<OutputNames<ConnectorSecret>, keyof z.output<typeof connectorSecretDeclaration.outputs>>,
    IpAllowlist: true satisfies Same<OutputNames<IpAllowlist>, keyof z.output<typeof ipAllowlistDeclaration.outputs>>,
    AdminClient: true satisfies Same<OutputNames<AdminClient>, keyof z.output<typeof adminClientDeclaration.outputs>>,
};

describe("the provider plugin's schema and what it serves", () => {
    it("plugin/schema.json is what the declarations generate (npm run schema writes it)", () => {
        const committed = JSON.parse(fs.readFileSync(SCHEMA_FILE, "utf8")) as unknown;
        assert.deepEqual(committed, packageSchema(packageInfo()), "plugin/schema.json differs from the declarations: run `npm run schema`");
    });

    it("describes every resource, function, type, property and setting, and says where the plugin is released", () => {
        type Described = { description?: string; properties?: Record<string, Described> };
        type Entry = Described & { inputProperties?: Record<string, Described>; inputs?: Described; outputs?: Described };
        const schema = packageSchema(packageInfo()) as {
            resources: Record<string, Entry>;
            functions: Record<string, Entry>;
            types: Record<string, Described>;
            config: { variables: Record<string, Described> };
            provider: Entry;
            pluginDownloadURL: string;
            keywords: string[];
        };
        const undescribed = (where: string, properties: Record<string, Described> = {}) =>
            Object.entries(properties)
                .filter(([, property]) => !property.description)
                .map(([name]) => `${where}.${name}`);
        const entries: [string, Entry][] = [
            ...Object.entries(schema.resources),
            ...Object.entries(schema.functions),
            ...Object.entries(schema.types),
            ["provider", schema.provider],
        ];
        const missing = [
            ...entries.filter(([, entry]) => !entry.description).map(([token]) => token),
            ...entries.flatMap(([token, entry]) => [
                ...undescribed(`${token} input`, entry.inputProperties ?? entry.inputs?.properties),
                // A type's properties are neither inputs nor outputs.
                ...undescribed(token in schema.types ? token : `${token} output`, entry.properties ?? entry.outputs?.properties),
            ]),
            ...undescribed("config", schema.config.variables),
        ];
        assert.deepEqual(missing, [], "without a description");
        assert.equal(schema.pluginDownloadURL, "github://api.github.com/pulumi-platform/pulumi-platform");
        assert.ok(schema.keywords.includes("category/infrastructure") && schema.keywords.includes("kind/native"), `${schema.keywords}`);
    });

    it("serves every resource and function the TypeScript package exports, each checked against its declaration", () => {
        const exported = Object.keys(entry).filter((name) => name !== "sdk" && !name.endsWith("Output"));
        assert.deepEqual([...Object.keys(SERVED_RESOURCES), ...Object.keys(SERVED_FUNCTIONS)].sort(), exported.sort());
        assert.deepEqual(Object.keys(inputsMatch).sort(), exported.sort());
        assert.deepEqual(Object.keys(outputsMatch).sort(), Object.keys(SERVED_RESOURCES).sort());
    });

    it("each resource is served by the dynamic provider a TypeScript program's state names (one implementation)", async () => {
        for (const [name, served] of Object.entries(SERVED_RESOURCES)) {
            const key = (name[0].toLowerCase() + name.slice(1)) as keyof typeof ENTRY_POINTS;
            // eslint-disable-next-line @typescript-eslint/no-require-imports -- the entry module the state names, as the shim loads it
            const dynamic = require(ENTRY_POINTS[key].replace(/^pulumi-platform\/dist\//, "../../")).provider;
            assert.equal(await served.load(), dynamic, `${name} is served by another object than ${ENTRY_POINTS[key]}'s provider`);
        }
    });

    it("marks secret what the TypeScript resources keep secret, and replaces on what they replace", () => {
        const schema = packageSchema(packageInfo()) as {
            resources: Record<string, { inputProperties: Record<string, { secret?: boolean; replaceOnChanges?: boolean }> }>;
        };
        const marked = (mark: "secret" | "replaceOnChanges") =>
            Object.entries(schema.resources).flatMap(([token, resource]) =>
                Object.entries(resource.inputProperties)
                    .filter(([, property]) => property[mark] === true)
                    .map(([name]) => `${token.split(":").pop()}.${name}`),
            );
        const withCredentials = ["OrganizationMember", "Cluster", "ClusterClient", "ConnectorSecret", "IpAllowlist"].map((type) => `${type}.credentials`);
        assert.deepEqual(
            marked("secret").sort(),
            [
                "ClusterScale.auth",
                "ClusterScale.tls",
                "ClusterScale.kubernetes",
                "ConnectorSecret.value",
                "AdminClient.clientSecret",
                "AdminClient.tls",
                ...withCredentials,
            ].sort(),
        );
        assert.deepEqual(
            marked("replaceOnChanges").sort(),
            [
                "OrganizationMember.email",
                "Cluster.channel",
                "Cluster.region",
                "Cluster.planType",
                "ClusterClient.clusterId",
                "ClusterClient.clientName",
                "ClusterClient.permissions",
                "ClusterClient.triggers",
                "ConnectorSecret.clusterId",
                "ConnectorSecret.secretName",
                "IpAllowlist.clusterId",
            ].sort(),
        );
    });
});
