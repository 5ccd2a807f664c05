// ClusterScale's reading of which brokers run and which replicas are not healthy, from the emulator's gateway (the
// newest release's topology), with every partition role and health the gateway reports: in-process, over HTTP.
import * as assert from "assert";
import { GatewayClient } from "../../sdk/cluster/gatewayClient";
import { healthNote, readLiveness } from "../../provider/clusterScale/liveness";
import { RunningEmulator, startEmulator } from "../emulator";
import { holdStartedOperation, http } from "../emulator/harness";

describe("ClusterScale: liveness from the gateway's topology", function () {
    let emulator: RunningEmulator;
    let gateway: GatewayClient;
    const read = async () => {
        const liveness = await readLiveness(gateway, 5_000);
        assert.ok(liveness.known, "the gateway did not answer");
        return liveness;
    };

    before(async () => {
        emulator = await startEmulator({ brokers: 3, partitions: 3, replicationFactor: 3, opMs: 5 });
        gateway = new GatewayClient({ gatewayUrl: emulator.gatewayUrl });
    });
    after(() => emulator?.close());
    beforeEach(() => emulator.control.reset({ brokers: 3, partitions: 3, replicationFactor: 3, opMs: 5 }));

    it("leaders and followers, all healthy: every listed broker runs, no note", async () => {
        const liveness = await read();
        assert.deepStrictEqual([...liveness.running].sort(), [0, 1, 2]);
        assert.deepStrictEqual(liveness.notHealthy, []);
        assert.strictEqual(healthNote(liveness), undefined);
    });

    it("a stopped broker is not running; the replicas of partitions that lost their quorum are unhealthy", async () => {
        emulator.control.stopBroker(1);
        emulator.control.stopBroker(2);
        const liveness = await read();
        assert.deepStrictEqual([...liveness.running], [0]);
        assert.strictEqual(
            healthNote(liveness),
            "the gateway reports replicas that are not healthy: partition 1 on broker 0 (unhealthy), partition 2 on broker 0 (unhealthy), partition 3 on broker 0 (unhealthy); a change that moves them may wait for them",
        );
    });

    it("a dead replica is named as dead; its broker still runs", async () => {
        emulator.control.setPartitionHealth(2, 3, "dead");
        const liveness = await read();
        assert.deepStrictEqual([...liveness.running].sort(), [0, 1, 2]);
        assert.deepStrictEqual(liveness.notHealthy, [{ brokerId: 2, partitionId: 3, health: "dead" }]);
        assert.match(healthNote(liveness) ?? "", /partition 3 on broker 2 \(dead\)/);
    });

    it("an inactive replica (still joining) runs on a running broker, not yet healthy", async () => {
        emulator.control.reset({ brokers: 3, partitions: 3, replicationFactor: 2, opMs: 5 });
        emulator.control.stopBroker(2);
        const accepted = await http("POST", `${emulator.managementUrl}/actuator/cluster/brokers?replicationFactor=3`, { body: [0, 1, 2] });
        assert.strictEqual(accepted.status, 202, accepted.text);
        // The join stays in progress on the running broker: its operation time outlasts the test.
        await holdStartedOperation(emulator.controlUrl, 2, 600_000);
        emulator.control.startBroker(2);
        const topology = await gateway.getTopology();
        const joining = topology.brokers.find((broker) => broker.nodeId === 2)!.partitions.find((partition) => partition.partitionId === 1);
        assert.deepStrictEqual(joining, { partitionId: 1, role: "inactive", health: "unhealthy" });
        const liveness = await read();
        assert.ok(liveness.running.has(2));
        assert.ok(liveness.notHealthy.some((replica) => replica.brokerId === 2 && replica.partitionId === 1 && replica.health === "unhealthy"));
    });
});
