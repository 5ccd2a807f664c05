// The figures a benchmark run produces, each with its unit, its target (if it has one) and whether the
// target was met; the JSON document that holds them; and the table printed for people.

export type Comparison = "<=" | "==" | ">=";

export interface Target {
    op: Comparison;
    value: number;
}

export interface Figure {
    /** Stable key for comparing runs across commits, e.g. "completionLag.sdk.medianMs[5ops x 50ms]". */
    id: string;
    /** Which benchmark produced it. */
    section: SectionName;
    /** What it is, for the table. */
    label: string;
    value: number;
    unit: string;
    target: Target | null;
    /** null when the figure has no target (it is reported for comparison only). */
    met: boolean | null;
    /** How many measurements the value summarises, when more than one. */
    samples?: number;
}

export type SectionName =
    | "previewCost"
    | "completionLag"
    | "tokens"
    | "scale"
    | "coldStart"
    | "state"
    | "rolloutLag"
    | "organization"
    | "soak"
    | "organizationSoak"
    | "languagePreview"
    | "fleet"
    | "pluginPackaging"
    | "policyPackPreview";

export const SECTION_TITLES: Record<SectionName, string> = {
    previewCost: "1. Preview cost (ClusterScale diff)",
    completionLag: "2. Completion-detection lag",
    tokens: "3. Tokens",
    scale: "4. Scale: decoding large answers",
    coldStart: "5. Host cold start",
    state: "6. State size and host memory",
    rolloutLag: "7. Kubernetes: pods and layout change in order",
    organization: "8. Organization as code",
    soak: "9. Soak: random layouts and faults",
    organizationSoak: "10. Soak: the organization under random programs and faults",
    languagePreview: "11. One preview from TypeScript and from Python (the provider plugin), under the real CLI",
    fleet: "12. A fleet: stacks side by side through the Automation API under the real CLI",
    pluginPackaging: "13. The plugin as a release ships it: its archive against the node-free one (size, start to port)",
    policyPackPreview: "14. What the policy pack adds to a preview, under the real CLI",
};

/** What one benchmark section returns. */
export interface SectionResult {
    figures: Figure[];
    /** Raw per-case measurements, kept in the JSON for whoever wants to look closer. */
    details: Record<string, unknown>;
}

export interface BenchDocument {
    format: "pulumi-platform-bench/1";
    startedAt: string;
    durationMs: number;
    commit: { id: string | null; dirty: boolean | null };
    machine: { cpus: number; cpuModel: string; memoryMB: number; node: string; platform: string; loadAverageAtStart: number[] };
    options: Record<string, unknown>;
    figures: Figure[];
    targets: { total: number; met: number; notMet: string[] };
    /** Sections (or parts) that did not run, with the reason; `failed` when an error stopped them. */
    skipped: { section: SectionName; reason: string; failed: boolean }[];
    details: Partial<Record<SectionName, Record<string, unknown>>>;
}

export function meets(value: number, target: Target): boolean {
    switch (target.op) {
        case "<=":
            return value <= target.value;
        case ">=":
            return value >= target.value;
        case "==":
            return value === target.value;
    }
}

/** Builds a figure; `met` follows from the value and the target. */
export function figure(section: SectionName, id: string, label: string, value: number, unit: string, target: Target | null = null, samples?: number): Figure {
    const result: Figure = { id: `${section}.${id}`, section, label, value, unit, target, met: target === null ? null : meets(value, target) };
    if (samples !== undefined) result.samples = samples;
    return result;
}

export function summarizeTargets(figures: readonly Figure[]): BenchDocument["targets"] {
    const withTarget = figures.filter((f) => f.met !== null);
    return {
        total: withTarget.length,
        met: withTarget.filter((f) => f.met).length,
        notMet: withTarget.filter((f) => f.met === false).map((f) => f.id),
    };
}

export function formatTarget(target: Target | null): string {
    if (target === null) return "";
    const symbol = target.op === "<=" ? "≤" : target.op === ">=" ? "≥" : "=";
    return `${symbol} ${target.value}`;
}

function formatValue(f: Figure): string {
    const digits = Math.abs(f.value) >= 100 || Number.isInteger(f.value) ? 0 : Math.abs(f.value) >= 10 ? 1 : 2;
    return `${f.value.toFixed(digits)} ${f.unit}`;
}

/** The human-readable table: one block per section, one row per figure. */
export function renderTable(document: BenchDocument): string {
    const rows: string[][] = [];
    const sections = Object.keys(SECTION_TITLES) as SectionName[];
    for (const section of sections) {
        const figures = document.figures.filter((f) => f.section === section);
        const skipped = document.skipped.filter((s) => s.section === section);
        if (figures.length === 0 && skipped.length === 0) continue;
        rows.push([SECTION_TITLES[section], "", "", ""]);
        for (const f of figures) {
            const verdict = f.met === null ? "" : f.met ? "met" : "NOT MET";
            rows.push([`  ${f.label}`, formatValue(f), f.target === null ? "" : `${formatTarget(f.target)} ${f.unit}`, verdict]);
        }
        for (const s of skipped) rows.push([`  ${s.failed ? "FAILED" : "skipped"}: ${s.reason}`, "", "", ""]);
    }
    const header = ["figure", "value", "target", ""];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.filter((r) => r[1] !== "" || r[2] !== "").map((r) => r[i].length)));
    const line = (cells: string[]) =>
        cells
            .map((cell, i) => (i === 1 ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
            .join("  ")
            .trimEnd();
    const out = [line(header), widths.map((w) => "-".repeat(w)).join("  ")];
    for (const row of rows) out.push(row[1] === "" && row[2] === "" ? row[0] : line(row));
    const { total, met } = document.targets;
    out.push("", `targets met: ${met} of ${total}${document.targets.notMet.length ? ` (not met: ${document.targets.notMet.join(", ")})` : ""}`);
    return out.join("\n");
}
