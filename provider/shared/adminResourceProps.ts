// What every administration resource sends besides its own inputs, and how its credentials stay secret in the state.
import * as pulumi from "@pulumi/pulumi";
import type { AdminCredentialsArgs } from "./adminCredentialsArgs";

/**
 * The resource's name (for the provider's lines), whether the program runs a preview (what will happen is said in the
 * preview pass only; not kept in state) and the credentials, always as a secret. Spread after the resource's own
 * arguments, so the secret replaces the plain `credentials` among them.
 */
export function adminResourceProps(name: string, credentials: pulumi.Input<AdminCredentialsArgs> | undefined) {
    return { resourceName: name, dryRun: pulumi.runtime.isDryRun(), credentials: pulumi.secret(credentials ?? {}) };
}

/** The resource options, with the credentials and the resource's own secret outputs kept secret in the state. */
export function adminResourceOptions(opts: pulumi.CustomResourceOptions | undefined, ...secretOutputs: string[]): pulumi.CustomResourceOptions {
    return pulumi.mergeOptions(opts, { additionalSecretOutputs: [...secretOutputs, "credentials"] });
}
