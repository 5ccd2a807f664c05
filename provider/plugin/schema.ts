// The package schema of the provider plugin, generated from the resources' zod declarations (never written by
// hand): property types, which are required, which are secret (`.meta({ secret: true })`), which replace the resource
// when they change (`.meta({ replaceOnChanges: true })`), descriptions, and the object types they name
// (`.meta({ id })`). plugin/schema.json is this, written by `npm run schema` (test/tools/writeSchema.ts); a test fails
// when they differ.
import { z } from "zod";
import { providerConfigDeclaration } from "./providerConfig";
import { type Declaration, PACKAGE_NAME, SERVED_FUNCTIONS, SERVED_RESOURCES, typeToken } from "./resources";

type JsonSchema = {
    type?: string;
    properties?: Record<string, JsonSchema>;
    required?: string[];
    items?: JsonSchema;
    additionalProperties?: JsonSchema | boolean;
    enum?: unknown[];
    $ref?: string;
    $defs?: Record<string, JsonSchema>;
    description?: string;
    secret?: boolean;
    replaceOnChanges?: boolean;
};

type PulumiProperty = {
    type?: string;
    items?: PulumiProperty;
    additionalProperties?: PulumiProperty;
    $ref?: string;
    description?: string;
    secret?: boolean;
    replaceOnChanges?: boolean;
};

interface ObjectType {
    type: "object";
    description?: string;
    properties: Record<string, PulumiProperty>;
    required?: string[];
}

/** What the schema takes from package.json: the version, and the repository (https://github.com/<owner>/<name>). */
export interface PackageInfo {
    version: string;
    repository: string;
}

export function packageSchema({ version, repository }: PackageInfo): Record<string, unknown> {
    const types: Record<string, ObjectType> = {};
    const resources: Record<string, unknown> = {};
    const functions: Record<string, unknown> = {};
    for (const [name, served] of Object.entries(SERVED_RESOURCES)) {
        resources[typeToken(name)] = resourceSchema(served.declaration, types);
    }
    for (const [name, served] of Object.entries(SERVED_FUNCTIONS)) {
        functions[typeToken(name)] = functionSchema(served.declaration, types);
    }
    // The provider's settings: stack config `platform:<key>` for the default provider, an explicit provider's inputs.
    const settings = objectOf(providerConfigDeclaration, types).properties;
    return {
        name: PACKAGE_NAME,
        displayName: "Workflow-engine platform",
        version,
        description:
            "Cluster layouts (brokers, partitions, replication factor) and the organization (members, clusters, API clients) of a workflow-engine platform.",
        license: "Apache-2.0",
        publisher: "pulumi-platform",
        repository,
        homepage: repository,
        keywords: ["kubernetes", "workflow-engine", "category/infrastructure", "kind/native"],
        // The CLI fetches the plugin from the repository's GitHub release v<version> when a program first needs it.
        pluginDownloadURL: releaseLocation(repository),
        language: {
            csharp: { rootNamespace: "PulumiPlatform", respectSchemaVersion: true },
            // The Go SDK is a module of its own at sdk/go of the repository (a release carries it: npm run release).
            go: {
                importBasePath: `${repository.replace(/^https:\/\//, "")}/sdk/go/platform`,
                generateResourceContainerTypes: false,
                respectSchemaVersion: true,
            },
            nodejs: { packageName: "@pulumi-platform/platform", respectSchemaVersion: true },
            python: { packageName: "pulumi_platform", respectSchemaVersion: true },
        },
        config: { variables: settings },
        provider: {
            description: "The provider's settings, for every resource and function under it: each falls back to the environment.",
            inputProperties: settings,
            properties: settings,
        },
        types: sortedByKey(types),
        resources,
        functions,
    };
}

