// Which pass of Pulumi's engine this provider host serves. The engine starts its provider hosts anew for every pass:
// the preview that `pulumi up` makes first (or `pulumi preview`), the update itself, a refresh. Only the program knows
// whether it runs a preview, so each resource passes `dryRun` with its inputs, and check records it. A resource this
// host never checked, but is asked to diff, is a refresh's: after reading the resource the engine diffs the program's
// old inputs against what the read found (RefreshStep.Apply in pkg/resource/deploy/step.go).

export type Pass = "preview" | "update" | "refresh";

/** True for a resource the engine checks for the first time (a create): no old inputs but the provider. */
export function isNew(olds: Record<string, unknown>): boolean {
    return Object.keys(olds).every((key) => key === "__provider");
}

export class PassLog {
    private readonly checked = new Map<string, "preview" | "update">();

    /** check saw this resource, in a preview (dryRun) or in an update. */
    recordCheck(resource: string, dryRun: boolean): void {
        this.checked.set(resource, dryRun ? "preview" : "update");
    }

    passOf(resource: string): Pass {
        return this.checked.get(resource) ?? "refresh";
    }
}
