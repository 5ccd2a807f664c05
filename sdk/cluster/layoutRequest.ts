// The wire form of a layout change. Broker-only and replication-factor changes are POST {basePath}/brokers, which
// every release since 8.4 understands; a change that adds partitions is PATCH {basePath} (8.8 and later). A server
// that answers PATCH with 405 predates it: the layout is then sent as POST /brokers, which cannot add partitions.

import { PlatformError } from "../errors";

/** Body of PATCH {basePath}. */
export interface ClusterPatch {
    brokers?: { add?: number[]; remove?: number[]; count?: number };
    partitions?: { count?: number; replicationFactor?: number };
}

/** A cluster layout: the brokers that form it, and optionally its partition count and replication factor. */
export interface Layout {
    brokers: readonly number[];
    partitionCount?: number;
    replicationFactor?: number;
    /** Remove the brokers left out without moving their partitions (they are unreachable). Names no replication factor: the server refuses one. */
    force?: boolean;
}

/** What a layout request is built against: the cluster's members and partition count. */
export interface LiveLayout {
    members: readonly number[];
    partitionCount: number;
}

export type LayoutRequest = { method: "POST"; brokers: number[]; replicationFactor?: number; force: boolean } | { method: "PATCH"; patch: ClusterPatch };

/**
 * The request that brings `live` to `layout`. Without `live`, partitions are assumed not to grow (a dry run's
 * answer tells). `patch: false` when the server has no PATCH.
 */
export function layoutRequest(layout: Layout, live: LiveLayout | undefined, options: { patch?: boolean } = {}): LayoutRequest {
    const force = layout.force === true;
    const grows = options.patch !== false && layout.partitionCount !== undefined && live !== undefined && layout.partitionCount > live.partitionCount;
    if (!grows || force || live === undefined) {
        const request: LayoutRequest = { method: "POST", brokers: [...layout.brokers], force };
        if (layout.replicationFactor !== undefined && !force) request.replicationFactor = layout.replicationFactor;
        return request;
    }
    const add = layout.brokers.filter((id) => !live.members.includes(id));
    const remove = live.members.filter((id) => !layout.brokers.includes(id));
    const partitions: NonNullable<ClusterPatch["partitions"]> = { count: layout.partitionCount };
    if (layout.replicationFactor !== undefined) partitions.replicationFactor = layout.replicationFactor;
    return { method: "PATCH", patch: { brokers: { add, remove }, partitions } };
}

/** The request as one short line: `POST /brokers [0,1,2,3] ?replicationFactor=3`. */
export function describeLayoutRequest(request: LayoutRequest): string {
    if (request.method === "POST") {
        const query = [request.force ? "force=true" : "", request.replicationFactor !== undefined ? `replicationFactor=${request.replicationFactor}` : ""]
            .filter((part) => part !== "")
            .join("&");
        return `POST /brokers [${request.brokers.join(",")}]${query === "" ? "" : ` ?${query}`}`;
    }
    return `PATCH ${JSON.stringify(request.patch)}`;
}

/** Whether two requests ask the same (broker lists compared as sets). */
export function sameLayoutRequest(a: LayoutRequest, b: LayoutRequest): boolean {
    return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/** The setting of the layout a refusal is about, from the server's message. */
export type LayoutField = "brokers" | "partitionCount" | "replicationFactor";

export interface LayoutRefusal {
    field: LayoutField;
    /** The brokers have partition scaling switched off (a PATCH that adds partitions was refused for it). */
    partitionScalingOff: boolean;
}

/**
 * Which layout setting the server's refusal of a layout request names (400 and other refusals with a message). The
 * error says which request was refused: after a PATCH answered 405, planLayout's refusal is the fallback POST's.
 */
export function layoutRefusal(error: PlatformError): LayoutRefusal {
    const said = error.serverMessage ?? "";
    const patch = error.request?.method === "PATCH";
    const partitionScalingOff = patch && /partition scaling is not enabled/i.test(said);
    const field: LayoutField =
        partitionScalingOff || (patch && /partition count/i.test(said)) ? "partitionCount" : /replication factor/i.test(said) ? "replicationFactor" : "brokers";
    return { field, partitionScalingOff };
}

function canonical(request: LayoutRequest): unknown {
    if (request.method === "POST") return { ...request, brokers: [...request.brokers].sort((x, y) => x - y) };
    const sorted = (ids: number[] | undefined) => [...(ids ?? [])].sort((x, y) => x - y);
    const { brokers, partitions } = request.patch;
    return { method: "PATCH", add: sorted(brokers?.add), remove: sorted(brokers?.remove), count: partitions?.count, rf: partitions?.replicationFactor };
}
