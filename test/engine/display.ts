// What the CLI shows: a line per resource step, the provider host's output as diagnostics, errors, a summary
// and the stack outputs. Everything shown is also recorded for the library API.
import { HostStream } from "./dynamicHost";
import { describeValue, PropertyMap } from "./propertyValues";
import { isProviderType, urnName } from "./urns";

/**
 * The steps as the engine reports them, one per step it begins (the CLI's resource pre-events): a replacement is
 * three, `create-replacement`, `replace` and `delete-replaced` (delete-before-replace: `delete-replaced` first), a
 * refresh of a resource is `refresh` until it ends (then `update`, `same` or `delete`, or still `refresh` when it
 * failed), and the import option is `import`.
 */
export type StepOp = "create" | "update" | "replace" | "create-replacement" | "delete" | "delete-replaced" | "same" | "refresh" | "import";

export interface StepRecord {
    op: StepOp;
    urn: string;
    type: string;
    name: string;
    preview: boolean;
}

export interface Diagnostic {
    stream: HostStream;
    line: string;
}

const SYMBOLS: Record<StepOp, string> = {
    create: "+",
    update: "~",
    replace: "+-",
    "create-replacement": "++",
    delete: "-",
    "delete-replaced": "--",
    same: "=",
    refresh: "~",
    import: "=",
};

const PAST_TENSE: Record<StepOp, string> = {
    create: "created",
    update: "updated",
    replace: "replaced",
    "create-replacement": "created (replacement)",
    delete: "deleted",
    "delete-replaced": "deleted (replaced)",
    same: "unchanged",
    refresh: "refreshed",
    import: "imported",
};

const COUNTED: StepOp[] = ["create", "update", "replace", "delete", "same"];

export const HOST_PREFIX: Record<HostStream, string> = { stdout: "[host:stdout] ", stderr: "[host:stderr] " };

export class Display {
    readonly steps: StepRecord[] = [];
    readonly diagnostics: Diagnostic[] = [];
    readonly errors: string[] = [];

    constructor(
        private readonly writeOut: (line: string) => void,
        private readonly writeErr: (line: string) => void,
        private readonly preview: boolean,
    ) {}

    header(title: string): void {
        this.writeOut(title);
    }

    step(op: StepOp, urn: string, type: string): void {
        // The CLI does not show default providers among the resources.
        if (isProviderType(type)) return;
        const name = urnName(urn);
        this.steps.push({ op, urn, type, name, preview: this.preview });
        this.writeOut(`${SYMBOLS[op]} ${op} ${type} ${name}${this.preview ? " (preview)" : ""}`);
    }

    diagnostic(stream: HostStream, line: string): void {
        this.diagnostics.push({ stream, line });
        (stream === "stdout" ? this.writeOut : this.writeErr)(`${HOST_PREFIX[stream]}${line}`);
    }

    warning(message: string): void {
        this.writeErr(`warning: ${message}`);
    }

    error(message: string): void {
        this.errors.push(message);
        this.writeErr(`error: ${message}`);
    }

    summary(): void {
        // As the CLI counts: a replacement once (its create and delete steps are parts of it).
        const counts = new Map<StepOp, number>();
        for (const step of this.steps) if (COUNTED.includes(step.op)) counts.set(step.op, (counts.get(step.op) ?? 0) + 1);
        const parts = [...counts].map(([op, count]) => (this.preview && op !== "same" ? `${count} to ${op}` : `${count} ${PAST_TENSE[op]}`));
        this.writeOut(`Resources: ${parts.length > 0 ? parts.join(", ") : "no changes"}`);
    }

    outputs(outputs: PropertyMap): void {
        const entries = Object.entries(outputs);
        if (entries.length === 0) return;
        this.writeOut("Outputs:");
        for (const [key, value] of entries) this.writeOut(`    ${key}: ${describeValue(value)}`);
    }
}
