// The cluster management API (Spring Boot actuator endpoint `cluster`) under a configurable base
// path. Request binding follows springConventions.ts; planning, validation and execution follow
// planner.ts and cluster.ts. Every request is "sent to the coordinator" (the lowest member id, or
// for force requests the lowest retained broker): when that broker is not running the gateway
// cannot reach it and answers 502, as the reference does.

import { Cluster } from "./cluster";
import { activeMemberIds, lowestMemberId, Operation, RoutingState } from "./clusterState";
import { Call, Reply, jsonReply, textReply } from "./httpServer";
import { plannedOperationsJson, topologyJson } from "./managementJson";
import { PlanOutcome, planAddMembers, planForceRetain, planPurge, planRemoveMembers, planRoutingState, planScale } from "./planner";
import { Release, Settings } from "./settings";
import {
    BindingError,
    booleanParam,
    decodePathSegment,
    intPathVariable,
    isJsonContent,
    jsonBody,
    jsonInt,
    optionalIntParam,
    optionalJsonInt,
    optionalJsonIntList,
    springError,
} from "./springConventions";

export const DEFAULT_BASE_PATH = "/actuator/cluster";

/** Broker counts above this are refused instead of planned (the reference states no maximum). */
const MAX_BROKER_COUNT = 65536;

const CHANGES_NOT_SUPPORTED = "Changing cluster directly is not supported. Use POST /cluster/brokers for scaling the cluster";

type Resource = "brokers" | "partitions" | "changes";

export interface ManagementDeps {
    cluster: Cluster;
    settings: () => Settings;
    basePath: string;
}

function message(status: number, text: string): Reply {
    return jsonReply(status, { message: text });
}

