// Failures of a resource step, worded for the operator (property and reason for check failures).
import { CheckFailure, HostCallError } from "./dynamicHost";
import { describeValue, PropertyMap } from "./propertyValues";
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
        const subject = `${type} ${urnName(urn)}`;
        const lines = describeCause(cause).map((detail) => `${subject}: ${detail}`);
        super(lines.join("\n"));
        this.name = "StepError";
        this.lines = lines;
    }
}

function describeCause(cause: unknown): string[] {
    if (cause instanceof CheckFailedError) {
        return cause.failures.map(({ property, reason }) => {
            if (!property) return reason;
            const value = property in cause.inputs ? ` (value ${describeValue(cause.inputs[property])})` : "";
            return `property ${property}${value} has a problem: ${reason}`;
        });
    }
    if (cause instanceof HostCallError) {
        const detail = `${cause.method} failed: ${cause.message}`;
        const failure = cause.initFailure;
        if (!failure) return [detail];
        return [`${detail} (partial failure: ${failure.id} kept in state with init errors: ${failure.reasons.join("; ")})`];
    }
    return [cause instanceof Error ? cause.message : String(cause)];
}
