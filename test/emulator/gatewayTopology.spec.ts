// GET /v2/topology on the gateway port, before, during and after changes, in the shape of the newest release (8.9: the
// cluster id always present) and of 8.8, with each partition role and health where a real gateway reports it.

import { strict as assert } from "node:assert";
import { Json, emulatorApi, holdStartedOperation, http, useEmulator, waitFor } from "./harness";

describe("emulator: gateway topology", () => {
    const emulator = useEmulator();
    const { management, control, reset } = emulatorApi(emulator, { brokers: 3, partitions: 3, replicationFactor: 3, opMs: 5 });

    async function topology(): Promise<Json> {
        const result = await http("GET", `${emulator().gatewayUrl}/v2/topology`, { headers: { accept: "application/json" } });
        assert.equal(result.status, 200, result.text);
        return result.json;
    }

    function roles(json: Json): string {
        return json.brokers
            .map((b: Json) => `${b.nodeId}:${b.partitions.map((p: Json) => `${p.partitionId}${p.role === "leader" ? "L" : "f"}`).join(",")}`)
            .join(" ");
    }

    async function completion(changeId: number): Promise<void> {
        await waitFor(async () => ((await topology()).lastCompletedChangeId === String(changeId) ? true : undefined), `change ${changeId}`);
    }

    it("describes a fresh cluster: 8.9's fields, the cluster id among them, and lastCompletedChangeId -1 before any change", async () => {
        await reset();
        const json = await topology();
        assert.deepEqual(Object.keys(json), [
            "brokers",
            "clusterId",
            "clusterSize",
            "partitionsCount",
            "replicationFactor",
            "gatewayVersion",
            "lastCompletedChangeId",
        ]);
        assert.match(json.clusterId, /^[0-9a-f-]{36}$/);
        assert.equal(json.clusterId, (await http("GET", management())).json.clusterId, "the cluster id is the configuration's");
        assert.equal(json.gatewayVersion, "8.9.16");
        assert.equal(json.clusterSize, 3);
        assert.equal(json.partitionsCount, 3);
        assert.equal(json.replicationFactor, 3);
        assert.equal(json.lastCompletedChangeId, "-1");
        assert.equal(typeof json.gatewayVersion, "string");
        assert.deepEqual(json.brokers[0], {
            nodeId: 0,
            host: "127.0.0.1",
            port: 26501,
            partitions: [
                { partitionId: 1, role: "leader", health: "healthy" },
                { partitionId: 2, role: "follower", health: "healthy" },
                { partitionId: 3, role: "follower", health: "healthy" },
            ],
            version: json.gatewayVersion,
        });
        assert.equal(roles(json), "0:1L,2f,3f 1:1f,2L,3f 2:1f,2f,3L");
        assert.equal((await http("GET", `${emulator().gatewayUrl}/v1/topology`)).status, 200);
        assert.equal((await http("GET", `${emulator().gatewayUrl}/v2/topologies`)).status, 404);
    });

    it("8.8 has no cluster id, in the topology or in the cluster management API", async () => {
        await reset({ release: "8.8" });
        const json = await topology();
        assert.deepEqual(Object.keys(json), ["brokers", "clusterSize", "partitionsCount", "replicationFactor", "gatewayVersion", "lastCompletedChangeId"]);
        assert.equal(json.gatewayVersion, "8.8.0");
        assert.equal((await http("GET", management())).json.clusterId, undefined);
    });

    it("a partition that lost the majority of its replicas has no leader, and its remaining replica is unhealthy", async () => {
        await reset();
        await http("POST", control("/brokers/1/stop"));
        await http("POST", control("/brokers/2/stop"));
        const json = await topology();
        assert.deepEqual(json.brokers[0].partitions, [
            { partitionId: 1, role: "follower", health: "unhealthy" },
            { partitionId: 2, role: "follower", health: "unhealthy" },
            { partitionId: 3, role: "follower", health: "unhealthy" },
        ]);
    });

    it("a replica that is still joining is inactive and unhealthy; a replica marked dead reports dead", async () => {
        await reset({ replicationFactor: 2 });
        await http("POST", control("/brokers/2/stop")); // the first join is broker 2's, of partition 1: hold it there
        const accepted = await http("POST", management("/brokers?replicationFactor=3"), { body: [0, 1, 2] });
        assert.equal(accepted.status, 202, accepted.text);
        // The join stays in progress on the running broker: its operation time outlasts the test.
        await holdStartedOperation(emulator().controlUrl, 2, 600_000);
        await http("POST", control("/brokers/2/start"));
        const joining = await topology();
        assert.deepEqual(
            joining.brokers.find((b: Json) => b.nodeId === 2).partitions.find((p: Json) => p.partitionId === 1),
            { partitionId: 1, role: "inactive", health: "unhealthy" },
        );
        await http("POST", control("/reset"), { body: { brokers: 3, partitions: 3, replicationFactor: 3, opMs: 5 } });
        const dead = await http("PUT", control("/brokers/1/partitions/2/health"), { body: { health: "dead" } });
        assert.equal(dead.status, 200, dead.text);
        const json = await topology();
        assert.deepEqual(
            json.brokers[1].partitions.find((p: Json) => p.partitionId === 2),
            { partitionId: 2, role: "leader", health: "dead" },
        );
        assert.equal((await http("PUT", control("/brokers/1/partitions/2/health"), { body: { health: "sick" } })).status, 400);
    });

    it("lists running brokers only and elects the next priority when a leader stops", async () => {
        await reset();
        await http("POST", control("/brokers/0/stop"));
        const json = await topology();
        assert.equal(roles(json), "1:1L,2L,3f 2:1f,2f,3L");
        assert.equal(json.clusterSize, 3, "a stopped broker is still a member");
    });

    it("counts a joining broker in clusterSize and lists it once it runs", async () => {
        await reset();
        const accepted = await http("POST", management("/brokers/3"));
        await holdStartedOperation(emulator().controlUrl, 3, 5);
        const joining = await topology();
        assert.equal(joining.clusterSize, 4);
        assert.deepEqual(
            joining.brokers.map((b: Json) => b.nodeId),
            [0, 1, 2],
        );
        assert.equal(joining.lastCompletedChangeId, "-1");
        await http("POST", control("/brokers/3/start"));
        await completion(accepted.json.changeId);
        const after = await topology();
        assert.deepEqual(after.brokers.find((b: Json) => b.nodeId === 3).partitions, []);
        assert.equal(after.clusterSize, 4);
    });

    it("keeps listing brokers removed by a scale-down while they run, with no partitions", async () => {
        await reset({ brokers: 6, partitions: 6 });
        const accepted = await http("PATCH", management(), { body: { brokers: { count: 3 } } });
        assert.equal(accepted.status, 202, accepted.text);
        await completion(accepted.json.changeId);
        const json = await topology();
        assert.equal(json.clusterSize, 3);
        assert.equal(json.partitionsCount, 6);
        assert.equal(json.replicationFactor, 3);
        assert.deepEqual(
            json.brokers.map((b: Json) => b.nodeId),
            [0, 1, 2, 3, 4, 5],
        );
        for (const removed of json.brokers.slice(3)) assert.deepEqual(removed.partitions, []);
        await http("POST", control("/brokers/5/stop"));
        assert.deepEqual(
            (await topology()).brokers.map((b: Json) => b.nodeId),
            [0, 1, 2, 3, 4],
        );
    });

    it("reports a transient replication factor during a change and the cancelled change id after cancelling", async () => {
        await reset({ replicationFactor: 1 });
        await http("POST", control("/brokers/2/stop"));
        const accepted = await http("POST", management("/brokers?replicationFactor=2"), { body: [0, 1, 2] });
        assert.equal(accepted.status, 202, accepted.text);
        const partial = await waitFor(async () => {
            const json = await topology();
            return json.replicationFactor === 1 && json.brokers.some((b: Json) => b.partitions.length === 2) ? json : undefined;
        }, "a partly raised replication factor");
        assert.equal(partial.lastCompletedChangeId, "-1");
        const cancelled = await http("DELETE", management(`/changes/${accepted.json.changeId}`));
        assert.equal(cancelled.status, 200);
        assert.equal((await topology()).lastCompletedChangeId, String(accepted.json.changeId));
    });
});
