// The gateway's REST topology endpoint, GET /v2/topology (also /v1/topology), derived from the
// cluster configuration and the set of running brokers, as the 8.8 gateway reports it from gossip.

import { Cluster } from "./cluster";
import { ClusterConfiguration, activeMemberIds, minReplicationFactor, partitionIds } from "./clusterState";
import { Call, Reply, jsonReply } from "./httpServer";

export const BROKER_VERSION = "8.8.0";
/** Fake command-API port of broker n: 26501 + n. */
export const BROKER_PORT_BASE = 26501;

interface PartitionRole {
    partitionId: number;
    role: "leader" | "follower";
    health: "healthy";
}

/**
 * The leader of a partition is its highest-priority ACTIVE replica on a running broker (lowest id
 * on ties); real leadership is raft-elected and only tends toward that order.
 */
function leaders(config: ClusterConfiguration, isRunning: (id: number) => boolean): Map<number, number> {
    const best = new Map<number, { brokerId: number; priority: number }>();
    for (const [brokerId, member] of [...config.members].sort(([a], [b]) => a - b)) {
        if (member.status === "LEFT" || !isRunning(brokerId)) continue;
        for (const [partitionId, partition] of member.partitions) {
            if (partition.status !== "ACTIVE") continue;
            const current = best.get(partitionId);
            if (!current || partition.priority > current.priority) best.set(partitionId, { brokerId, priority: partition.priority });
        }
    }
    return new Map([...best].map(([partitionId, { brokerId }]) => [partitionId, brokerId]));
}

export function topologyResponse(cluster: Cluster): object {
    const config = cluster.config;
    const isRunning = (id: number): boolean => cluster.isRunning(id);
    const leaderOf = leaders(config, isRunning);
    const brokers = cluster.runningBrokers().map((nodeId) => {
        const member = config.members.get(nodeId);
        const partitions: PartitionRole[] =
            member && member.status !== "LEFT"
                ? [...member.partitions.keys()]
                      .sort((a, b) => a - b)
                      .map((partitionId) => ({
                          partitionId,
                          role: leaderOf.get(partitionId) === nodeId ? "leader" : "follower",
                          health: "healthy",
                      }))
                : [];
        return { nodeId, host: "127.0.0.1", port: BROKER_PORT_BASE + nodeId, partitions, version: BROKER_VERSION };
    });
    return {
        brokers,
        clusterSize: activeMemberIds(config).length,
        partitionsCount: partitionIds(config).length,
        replicationFactor: minReplicationFactor(config),
        gatewayVersion: BROKER_VERSION,
        lastCompletedChangeId: String(config.lastChange?.id ?? -1),
    };
}

export function createGatewayApi(cluster: Cluster): (call: Call) => Reply {
    return (call) => {
        if (call.path !== "/v2/topology" && call.path !== "/v1/topology") {
            return jsonReply(404, { type: "about:blank", title: "Not Found", status: 404, detail: `No endpoint ${call.path}` });
        }
        if (call.method !== "GET") {
            return jsonReply(405, { type: "about:blank", title: "Method Not Allowed", status: 405 }, { allow: "GET" });
        }
        return jsonReply(200, topologyResponse(cluster));
    };
}
