// How the reference's web framework (Spring Boot) treats requests before they reach the cluster
// endpoint: its default error body, its conversion of query parameters, path variables and JSON
// values, and its content-type matching.

import { STATUS_CODES } from "node:http";
import { Call, Reply, jsonReply } from "./httpServer";

/** Spring Boot's default error rendering: {"timestamp","status","error","path"}. */
export function springError(status: number, path: string, headers: Record<string, string> = {}): Reply {
    return jsonReply(status, { timestamp: new Date().toISOString().replace("Z", "+00:00"), status, error: STATUS_CODES[status] ?? "Error", path }, headers);
}

/** Thrown while binding a request; answered with Spring's default 400 body. */
export class BindingError extends Error {}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

function parseInt32(text: string): number | undefined {
    if (!/^[+-]?\d+$/.test(text)) return undefined;
    const value = Number(text);
    return value >= INT32_MIN && value <= INT32_MAX ? value : undefined;
}

/** A boolean query parameter with default false, converted as Spring converts it. */
export function booleanParam(query: URLSearchParams, name: string): boolean {
    const values = query.getAll(name);
    if (values.length === 0) return false;
    if (values.length > 1) throw new BindingError(`parameter ${name} given more than once`);
    const text = values[0].trim().toLowerCase();
    if (text === "") return false;
    if (["true", "on", "yes", "1"].includes(text)) return true;
    if (["false", "off", "no", "0"].includes(text)) return false;
    throw new BindingError(`parameter ${name} is not a boolean`);
}

/** An optional integer query parameter (an empty value counts as absent). */
export function optionalIntParam(query: URLSearchParams, name: string): number | undefined {
    const values = query.getAll(name);
    if (values.length === 0) return undefined;
    if (values.length > 1) throw new BindingError(`parameter ${name} given more than once`);
    const text = values[0].trim();
    if (text === "") return undefined;
    const value = parseInt32(text);
    if (value === undefined) throw new BindingError(`parameter ${name} is not an integer`);
    return value;
}

/** A path segment, percent-decoded. */
export function decodePathSegment(text: string): string {
    try {
        return decodeURIComponent(text);
    } catch {
        throw new BindingError("malformed path segment");
    }
}

/** An int path variable. */
export function intPathVariable(text: string): number {
    const value = parseInt32(decodePathSegment(text));
    if (value === undefined) throw new BindingError("path variable is not an integer");
    return value;
}

/** An integer JSON value as Jackson binds it to Integer: an integral number or a string of digits. */
export function jsonInt(value: unknown): number {
    if (typeof value === "number" && Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX) return value;
    if (typeof value === "string") {
        const parsed = /^-?\d+$/.test(value) ? parseInt32(value) : undefined;
        if (parsed !== undefined) return parsed;
    }
    throw new BindingError("JSON value is not an integer");
}

/** An optional integer JSON field (null counts as absent). */
export function optionalJsonInt(value: unknown): number | undefined {
    return value === undefined || value === null ? undefined : jsonInt(value);
}

/** An optional JSON array of integers (null counts as absent). */
export function optionalJsonIntList(value: unknown): number[] | undefined {
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value)) throw new BindingError("JSON value is not an array");
    return value.map(jsonInt);
}

/** The required JSON body. */
export function jsonBody(call: Call): unknown {
    const text = call.body.toString("utf8");
    if (text.trim() === "") throw new BindingError("required request body is missing");
    try {
        return JSON.parse(text) as unknown;
    } catch {
        throw new BindingError("malformed JSON body");
    }
}

/** Whether the request declares a JSON body (what `consumes = application/json` accepts). */
export function isJsonContent(call: Call): boolean {
    const type = (call.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
    return type === "application/json" || /^application\/[^/]+\+json$/.test(type);
}
