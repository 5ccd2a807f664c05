// The plan as people read it: the reference's worked examples turned into preview lines.
import * as assert from "assert";
import { planLines, progressLine } from "../../provider/clusterScale/messages";
import type { BrokerState, Operation, ChangePlan } from "../../sdk/schemas";

const NO_TIME = { raw: null, epochMs: null };

function broker(id: number, partitions: Record<number, number>): BrokerState {
    return {
        id,
        state: "ACTIVE",
        version: 0,
        lastUpdatedAt: NO_TIME,
        partitions: Object.entries(partitions).map(([partition, priority]) => ({ id: Number(partition), state: "ACTIVE", priority, config: undefined })),
    };
}

function op(operation: string, fields: Partial<Operation> = {}): Operation {
    return { operation, brokerId: undefined, partitionId: undefined, priority: undefined, exporterId: undefined, brokers: [], ...fields };
}

describe("ClusterScale: plan lines", () => {
    it("scale-down of the reference's example C: moves, a priority change, the removal and the expected layout", () => {
        // 3 brokers, 3 partitions, replication factor 2, scaled to brokers 0 and 1 (management-api.md §5.8).
        const plan: ChangePlan = {
            changeId: 2,
            currentTopology: [broker(0, { 1: 2, 3: 1 }), broker(1, { 1: 1, 2: 2 }), broker(2, { 2: 1, 3: 2 })],
            plannedChanges: [
                op("PARTITION_JOIN", { brokerId: 0, partitionId: 2, priority: 1 }),
                op("PARTITION_LEAVE", { brokerId: 2, partitionId: 2 }),
                op("PARTITION_JOIN", { brokerId: 1, partitionId: 3, priority: 1 }),
                op("PARTITION_LEAVE", { brokerId: 2, partitionId: 3 }),
                op("PARTITION_RECONFIGURE_PRIORITY", { brokerId: 0, partitionId: 3, priority: 2 }),
                op("BROKER_REMOVE", { brokerId: 2 }),
            ],
            expectedTopology: [broker(1, { 1: 1, 2: 2, 3: 1 }), broker(0, { 1: 2, 2: 1, 3: 2 })],
        };
        assert.deepStrictEqual(planLines("main", plan, "up will apply"), [
            'ClusterScale "main": up will apply 6 operations (change 2)',
            "  brokers removed: 2",
            "  partition 2: broker 2 → broker 0",
            "  partition 3: broker 2 → broker 1, priority of broker 0: 1 → 2",
            "  expected layout, partition(priority):",
            "    broker 0: 1(2) 2(1) 3(2)",
            "    broker 1: 1(1) 2(2) 3(1)",
        ]);
    });

    it("brokers and partitions added together (example E, shortened): additions, creations, and no moves for new partitions", () => {
        const plan: ChangePlan = {
            changeId: 4,
            currentTopology: [broker(0, { 1: 1 })],
            plannedChanges: [
                op("BROKER_ADD", { brokerId: 1 }),
                op("START_PARTITION_SCALE_UP", { brokerId: 0 }),
                op("PARTITION_BOOTSTRAP", { brokerId: 1, partitionId: 2, priority: 1 }),
                op("AWAIT_REDISTRIBUTION", { brokerId: 0 }),
                op("AWAIT_RELOCATION", { brokerId: 0 }),
            ],
            expectedTopology: [broker(0, { 1: 1 }), broker(1, { 2: 1 })],
        };
        assert.deepStrictEqual(planLines("c", plan, "up will apply"), [
            'ClusterScale "c": up will apply 5 operations (change 4)',
            "  brokers added: 1",
            "  partitions created: 2",
            "  expected layout, partition(priority):",
            "    broker 0: 1(1)",
            "    broker 1: 2(1)",
        ]);
    });

    it("force removal: removed brokers and the replicas each partition keeps", () => {
        const plan: ChangePlan = {
            changeId: 3,
            currentTopology: [broker(0, { 1: 2, 2: 1 }), broker(1, { 2: 2 }), broker(2, { 1: 1 })],
            plannedChanges: [
                op("PARTITION_FORCE_RECONFIGURE", { brokerId: 0, partitionId: 1, brokers: [0] }),
                op("PARTITION_FORCE_RECONFIGURE", { brokerId: 0, partitionId: 2, brokers: [0, 1] }),
                op("BROKER_REMOVE", { brokerId: 0, brokers: [2] }),
            ],
            expectedTopology: [broker(0, { 1: 2, 2: 1 }), broker(1, { 2: 2 })],
        };
        assert.deepStrictEqual(planLines("c", plan, "up will apply"), [
            'ClusterScale "c": up will apply 3 operations (change 3)',
            "  brokers removed by force (their partitions are not moved): 2",
            "  partition 1: replicas kept on broker(s) 0, dropped from 2",
            "  expected layout, partition(priority):",
            "    broker 0: 1(2) 2(1)",
            "    broker 1: 2(2)",
        ]);
    });

    it("progress names the running operation, counted from 1", () => {
        assert.strictEqual(progressLine(0, 6, { operation: "BROKER_ADD", brokerId: 3 }), "[1/6] BROKER_ADD broker 3");
        assert.strictEqual(progressLine(2, 6, { operation: "PARTITION_JOIN", brokerId: 3, partitionId: 2 }), "[3/6] PARTITION_JOIN broker 3 partition 2");
        assert.strictEqual(progressLine(6, 6, undefined), "[6/6] done");
    });
});
