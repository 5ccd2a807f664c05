// The fields of a StatefulSet Kubernetes cannot update in place (serviceName, podManagementPolicy, selector,
// volumeClaimTemplates): a program that declares another value than the live one makes Pulumi's Kubernetes provider
// plan a replacement. Only what the program declares as plain values is compared (an Output, an unknown or a field left
// out says nothing), and the API server's own forms count as the same (a quantity's "1024Mi" is "1Gi", a
// podManagementPolicy left out is "OrderedReady"), so a difference found here is one the provider sees too.
import type { ClaimTemplateView, StatefulSetView } from "../../sdk/kubernetes/brokerStatefulSet";
import { sameQuantity } from "./quantity";

export interface FixedFieldChange {
    /** The field as a path: `spec.volumeClaimTemplates[data].resources.requests.storage`. */
    field: string;
    live: string;
    declared: string;
    /** For a template's storage: the template's name (its claims are `<name>-<statefulSet>-<ordinal>`). */
    storageOf?: string;
}

/** What the declared StatefulSet (the resource's props) changes of the fields Kubernetes cannot update in place. */
export function fixedFieldChanges(props: unknown, live: StatefulSetView): FixedFieldChange[] {
    const spec = objectAt(props, "spec");
    if (spec === undefined) return [];
    const changes: FixedFieldChange[] = [];
    const serviceName = spec.serviceName;
    if (typeof serviceName === "string" && serviceName !== (live.serviceName ?? "")) {
        changes.push({ field: "spec.serviceName", live: live.serviceName ?? "(none)", declared: serviceName });
    }
    const policy = spec.podManagementPolicy === undefined || spec.podManagementPolicy === null ? "OrderedReady" : spec.podManagementPolicy;
    if (typeof policy === "string" && policy !== live.podManagementPolicy) {
        changes.push({ field: "spec.podManagementPolicy", live: live.podManagementPolicy, declared: policy });
    }
    const matchLabels = stringRecord(objectAt(spec, "selector")?.matchLabels);
    if (matchLabels !== undefined && labelsText(matchLabels) !== labelsText(live.selectorLabels)) {
        changes.push({ field: "spec.selector.matchLabels", live: labelsText(live.selectorLabels), declared: labelsText(matchLabels) });
    }
    if (Array.isArray(spec.volumeClaimTemplates)) changes.push(...templateChanges(spec.volumeClaimTemplates, live.claimTemplateSpecs));
    return changes;
}

function templateChanges(declared: unknown[], live: readonly ClaimTemplateView[]): FixedFieldChange[] {
    const named = new Map<string, Record<string, unknown>>();
    for (const template of declared) {
        const name = objectAt(template, "metadata")?.name;
        if (typeof name !== "string") return [];
        named.set(name, objectAt(template, "spec") ?? {});
    }
    const liveNames = live.map((template) => template.name);
    if ([...named.keys()].sort().join(",") !== [...liveNames].sort().join(",")) {
        return [{ field: "spec.volumeClaimTemplates", live: liveNames.join(", ") || "(none)", declared: [...named.keys()].join(", ") || "(none)" }];
    }
    return live.flatMap((template) => templateFieldChanges(template, named.get(template.name)!));
}

function templateFieldChanges(live: ClaimTemplateView, declared: Record<string, unknown>): FixedFieldChange[] {
    const at = `spec.volumeClaimTemplates[${live.name}]`;
    const changes: FixedFieldChange[] = [];
    const storage = objectAt(objectAt(declared, "resources"), "requests")?.storage;
    if (typeof storage === "string" && (live.storage === undefined || !sameQuantity(storage, live.storage))) {
        changes.push({ field: `${at}.resources.requests.storage`, live: live.storage ?? "(none)", declared: storage, storageOf: live.name });
    }
    const modes = declared.accessModes;
    if (Array.isArray(modes) && modes.every((mode) => typeof mode === "string")) {
        const text = [...modes].sort().join(", ");
        const liveText = [...(live.accessModes ?? [])].sort().join(", ");
        if (text !== liveText) changes.push({ field: `${at}.accessModes`, live: liveText || "(none)", declared: text || "(none)" });
    }
    for (const key of ["storageClassName", "volumeMode"] as const) {
        const value = declared[key];
        if (typeof value === "string" && value !== live[key]) changes.push({ field: `${at}.${key}`, live: live[key] ?? "(none)", declared: value });
    }
    return changes;
}

function objectAt(value: unknown, key: string): Record<string, unknown> | undefined {
    if (typeof value !== "object" || value === null) return undefined;
    const inner = (value as Record<string, unknown>)[key];
    return typeof inner === "object" && inner !== null && !Array.isArray(inner) ? (inner as Record<string, unknown>) : undefined;
}

function stringRecord(value: unknown): Record<string, string> | undefined {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
    const entries = Object.entries(value);
    return entries.every(([, text]) => typeof text === "string") ? Object.fromEntries(entries as [string, string][]) : undefined;
}

function labelsText(labels: Record<string, string>): string {
    return (
        Object.entries(labels)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([key, value]) => `${key}=${value}`)
            .join(",") || "(none)"
    );
}