/** github://api.github.com/<owner>/<name>: the release assets of the repository, as the CLI names such a location. */
function releaseLocation(repository: string): string {
    const match = /^https:\/\/github\.com\/([^/]+)\/([^/]+)$/.exec(repository);
    if (match === null) throw new Error(`schema: the repository ${repository} is not https://github.com/<owner>/<name>`);
    return `github://api.github.com/${match[1]}/${match[2]}`;
}

function functionSchema(declaration: Declaration, types: Record<string, ObjectType>) {
    const { type: _inputs, ...inputs } = objectOf(declaration.inputs, types);
    const { type: _outputs, ...outputs } = objectOf(declaration.outputs, types);
    return { description: declaration.description, inputs, outputs };
}

function resourceSchema(declaration: Declaration, types: Record<string, ObjectType>) {
    const inputs = objectOf(declaration.inputs, types);
    const outputs = objectOf(declaration.outputs, types);
    // An output property of the same name as an input keeps the input's secrecy (the state holds what was given), and
    // its description where it has none of its own.
    const properties: Record<string, PulumiProperty> = { ...inputs.properties };
    for (const [key, property] of Object.entries(outputs.properties)) {
        const input = inputs.properties[key];
        properties[key] = { ...descriptionOf(input), ...property, ...secretOf(input) };
    }
    return {
        description: declaration.description,
        inputProperties: inputs.properties,
        requiredInputs: inputs.required ?? [],
        properties,
        required: outputs.required ?? [],
    };
}

function descriptionOf(property: PulumiProperty | undefined): { description?: string } {
    return property?.description === undefined ? {} : { description: property.description };
}

function secretOf(property: PulumiProperty | undefined): { secret?: true } {
    return property?.secret === true ? { secret: true } : {};
}

function objectOf(schema: z.ZodObject, types: Record<string, ObjectType>): ObjectType {
    const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "throw" }) as JsonSchema;
    const defs = json.$defs ?? {};
    for (const [id, def] of Object.entries(defs)) types[typeToken(id)] = objectType(def, defs);
    return objectType(json, defs);
}

function objectType(json: JsonSchema, defs: Record<string, JsonSchema>): ObjectType {
    const properties = Object.fromEntries(Object.entries(json.properties ?? {}).map(([key, value]) => [key, property(value, defs)]));
    return {
        type: "object",
        ...(json.description ? { description: json.description } : {}),
        properties,
        ...(json.required && json.required.length > 0 ? { required: json.required } : {}),
    };
}

function property(json: JsonSchema, defs: Record<string, JsonSchema>): PulumiProperty {
    const marks: PulumiProperty = {};
    if (json.secret === true) marks.secret = true;
    if (json.replaceOnChanges === true) marks.replaceOnChanges = true;
    if (json.$ref !== undefined) {
        const id = json.$ref.replace(/^#\/\$defs\//, "");
        if (defs[id] === undefined) throw new Error(`schema: ${json.$ref} names no declared type`);
        const description = json.description ?? defs[id].description;
        return { $ref: `#/types/${typeToken(id)}`, ...(description ? { description } : {}), ...marks };
    }
    const described = { ...(json.description ? { description: json.description } : {}), ...marks };
    // No type at all (z.unknown()): any value.
    if (json.type === undefined) return { $ref: "pulumi.json#/Any", ...described };
    switch (json.type) {
        case "string":
        case "integer":
        case "number":
        case "boolean":
            return { type: json.type, ...described };
        case "array":
            return { type: "array", items: property(json.items ?? {}, defs), ...described };
        case "object":
            if (typeof json.additionalProperties === "object" && json.properties === undefined) {
                return { type: "object", additionalProperties: property(json.additionalProperties, defs), ...described };
            }
            throw new Error("schema: an object type needs an id (`.meta({ id })`) to be named in the package schema");
        default:
            throw new Error(`schema: no Pulumi type for JSON schema type ${String(json.type)}`);
    }
}

function sortedByKey<T>(record: Record<string, T>): Record<string, T> {
    return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
