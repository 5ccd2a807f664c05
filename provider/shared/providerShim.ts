// What Pulumi stores as a resource's `__provider`: one small function that requires the provider from the
// installed package (see entryPoints.ts). None of the package's own code is serialized, so the state stays small,
// a new version's fixes reach old resources, and the provider's module state (token caches, rate limiters, cluster
// claims) is shared by every resource of the host process.
//
// How it forwards: the dynamic-provider host loads a stored provider once per host process and calls its
// `configure` before any other method, on that same object. So the shim has only `configure`, which loads the
// installed provider and gives the shim its methods. Pulumi's closure serializer turns the function into source
// text, comments included: it uses only its parameter, the two captured strings and `require` (which the host
// resolves from the project directory), and keeps its comments here.
//
// A package that cannot be loaded fails each call naming the resource, the module and the remedy, except delete:
// deleting either resource sends nothing to the platform, so the resource leaves the stack with a warning.
/* eslint-disable @typescript-eslint/no-require-imports -- the shim requires the installed package by name, in the host */
import type * as pulumi from "@pulumi/pulumi";

type Method = "check" | "diff" | "create" | "read" | "update" | "delete";
type Methods = Record<Method, (...args: never[]) => Promise<unknown>>;

export function providerShim(entry: string, resourceType: string): pulumi.dynamic.ResourceProvider {
    const shim = {
        async configure(request: pulumi.dynamic.ConfigureRequest): Promise<void> {
            const methods: Method[] = ["check", "diff", "create", "read", "update", "delete"];
            const self = this as unknown as Methods;
            let provider: Methods & { configure(request: pulumi.dynamic.ConfigureRequest): Promise<void> };
            try {
                provider = require(entry).provider;
            } catch (error) {
                const missing = (error as { code?: unknown })?.code === "MODULE_NOT_FOUND";
                const reason = String((error as Error)?.message).split("\n")[0];
                const failure = (values?: { resourceName?: unknown }) =>
                    `${resourceType} "${typeof values?.resourceName === "string" ? values.resourceName : "(unnamed)"}": cannot load ${entry} (${reason}); install pulumi-platform in this Pulumi project (npm install pulumi-platform)`;
                for (const method of methods) {
                    self[method] = async (...args: { resourceName?: unknown }[]) => {
                        if (!missing || method !== "delete") throw new Error(failure(args[args.length - 1]));
                        console.log(`${failure(args[1])}. Removed from the stack only: deleting it sends nothing.`);
                    };
                }
                return;
            }
            for (const method of methods) self[method] = provider[method].bind(provider);
            return provider.configure(request);
        },
    };
    // The other methods are given by configure, in the host.
    return shim as unknown as pulumi.dynamic.ResourceProvider;
}
