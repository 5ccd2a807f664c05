// One shape for every resource policy of the package: which resources it looks at, its typed config with defaults
// (a factory's values, then the pack's config file over them), and a check that answers the violations' messages.
// Only types come from @pulumi/policy: the policies load without it, and the pack constructs the PolicyPack.

import type { EnforcementLevel, PolicyConfigSchema, PolicyResourceOptions, ResourceValidationPolicy } from "@pulumi/policy";
import { type PlatformResource, platformResourceOf } from "./resourceTypes";
import { type StackView, stackNameOf, stackView } from "./stacks";

/** What every factory takes: the level, config values over the policy's defaults, and where the stack's name comes from. */
export interface RuleOptions<Config> {
    enforcementLevel?: EnforcementLevel;
    config?: Partial<Config>;
    /** Default: the stack in the resource's URN, else PULUMI_NODEJS_STACK (as pulumi.getStack() reads it). */
    stackName?: () => string | undefined;
}

/** What a check sees of a resource: its kind and name, its checked inputs and its options. */
export interface SeenResource {
    readonly kind: PlatformResource;
    readonly name: string;
    readonly props: Record<string, unknown>;
    readonly opts: PolicyResourceOptions;
}

export interface ResourceRule<Config> {
    name: string;
    description: string;
    enforcementLevel: EnforcementLevel;
    resources: readonly PlatformResource[];
    /** The JSON schema of each setting (PRODUCTION_STACKS_SCHEMA where the rule depends on the stack). */
    configSchema: PolicyConfigSchema["properties"];
    defaults: Config;
    check(resource: SeenResource, config: Config, stack: StackView): string[];
}

/** productionStacks as every stack-dependent policy takes it. */
export const PRODUCTION_STACKS_SCHEMA = {
    type: "array",
    items: { type: "string" },
    description: 'the production stacks\' names (a "*" matches any characters); left out, every stack whose name contains "prod"',
} as const;

export function resourcePolicy<Config extends object>(rule: ResourceRule<Config>, options: RuleOptions<Config> = {}): ResourceValidationPolicy {
    const defaults: Config = { ...rule.defaults, ...options.config };
    return {
        name: rule.name,
        description: rule.description,
        enforcementLevel: options.enforcementLevel ?? rule.enforcementLevel,
        configSchema: { properties: rule.configSchema },
        validateResource: (args, reportViolation) => {
            const kind = platformResourceOf(args.type);
            if (kind === undefined || !rule.resources.includes(kind)) return;
            const config = { ...defaults, ...settingsOnly(args.getConfig<Partial<Config>>()) };
            const stack = stackView(stackNameOf(args.urn, options.stackName), (config as { productionStacks?: string[] }).productionStacks);
            for (const message of rule.check({ kind, name: args.name, props: args.props, opts: args.opts }, config, stack)) reportViolation(message);
        },
    };
}

/** The policy's config as the pack's config file gives it, without the level (the engine's business). */
export function settingsOnly<Config>(given: Partial<Config> | undefined): Partial<Config> {
    if (given === undefined || given === null) return {};
    const { enforcementLevel: _level, ...settings } = given as Partial<Config> & { enforcementLevel?: unknown };
    return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)) as Partial<Config>;
}

/** `ClusterScale "layout"`: how every message names the resource. */
export function subject(resource: SeenResource): string {
    return `${resource.kind} "${resource.name}"`;
}

export function listText(values: readonly string[]): string {
    return values.length === 0 ? "(none)" : values.map((value) => `"${value}"`).join(", ");
}
