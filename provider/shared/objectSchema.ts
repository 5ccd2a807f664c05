// An input that is an object of known fields, checked by a zod schema: absent, not known yet (passed through), not
// an object or with a stranger field (objectInput's failures), or each zod issue as a failure naming the field.
// Field problems are worded by `reasons` (a value is never echoed: these inputs hold secrets and PEM text);
// refinements word their own and name their field by their path.

import type { z } from "zod";
import { objectInput } from "./objectInput";

export type ObjectCheck<T> = { kind: "absent" } | { kind: "unknown" } | { kind: "invalid" } | { kind: "valid"; value: T };

export interface ObjectSchemaOptions {
    /** What the object holds, for "must be an object with …". */
    shape: string;
    /** The reason of a field's type or format problem, by field. */
    reasons: Record<string, string>;
}

export function checkObjectInput<S extends z.ZodObject>(
    value: unknown,
    property: string,
    schema: S,
    options: ObjectSchemaOptions,
    fail: (property: string, reason: string) => void,
): ObjectCheck<z.output<S>> {
    const input = objectInput(value, property, Object.keys(schema.shape), options.shape, fail);
    if (input.kind !== "object") return input;
    const result = schema.safeParse(input.fields);
    if (result.success) return { kind: "valid", value: result.data };
    for (const issue of result.error.issues) {
        const field = issue.path[0] === undefined ? undefined : String(issue.path[0]);
        const where = field === undefined ? property : `${property}.${field}`;
        fail(where, issue.code === "custom" || field === undefined ? issue.message : (options.reasons[field] ?? `${where} is not valid`));
    }
    return { kind: "invalid" };
}
