// The gateway's GET /v2/topology checked by a strict client of the newest published REST spec (the 8.9 line:
// TopologyResponse, BrokerInfo and Partition as `zeebe/gateway-protocol/.../v2/cluster.yaml` declares them for 8.9,
// every required field present, no other field, enums closed), before, during and after a change, and on a cluster
// that lost brokers. The 8.8 shape (the emulator's --release 8.8) lacks the cluster id, which this client rejects.

import { strict as assert } from "node:assert";
import { z } from "zod";
import { emulatorApi, http, useEmulator, waitFor } from "./harness";

const partition89 = z.strictObject({
    partitionId: z.number().int(),
    role: z.enum(["leader", "follower", "inactive"]),
    health: z.enum(["healthy", "unhealthy", "dead"]),
});

const broker89 = z.strictObject({
    nodeId: z.number().int(),
    host: z.string(),
    port: z.number().int(),
    partitions: z.array(partition89),
    version: z.string(),
});

const topology89 = z.strictObject({
    brokers: z.array(broker89),
    clusterId: z.string().nullable(),
    clusterSize: z.number().int(),
    partitionsCount: z.number().int(),
    replicationFactor: z.number().int(),
    gatewayVersion: z.string(),
    lastCompletedChangeId: z.string(),
});

describe("emulator: the gateway topology against a strict client of the 8.9 REST spec", () => {
    const emulator = useEmulator();
    const { management, control, reset } = emulatorApi(emulator, { brokers: 3, partitions: 3, replicationFactor: 3, opMs: 20 });

    async function strictTopology(): Promise<z.output<typeof topology89>> {
        const result = await http("GET", `${emulator().gatewayUrl}/v2/topology`, { headers: { accept: "application/json" } });
        assert.equal(result.status, 200, result.text);
        const parsed = topology89.safeParse(result.json);
        assert.ok(parsed.success, `${parsed.error?.message}\n${result.text}`);
        return parsed.data;
    }

    it("validates before a change, while it runs and after it, and on a cluster that lost brokers", async () => {
        await reset();
        const before = await strictTopology();
        assert.equal(before.lastCompletedChangeId, "-1");
        assert.notEqual(before.clusterId, null);

        await http("POST", control("/brokers/3/start"));
        const accepted = await http("POST", management("/brokers"), { body: [0, 1, 2, 3] });
        assert.equal(accepted.status, 202, accepted.text);
        const during = await strictTopology();
        assert.equal(during.lastCompletedChangeId, "-1");
        const after = await waitFor(async () => {
            const topology = await strictTopology();
            return topology.lastCompletedChangeId === String(accepted.json.changeId) ? topology : undefined;
        }, "the change to complete");
        assert.equal(after.clusterSize, 4);
        assert.equal(after.clusterId, before.clusterId);

        await http("POST", control("/brokers/1/stop"));
        await http("POST", control("/brokers/2/stop"));
        const degraded = await strictTopology();
        assert.ok(degraded.brokers.flatMap((broker) => broker.partitions).some((partition) => partition.health === "unhealthy"));
    });

    it("rejects the 8.8 shape: no cluster id", async () => {
        await reset({ release: "8.8" });
        const result = await http("GET", `${emulator().gatewayUrl}/v2/topology`);
        const parsed = topology89.safeParse(result.json);
        assert.ok(!parsed.success);
        assert.deepEqual(
            parsed.error.issues.map((issue) => issue.path.join(".")),
            ["clusterId"],
        );
    });
});
