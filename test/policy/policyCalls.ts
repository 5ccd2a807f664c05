// Calls a policy as the policy process does (the args @pulumi/policy's server builds for it), without a CLI: what a
// test gives is what the engine would, a resource's checked inputs and options, and the config file's values.

import type {
    PolicyResource,
    PolicyResourceOptions,
    ResourceValidationArgs,
    ResourceValidationPolicy,
    StackValidationArgs,
    StackValidationPolicy,
} from "@pulumi/policy";

export interface Call {
    type: string;
    name?: string;
    props: Record<string, unknown>;
    opts?: Partial<PolicyResourceOptions>;
    config?: Record<string, unknown>;
    /** The resource's URN; default `urn:pulumi:stack::project::<type>::<name>`. */
    urn?: string;
}

const NO_OPTIONS: PolicyResourceOptions = {
    protect: false,
    ignoreChanges: [],
    aliases: [],
    customTimeouts: { createSeconds: 0, updateSeconds: 0, deleteSeconds: 0 },
    additionalSecretOutputs: [],
};

/** The violations' messages. */
export async function violations(policy: ResourceValidationPolicy, call: Call): Promise<string[]> {
    const reported: string[] = [];
    const name = call.name ?? "under-test";
    const args: ResourceValidationArgs = {
        type: call.type,
        props: call.props,
        urn: call.urn ?? `urn:pulumi:stack::project::${call.type}::${name}`,
        name,
        opts: { ...NO_OPTIONS, ...call.opts },
        stackTags: new Map(),
        isType: () => false,
        asType: () => undefined,
        getConfig: <T extends object>() => (call.config ?? {}) as T,
        notApplicable: () => {
            throw new Error("not applicable");
        },
    };
    const validate = policy.validateResource;
    if (validate === undefined || Array.isArray(validate)) throw new Error(`${policy.name} has no single validateResource`);
    await validate(args, (message) => reported.push(message));
    return reported;
}

export interface StackResource {
    type: string;
    name: string;
    props: Record<string, unknown>;
    /** The names of the resources each property depends on. */
    propertyDependencies?: Record<string, string[]>;
}

/** A stack policy's violations, each with the URN it names. */
export async function stackViolations(
    policy: StackValidationPolicy,
    resources: StackResource[],
    config: Record<string, unknown> = {},
): Promise<{ message: string; urn?: string }[]> {
    const urn = (resource: StackResource) => `urn:pulumi:stack::project::${resource.type}::${resource.name}`;
    const seen: PolicyResource[] = resources.map((resource) => ({
        type: resource.type,
        name: resource.name,
        urn: urn(resource),
        props: resource.props,
        opts: NO_OPTIONS,
        dependencies: [],
        propertyDependencies: {},
        isType: () => false,
        asType: () => undefined,
    }));
    resources.forEach((resource, index) => {
        for (const [property, names] of Object.entries(resource.propertyDependencies ?? {})) {
            seen[index].propertyDependencies[property] = names.map((dependency) => seen[resources.findIndex((other) => other.name === dependency)]);
        }
    });
    const reported: { message: string; urn?: string }[] = [];
    const args: StackValidationArgs = {
        resources: seen,
        stackTags: new Map(),
        getConfig: <T extends object>() => config as T,
        notApplicable: () => {
            throw new Error("not applicable");
        },
    };
    await policy.validateStack(args, (message, urn) => reported.push({ message, urn }));
    return reported;
}
