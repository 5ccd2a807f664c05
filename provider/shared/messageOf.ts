import { AbortedError } from "../../sdk/errors";
import { hostSignal } from "./hostLifetime";

/** The message of anything thrown (an Error's message, else the value as text); what a cancelled run stopped says so. */
export function messageOf(error: unknown): string {
    if (error instanceof AbortedError && hostSignal.aborted) return "the run was cancelled";
    return error instanceof Error ? error.message : String(error);
}

/** How a step that a cancelled run ended reads: `the run was cancelled while <what>`. */
export function cancelledWhile(what: string): string {
    return `the run was cancelled while ${what}`;
}
