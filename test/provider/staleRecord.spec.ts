// What a ClusterScale's outputs record that the cluster no longer shows, as a table (no engine, no cluster).
import * as assert from "assert";
import { staleRecord } from "../../provider/clusterScale/staleRecord";
import type { DesiredLayout } from "../../provider/clusterScale/inputs";

type Broker = { id: number; state: string; partitions: { id: number; priority: number; state: string }[] };
const broker = (id: number, partitions: [number, number][], state = "ACTIVE"): Broker => ({
    id,
    state,
    partitions: partitions.map(([p, priority]) => ({ id: p, priority, state: "ACTIVE" })),
});
const three = [
    broker(0, [
        [1, 3],
        [2, 1],
        [3, 2],
    ]),
    broker(1, [
        [1, 2],
        [2, 3],
        [3, 1],
    ]),
    broker(2, [
        [1, 1],
        [2, 2],
        [3, 3],
    ]),
];
const desired = (replicationFactor?: number) => ({ brokers: [0, 1, 2], force: false, replicationFactor }) as unknown as DesiredLayout;
const live = (brokers: Broker[]) => brokers.map((b) => ({ ...b, version: 1, lastUpdatedAt: { raw: null, epochMs: null } }));

describe("ClusterScale: a stale record", () => {
    const TABLE: { title: string; recorded: Record<string, unknown>; live: Broker[]; desired: DesiredLayout; differences: string[] }[] = [
        { title: "the record agrees", recorded: { topology: three, replicationFactor: 3 }, live: three, desired: desired(3), differences: [] },
        { title: "nothing recorded (an older state)", recorded: {}, live: three, desired: desired(3), differences: [] },
        {
            title: "partitions grew",
            recorded: { topology: three, replicationFactor: 3 },
            live: three.map((b) => ({ ...b, partitions: [...b.partitions, { id: 4, priority: 1, state: "ACTIVE" }] })),
            desired: desired(3),
            differences: ["partitions 3 → 4"],
        },
        {
            title: "a replica fewer per partition, and the program intends it",
            recorded: { topology: three, replicationFactor: 3, intendedReplicationFactor: 3 },
            live: [
                broker(0, [
                    [1, 2],
                    [2, 1],
                ]),
                broker(1, [
                    [1, 1],
                    [3, 2],
                ]),
                broker(2, [
                    [2, 2],
                    [3, 1],
                ]),
            ],
            desired: desired(2),
            differences: ["replication factor 3 → 2", "intended replication factor 3 → 2"],
        },
        {
            title: "a broker left",
            recorded: { topology: three, replicationFactor: 3 },
            live: [...three.slice(0, 2), { ...three[2], state: "LEFT", partitions: [] }],
            desired: desired(3),
            differences: ["brokers 0, 1, 2 → 0, 1", "replication factor 3 → 2"],
        },
        {
            title: "only priorities moved",
            recorded: { topology: three, replicationFactor: 3 },
            live: [
                broker(0, [
                    [1, 1],
                    [2, 1],
                    [3, 2],
                ]),
                ...three.slice(1),
            ],
            desired: desired(3),
            differences: ["replica placement or priorities"],
        },
    ];
    for (const row of TABLE) {
        it(row.title, () => assert.deepStrictEqual(staleRecord(row.recorded, live(row.live), row.desired), row.differences));
    }
});
