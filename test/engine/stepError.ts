// Failures of a resource step, worded for the operator. Check failures read as Pulumi's engine words them
// (issueCheckFailures in pkg/resource/deploy/step_generator.go, the diagnostics 2002 and 2003 of
// sdk/go/common/diag/errors.go), with the value in the engine's own rendering, its secrets redacted as the CLI 3.276 does
// without --show-secrets (3.248 printed their plaintext). Pulumi then masks the stack's secret config values in what it
// prints; this engine does not, so that a test sees what a provider let through instead of what the mask happened to hide.
import { CheckFailure, HostCallError } from "./dynamicHost";
import { goStringRedacted, PropertyMap } from "./propertyValues";
import { urnName } from "./urns";

/** Check returned failures: the engine reports each one and rejects the resource. */
export class CheckFailedError extends Error {
    constructor(
        readonly failures: CheckFailure[],
        readonly inputs: PropertyMap,
    ) {
        super(failures.map((f) => `${f.property}: ${f.reason}`).join("; "));
        this.name = "CheckFailedError";
    }
}

/** A failed step of one resource; `lines` are the error messages to show. */
export class StepError extends Error {
    readonly lines: string[];

    constructor(
        readonly type: string,
        readonly urn: string,
        readonly cause: unknown,
    ) {
        const name = urnName(urn);
        const lines =
            cause instanceof CheckFailedError ? checkFailureLines(type, name, cause) : describeCause(cause).map((detail) => `${type} ${name}: ${detail}`);
        super(lines.join("\n"));
        this.name = "StepError";
        this.lines = lines;
    }
}

function checkFailureLines(type: string, name: string, cause: CheckFailedError): string[] {
    return cause.failures.map(({ property, reason }) =>
        property
            ? `${type} resource '${name}': property ${property} value ${goStringRedacted(cause.inputs[property])} has a problem: ${reason}`
            : `${type} resource '${name}' has a problem: ${reason}`,
    );
}

function describeCause(cause: unknown): string[] {
    if (cause instanceof HostCallError) {
        const failure = cause.initFailure;
        // A partial failure reads as the engine's list of init errors (a Go multierror), the resource kept in state.
        if (failure)
            return [
                `${failure.reasons.length === 1 ? "1 error" : `${failure.reasons.length} errors`} occurred:\n${failure.reasons.map((reason) => `\t* ${reason}`).join("\n")}`,
            ];
        return [`${cause.method} failed: ${cause.message}`];
    }
    return [cause instanceof Error ? cause.message : String(cause)];
}

/** A failure of a step itself (the CLI then closes with `preview failed` or `update failed`), not of its check. */
export function isStepFailure(error: unknown): boolean {
    return error instanceof StepError && !(error.cause instanceof CheckFailedError);
}
