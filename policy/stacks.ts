// Which stacks count as production: the names in a policy's productionStacks (a `*` matches any run of characters),
// else every stack whose name contains "prod". A stack whose name the policy cannot know counts as production: a rule
// for production must fail closed.
//
// The name comes from the resource's URN (`urn:pulumi:<stack>::<project>::…`), which every CLI passes: from 3.249 on
// the engine no longer gives the policy process the stack in its environment, and `pulumi policy analyze` never did.

/** The stack of a URN, if it is one. */
export function stackNameFromUrn(urn: string | undefined): string | undefined {
    const name = /^urn:pulumi:([^:]+)::/.exec(urn ?? "")?.[1];
    return name === undefined || name === "" ? undefined : name;
}

/** The stack's name as older CLIs give it to the policy process (the variable pulumi.getStack() reads), if any. */
export function stackNameFromEnvironment(environment: NodeJS.ProcessEnv = process.env): string | undefined {
    const name = environment.PULUMI_NODEJS_STACK ?? environment.PULUMI_STACK;
    return name === undefined || name === "" ? undefined : name;
}

export interface StackView {
    /** Undefined when the policy cannot know it. */
    readonly name: string | undefined;
    readonly production: boolean;
    /** `stack "prod"`, or what an unknown stack is taken for. */
    readonly text: string;
}

/** The stack a policy judges: the one its options name (tests, packs of one's own), else the URN's, else the environment's. */
export function stackNameOf(urn: string | undefined, given: (() => string | undefined) | undefined): string | undefined {
    if (given !== undefined) return given();
    return stackNameFromUrn(urn) ?? stackNameFromEnvironment();
}

export function stackView(name: string | undefined, productionStacks: readonly string[] | undefined): StackView {
    if (name === undefined) return { name, production: true, text: "a stack whose name is not known here (counted as production)" };
    const production = productionStacks === undefined ? name.includes("prod") : productionStacks.some((pattern) => matches(pattern, name));
    return { name, production, text: `stack "${name}"` };
}

/** Whether the stack is one of the names (patterns with `*`); an unknown stack is in no list. */
export function stackListed(name: string | undefined, names: readonly string[]): boolean {
    return name !== undefined && names.some((pattern) => matches(pattern, name));
}

function matches(pattern: string, name: string): boolean {
    const expression = pattern
        .split("*")
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join(".*");
    return new RegExp(`^${expression}$`).test(name);
}
