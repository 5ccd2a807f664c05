// The yardstick of the cold-start benchmark: a dynamic provider that does nothing, so the host's own
// start-up and deserialization are all its first Check costs.
import type * as pulumi from "@pulumi/pulumi";

export class TrivialProvider implements pulumi.dynamic.ResourceProvider {
    constructor() {
        // An explicit constructor: the closure serializer needs one to keep the prototype chain.
    }

    async check(_olds: unknown, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult> {
        return { inputs: news };
    }

    async create(inputs: Record<string, unknown>): Promise<pulumi.dynamic.CreateResult> {
        return { id: "trivial", outs: inputs };
    }
}
TrivialProvider.prototype.constructor = TrivialProvider;

export const trivialProvider = new TrivialProvider();

/**
 * The trivial provider whose Check also reads one URL (`news.url`) with Node's own fetch: the floor of a host that
 * speaks HTTP at all, since Node's fetch is undici, as the SDK's transport is.
 */
export class OneReadProvider implements pulumi.dynamic.ResourceProvider {
    constructor() {
        // An explicit constructor: the closure serializer needs one to keep the prototype chain.
    }

    async check(_olds: unknown, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult> {
        const response = await fetch(String(news.url));
        await response.arrayBuffer();
        return { inputs: news };
    }

    async create(inputs: Record<string, unknown>): Promise<pulumi.dynamic.CreateResult> {
        return { id: "one-read", outs: inputs };
    }
}
OneReadProvider.prototype.constructor = OneReadProvider;

export const oneReadProvider = new OneReadProvider();
