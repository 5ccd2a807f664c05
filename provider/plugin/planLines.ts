// One plan per operation, as from TypeScript. A TypeScript program tells its providers whether it runs a preview (the
// `dryRun` its resources pass), and they show the plan only then. The engine tells a plugin nothing of the kind in
// check and diff; it says it only in the Create and Update it calls after them, with their `preview` flag (when the
// plugin answers Configure with supportsPreview). So the lines a resource's check and diff print are held until the
// engine's next call for that resource says which pass this is: shown at a preview's Create or Update, dropped at an
// update's (the preview before it showed them). The first such call tells the pass of the whole plugin process (the
// engine starts its plugins anew for every pass): from then on nothing is held, and checks know the pass.
// A resource that neither Create nor Update follows (a diff with no change, a failure) shows its lines at once: in
// `up` those show in the preview and again in the update, as nothing tells the two apart.
import { AsyncLocalStorage } from "async_hooks";

export type Pass = "preview" | "update";

export class PlanLines {
    private pass: Pass | undefined;
    private readonly held = new Map<string, string[]>();
    private readonly checked = new Set<string>();
    /** The resource a check or diff runs for, and whether it began before the pass was known (so it plans). */
    private readonly running = new AsyncLocalStorage<{ urn: string; planning: boolean }>();

    constructor(
        private readonly print: (line: string) => void,
        /** False where the engine will not call Create or Update in a preview (PULUMI_DISABLE_PROVIDER_PREVIEW). */
        private readonly holding = true,
    ) {}

    /** Whether a check runs for a preview: until the pass is known it does (its lines are held, and shown only then). */
    get dryRun(): boolean {
        return this.pass !== "update";
    }

    /** Runs a check of `urn`: the lines it prints are held while the pass is unknown. */
    checking<T>(urn: string, work: () => Promise<T>): Promise<T> {
        this.checked.add(urn);
        return this.running.run({ urn, planning: this.pass === undefined }, work);
    }

    /**
     * Runs a diff of `urn`: held as its check's lines are. A diff without a check before it is a refresh's (the
     * engine reads, then diffs, and calls nothing after): its lines are shown at once.
     */
    diffing<T>(urn: string, work: () => Promise<T>): Promise<T> {
        return this.checked.has(urn) ? this.running.run({ urn, planning: this.pass === undefined }, work) : work();
    }

    /**
     * A line printed. One of a check or diff that began before the pass was known (and so plans, as in a preview) is
     * held while the pass is unknown, then shown in a preview and dropped in an update, even when that check or diff
     * was still running as another resource's call told the pass.
     */
    line(text: string): void {
        const running = this.running.getStore();
        if (running === undefined || !running.planning || !this.holding || this.pass === "preview") return this.print(text);
        if (this.pass === "update") return;
        const lines = this.held.get(running.urn) ?? [];
        lines.push(text);
        this.held.set(running.urn, lines);
    }

    /** The engine's Create or Update of `urn`, with its preview flag: the pass is known, the held lines shown or dropped. */
    applying(urn: string, preview: boolean): void {
        this.pass = preview ? "preview" : "update";
        if (preview) {
            this.release(urn);
            for (const other of [...this.held.keys()]) this.release(other);
        }
        this.held.clear();
    }

    /** Nothing will follow for `urn` (no change, a failure): its held lines are shown now. */
    release(urn: string): void {
        for (const line of this.held.get(urn) ?? []) this.print(line);
        this.held.delete(urn);
    }
}

/** The engine calls no Create or Update in a preview when PULUMI_DISABLE_PROVIDER_PREVIEW is set (as its env reads it). */
export function providerPreviewDisabled(env: NodeJS.ProcessEnv): boolean {
    return /^(1|true)$/i.test(env.PULUMI_DISABLE_PROVIDER_PREVIEW ?? "");
}
