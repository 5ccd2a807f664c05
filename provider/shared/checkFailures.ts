// How a check failure reaches the user. Pulumi's engine prints a failure's property with the value it holds beside the
// reason (issueCheckFailures in pkg/resource/deploy/step_generator.go): a secret with its plaintext, a URL with the
// password the rule refuses, and for a nested path (`kubernetes.namespace`) nothing useful (`{<nil>}`: it looks the
// path up as one key). Any input may be a secret (a program can pass config.requireSecret anywhere), so every failure
// is reported as a failure of the resource, with the field named at the start of the reason, and no input value is
// ever printed on our account.
import type * as pulumi from "@pulumi/pulumi";

export function asResourceFailures(failures: readonly pulumi.dynamic.CheckFailure[]): pulumi.dynamic.CheckFailure[] {
    return failures.map(({ property, reason }) => ({ property: "", reason: namesField(reason, property) ? reason : `${property}: ${reason}` }));
}

/** The reason starts with the field's name as a word of its own ("kubernetes.namespace must …", "force removal …"). */
function namesField(reason: string, property: string): boolean {
    return property === "" || (reason.startsWith(property) && !/^[A-Za-z0-9_]/.test(reason.slice(property.length)));
}
