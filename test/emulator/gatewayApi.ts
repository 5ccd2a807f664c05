// The gateway's REST topology endpoint, GET /v2/topology (also /v1/topology), derived from the cluster
// configuration and the set of running brokers, as the gateway reports it from gossip:
// - only running brokers are listed (a stopped broker leaves the membership);
// - a partition's replica is the leader when it is the highest-priority ACTIVE replica on a running broker and the
//   partition has a quorum (a majority of its voting replicas runs); a replica that is still joining (or a new
//   partition's, still bootstrapping) is inactive;
// - health is healthy, unhealthy for a replica that is not installed yet or whose partition lost its quorum, and dead
//   where the control API marks a replica so (a partition that failed on that broker);
// - lastCompletedChangeId is the id of the configuration's last change, "-1" before any (BrokerClusterStateImpl
//   starts from NO_COMPLETED_LAST_CHANGE_ID = -1); 8.9 adds the cluster id, always present (a string, or null).

import { Cluster } from "./cluster";
import { ClusterConfiguration, activeMemberIds, minReplicationFactor, partitionIds } from "./clusterState";
import { Call, Reply, jsonReply } from "./httpServer";
import { Release, Settings } from "./settings";

/** The software version the brokers and the gateway report, per release line. */
export const BROKER_VERSIONS: Record<Release, string> = { "8.8": "8.8.0", "8.9": "8.9.16" };
/** Fake command-API port of broker n: 26501 + n. */
export const BROKER_PORT_BASE = 26501;

export type PartitionRole = "leader" | "follower" | "inactive";
export const PARTITION_HEALTH = ["healthy", "unhealthy", "dead"] as const;
export type PartitionHealth = (typeof PARTITION_HEALTH)[number];

interface PartitionJson {
    partitionId: number;
    role: PartitionRole;
    health: PartitionHealth;
}

/** What each partition looks like to the gateway: its leader, if it has one, and whether it keeps a quorum. */
interface PartitionView {
    leader?: number;
    quorum: boolean;
}

function partitionViews(config: ClusterConfiguration, isRunning: (id: number) => boolean): Map<number, PartitionView> {
    const voters = new Map<number, { total: number; running: number; best?: { brokerId: number; priority: number } }>();
    for (const [brokerId, member] of [...config.members].sort(([a], [b]) => a - b)) {
        if (member.status === "LEFT") continue;
        for (const [partitionId, partition] of member.partitions) {
            if (partition.status !== "ACTIVE" && partition.status !== "LEAVING") continue;
            const view = voters.get(partitionId) ?? { total: 0, running: 0 };
            view.total += 1;
            if (isRunning(brokerId)) {
                view.running += 1;
                if (partition.status === "ACTIVE" && (!view.best || partition.priority > view.best.priority))
                    view.best = { brokerId, priority: partition.priority };
            }
            voters.set(partitionId, view);
        }
    }
    const views = new Map<number, PartitionView>();
    for (const [partitionId, view] of voters) {
        const quorum = view.running > view.total / 2;
        views.set(partitionId, { quorum, ...(quorum && view.best ? { leader: view.best.brokerId } : {}) });
    }
    return views;
}

export function topologyResponse(cluster: Cluster, release: Release): object {
    const config = cluster.config;
    const views = partitionViews(config, (id) => cluster.isRunning(id));
    const version = BROKER_VERSIONS[release];
    const brokers = cluster.runningBrokers().map((nodeId) => {
        const member = config.members.get(nodeId);
        const partitions: PartitionJson[] =
            member && member.status !== "LEFT"
                ? [...member.partitions.entries()]
                      .sort(([a], [b]) => a - b)
                      .map(([partitionId, partition]) => {
                          const view = views.get(partitionId);
                          const installed = partition.status === "ACTIVE" || partition.status === "LEAVING";
                          const role: PartitionRole = !installed ? "inactive" : view?.leader === nodeId ? "leader" : "follower";
                          const health: PartitionHealth = cluster.partitionHealth(nodeId, partitionId) ?? (installed && view?.quorum ? "healthy" : "unhealthy");
                          return { partitionId, role, health };
                      })
                : [];
        return { nodeId, host: "127.0.0.1", port: BROKER_PORT_BASE + nodeId, partitions, version };
    });
    return {
        brokers,
        ...(release === "8.9" && { clusterId: config.clusterId }),
        clusterSize: activeMemberIds(config).length,
        partitionsCount: partitionIds(config).length,
        replicationFactor: minReplicationFactor(config),
        gatewayVersion: version,
        lastCompletedChangeId: String(config.lastChange?.id ?? -1),
    };
}

export function createGatewayApi(cluster: Cluster, settings: () => Settings): (call: Call) => Reply {
    return (call) => {
        if (call.path !== "/v2/topology" && call.path !== "/v1/topology") {
            return jsonReply(404, { type: "about:blank", title: "Not Found", status: 404, detail: `No endpoint ${call.path}` });
        }
        if (call.method !== "GET") {
            return jsonReply(405, { type: "about:blank", title: "Method Not Allowed", status: 405 }, { allow: "GET" });
        }
        return jsonReply(200, topologyResponse(cluster, settings().release));
    };
}