function parseResource(segment: string): Resource {
    const value = decodePathSegment(segment);
    if (value === "brokers" || value === "partitions" || value === "changes") return value;
    throw new BindingError(`unknown resource ${value}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
    return typeof value === "object" && value !== null && !Array.isArray(value);
}

function optionalObject(value: unknown): Record<string, unknown> | undefined {
    if (value === undefined || value === null) return undefined;
    if (!isObject(value)) throw new BindingError("JSON value is not an object");
    return value;
}

export function createManagementApi(deps: ManagementDeps): (call: Call) => Reply {
    const endpoint = new ClusterEndpoint(deps);
    return (call) => {
        try {
            return endpoint.route(call);
        } catch (error) {
            if (error instanceof BindingError) return springError(400, call.path);
            throw error;
        }
    };
}

class ClusterEndpoint {
    constructor(private readonly deps: ManagementDeps) {}

    private get cluster(): Cluster {
        return this.deps.cluster;
    }

    route(call: Call): Reply {
        const base = this.deps.basePath;
        const patchSupported = this.deps.settings().patchSupported;
        if (call.path === base) {
            if (call.method === "GET") return this.getTopology();
            if (call.method === "PATCH" && patchSupported) return this.patch(call);
            return springError(405, call.path, { allow: patchSupported ? "GET, PATCH" : "GET" });
        }
        if (!call.path.startsWith(`${base}/`)) return springError(404, call.path);
        const segments = call.path.slice(base.length + 1).split("/");
        if (segments.some((s) => s === "")) return springError(404, call.path);

        if (segments.length === 1 && segments[0] === "purge") {
            if (call.method !== "POST") return springError(405, call.path, { allow: "POST" });
            return this.unreachable(this.defaultCoordinator()) ?? this.respond(planPurge(this.cluster.config), booleanParam(call.query, "dryRun"));
        }
        if (segments.length === 1 && segments[0] === "routing-state") {
            if (call.method !== "PATCH") return springError(405, call.path, { allow: "PATCH" });
            return this.routingState(call);
        }
        if (segments.length === 1) {
            if (call.method !== "POST") return springError(405, call.path, { allow: "POST" });
            if (!isJsonContent(call)) return springError(415, call.path);
            return this.scale(call, parseResource(segments[0]));
        }
        if (segments.length === 2) {
            if (call.method === "POST") return this.postMember(call, parseResource(segments[0]), segments[1]);
            if (call.method === "DELETE") return this.deleteMember(call, parseResource(segments[0]), segments[1]);
            return springError(405, call.path, { allow: "POST, DELETE" });
        }
        if (segments.length === 4) {
            if (call.method !== "POST" && call.method !== "DELETE") return springError(405, call.path, { allow: "POST, DELETE" });
            if (!isJsonContent(call)) return springError(415, call.path);
            return this.partitionMember(call, segments);
        }
        return springError(404, call.path);
    }

    private get release(): Release {
        return this.deps.settings().release;
    }

    private defaultCoordinator(): number {
        return lowestMemberId(activeMemberIds(this.cluster.config)) ?? 0;
    }

    /** The 502 a gateway gives when the broker it must send the request to is down. */
    private unreachable(coordinator: number): Reply | undefined {
        if (this.cluster.isRunning(coordinator)) return undefined;
        return message(502, `java.net.ConnectException: Failed to send the request to broker ${coordinator}: connection refused`);
    }

    private getTopology(): Reply {
        return this.unreachable(this.defaultCoordinator()) ?? jsonReply(200, topologyJson(this.cluster.config, this.release));
    }

    private respond(outcome: PlanOutcome, dryRun: boolean): Reply {
        if ("error" in outcome) return message(outcome.error.status, outcome.error.message);
        return this.submit(outcome.operations, dryRun);
    }

    private submit(operations: Operation[], dryRun: boolean): Reply {
        const submitted = this.cluster.submit(operations, dryRun);
        if ("error" in submitted) return message(submitted.error.status, submitted.error.message);
        const { changeId, current, expected } = submitted.accepted;
        return jsonReply(202, plannedOperationsJson(changeId, current, submitted.accepted.operations, expected));
    }

    /** POST {base}/{resource} with a JSON array of broker ids. */
    private scale(call: Call, resource: Resource): Reply {
        const body = jsonBody(call);
        if (!Array.isArray(body)) throw new BindingError("body is not a JSON array");
        const ids = body.map(jsonInt);
        const dryRun = booleanParam(call.query, "dryRun");
        const force = booleanParam(call.query, "force");
        const replicationFactor = optionalIntParam(call.query, "replicationFactor");
        if (resource === "partitions") return textReply(501, "Scaling partitions is not supported");
        if (resource === "changes") return textReply(501, CHANGES_NOT_SUPPORTED);

        if (force) {
            const coordinator = lowestMemberId(ids) ?? this.defaultCoordinator();
            const down = this.unreachable(coordinator);
            if (down) return down;
            if (replicationFactor !== undefined) {
                return message(
                    400,
                    `The replication factor cannot be changed to requested value '${replicationFactor}' during force scale down. It will be automatically changed based on which brokers are removed. Do not provide any replication factor in the request`,
                );
            }
            return this.respond(planForceRetain(this.cluster.config, ids, coordinator), dryRun);
        }
        return (
            this.unreachable(this.defaultCoordinator()) ??
            this.respond(planScale(this.cluster.config, ids, { replicationFactor, release: this.release }), dryRun)
        );
    }

    /** POST {base}/{resource}/{id}. */
    private postMember(call: Call, resource: Resource, idSegment: string): Reply {
        const id = intPathVariable(idSegment);
        const dryRun = booleanParam(call.query, "dryRun");
        if (resource === "partitions") return textReply(501, "Adding partitions is not supported");
        if (resource === "changes") return textReply(501, CHANGES_NOT_SUPPORTED);
        return this.unreachable(this.defaultCoordinator()) ?? this.respond(planAddMembers(this.cluster.config, [id]), dryRun);
    }

    /** DELETE {base}/{resource}/{id}: remove a broker, or cancel a change. */
    private deleteMember(call: Call, resource: Resource, idSegment: string): Reply {
        const id = decodePathSegment(idSegment);
        const dryRun = booleanParam(call.query, "dryRun");
        if (resource === "partitions") return textReply(501, "Removing partitions is not supported");
        if (resource === "changes") {
            if (dryRun) return textReply(501, "Dry run is not supported for cancelling changes");
            if (!/^[+-]?\d+$/.test(id) || !Number.isSafeInteger(Number(id))) return message(400, "Change id must be a number");
            const down = this.unreachable(this.defaultCoordinator());
            if (down) return down;
            const outcome = this.cluster.cancel(Number(id));
            if ("error" in outcome) return message(outcome.error.status, outcome.error.message);
            return jsonReply(200, topologyJson(outcome.cancelled, this.release));
        }
        // The id is bound as a string: anything that is not a member's id is silently dropped.
        const memberIds = /^(0|[1-9]\d*)$/.test(id) ? [Number(id)] : [];
        return this.unreachable(this.defaultCoordinator()) ?? this.respond(planRemoveMembers(this.cluster.config, memberIds), dryRun);
    }

    /** POST / DELETE {base}/brokers/{b}/partitions/{p} and the mirror {base}/partitions/{p}/brokers/{b}. */
    private partitionMember(call: Call, segments: string[]): Reply {
        const outer = parseResource(segments[0]);
        const outerId = intPathVariable(segments[1]);
        const inner = parseResource(segments[2]);
        const innerId = intPathVariable(segments[3]);
        let brokerId: number;
        let partitionId: number;
        if (outer === "brokers" && inner === "partitions") {
            [brokerId, partitionId] = [outerId, innerId];
        } else if (outer === "partitions" && inner === "brokers") {
            [brokerId, partitionId] = [innerId, outerId];
        } else {
            return { status: 404 };
        }
        const dryRun = booleanParam(call.query, "dryRun");
        let operation: Operation;
        if (call.method === "POST") {
            const body = jsonBody(call);
            if (!isObject(body)) throw new BindingError("body is not a JSON object");
            operation = { kind: "PARTITION_JOIN", brokerId, partitionId, priority: jsonInt(body.priority) };
        } else {
            operation = { kind: "PARTITION_LEAVE", brokerId, partitionId };
        }
        return this.unreachable(this.defaultCoordinator()) ?? this.submit([operation], dryRun);
    }

    /** PATCH {base}/routing-state: the routing state in the body, or without a body the engine's own (kept as it is). */
    private routingState(call: Call): Reply {
        const withBody = call.body.toString("utf8").trim() !== "";
        if (withBody && !isJsonContent(call)) return springError(415, call.path);
        const routing = withBody ? routingStateBody(call) : undefined;
        const coordinator = this.defaultCoordinator();
        return this.unreachable(coordinator) ?? this.respond(planRoutingState(coordinator, routing), booleanParam(call.query, "dryRun"));
    }

    /** PATCH {base}: brokers add/remove/count, partitions count/replicationFactor, dryRun, force. */
    private patch(call: Call): Reply {
        if (!isJsonContent(call)) return springError(415, call.path);
        const body = jsonBody(call);
        if (!isObject(body)) throw new BindingError("body is not a JSON object");
        const brokers = optionalObject(body.brokers);
        const partitions = optionalObject(body.partitions);
        const add = optionalJsonIntList(brokers?.add) ?? [];
        const remove = optionalJsonIntList(brokers?.remove) ?? [];
        const brokerCount = optionalJsonInt(brokers?.count);
        const partitionCount = optionalJsonInt(partitions?.count);
        const replicationFactor = optionalJsonInt(partitions?.replicationFactor);
        const dryRun = booleanParam(call.query, "dryRun");
        const force = booleanParam(call.query, "force");
        const config = this.cluster.config;

        if (force) {
            if (!brokers) return message(400, "Must provide a set of brokers to force remove.");
            if (brokerCount !== undefined) return message(400, "Cannot force change the broker count.");
            if (add.length > 0) return message(400, "Cannot force add brokers");
            if (partitionCount !== undefined) return message(400, "Cannot force change the partition count.");
            if (replicationFactor !== undefined) return message(400, "Cannot force change the replication factor.");
            if (remove.length === 0) return message(400, "Must provide a set of brokers to force remove.");
            const retain = activeMemberIds(config).filter((id) => !remove.includes(id));
            const coordinator = lowestMemberId(retain) ?? this.defaultCoordinator();
            return this.unreachable(coordinator) ?? this.respond(planForceRetain(config, retain, coordinator), dryRun);
        }

        if (brokerCount !== undefined && (add.length > 0 || remove.length > 0)) {
            return message(
                400,
                "Cannot change brokers count and add/remove brokers at the same time. Specify either the new brokers count or brokers to add and remove.",
            );
        }
        const down = this.unreachable(this.defaultCoordinator());
        if (down) return down;
        if (partitionCount !== undefined && !this.deps.settings().partitionScaling) {
            return message(500, "java.lang.UnsupportedOperationException: Partition scaling is not enabled.");
        }
        const options = { replicationFactor, partitionCount, release: this.release };
        if (brokerCount !== undefined) {
            if (brokerCount > MAX_BROKER_COUNT) {
                return message(400, `Number of brokers [${brokerCount}] exceeds what the emulator supports [${MAX_BROKER_COUNT}]`);
            }
            const target = Array.from({ length: Math.max(0, brokerCount) }, (_, i) => i);
            return this.respond(planScale(config, target, options), dryRun);
        }
        if (add.some((id) => remove.includes(id))) {
            return message(400, "java.lang.IllegalArgumentException: Cannot add and remove the same member in the same request");
        }
        const target = new Set(activeMemberIds(config));
        for (const id of add) target.add(id);
        for (const id of remove) target.delete(id);
        return this.respond(planScale(config, target, options), dryRun);
    }
}

/** A RoutingState body as Jackson binds it: the two request-handling strategies and HashMod correlation, or a 400. */
function routingStateBody(call: Call): RoutingState {
    const body = jsonBody(call);
    if (!isObject(body)) throw new BindingError("body is not a JSON object");
    const handling = optionalObject(body.requestHandling);
    const correlation = optionalObject(body.messageCorrelation);
    if (!handling || !correlation || correlation.strategy !== "HashMod") throw new BindingError("routing state without request handling or correlation");
    const version = optionalJsonInt(body.version) ?? 0;
    const messageCorrelationPartitionCount = jsonInt(correlation.partitionCount);
    if (handling.strategy === "AllPartitions") {
        return { version, requestHandling: { strategy: "AllPartitions", partitionCount: jsonInt(handling.partitionCount) }, messageCorrelationPartitionCount };
    }
    if (handling.strategy === "ActivePartitions") {
        return {
            version,
            requestHandling: {
                strategy: "ActivePartitions",
                basePartitionCount: jsonInt(handling.basePartitionCount),
                additionalActivePartitions: optionalJsonIntList(handling.additionalActivePartitions) ?? [],
                inactivePartitions: optionalJsonIntList(handling.inactivePartitions) ?? [],
            },
            messageCorrelationPartitionCount,
        };
    }
    throw new BindingError("unknown request handling strategy");
}
