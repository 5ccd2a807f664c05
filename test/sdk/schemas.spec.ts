// The response schemas against the JSON of the reference (fixtures/reference-*.json, copied from
// management-api.md §5.8; the POST sample's elided currentTopology is filled with the brokers of the
// fresh GET sample it refers to) and against responses built from the shapes the reference describes
// for other releases (fixtures/shape-*.json: §2.2-2.6, §7, the token example in anchors.md §4.4).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { clusterStateSchema, decoder, gatewayTopologySchema, parseTimestamp, changePlanSchema, tokenResponseSchema } from "../../sdk/schemas";
import { memberListSchema } from "../../sdk/adminSchemas";

function fixture(name: string): unknown {
    return JSON.parse(readFileSync(join(__dirname, "fixtures", name), "utf8"));
}

function decodeOk<T>(decode: (data: unknown) => { ok: true; value: T } | { ok: false; problem: string }, data: unknown): T {
    const result = decode(data);
    if (!result.ok) assert.fail(result.problem);
    return result.value;
}

const decodeCluster = decoder("cluster state", clusterStateSchema);
const decodePlan = decoder("planned change", changePlanSchema);
const decodeTopology = decoder("gateway topology", gatewayTopologySchema);

describe("sdk schemas: reference samples", () => {
    it("decodes the fresh-cluster GET sample, sentinel timestamps as unset", () => {
        const state = decodeOk(decodeCluster, fixture("reference-5.8-get-fresh.json"));
        assert.equal(state.version, 1);
        assert.deepEqual(
            state.brokers.map((broker) => [broker.id, broker.partitions.map((p) => `${p.id}=${p.priority}`).join(" ")]),
            [
                [0, "1=2 3=1"],
                [1, "1=1 2=2"],
                [2, "2=1 3=2"],
            ],
        );
        assert.deepEqual(state.brokers[0].lastUpdatedAt, { raw: "0000-01-01T00:00:00Z", epochMs: null });
        assert.equal(state.lastChange, undefined);
        assert.equal(state.pendingChange, undefined);
    });

    it("decodes the POST /brokers sample: ordered operations, optional fields left out, lists defaulted", () => {
        const plan = decodeOk(decodePlan, fixture("reference-5.8-post-brokers.json"));
        assert.equal(plan.changeId, 2);
        assert.equal(plan.currentTopology.length, 3);
        assert.deepEqual(
            plan.plannedChanges.map((op) => [op.operation, op.brokerId, op.partitionId, op.priority]),
            [
                ["PARTITION_JOIN", 0, 2, 1],
                ["PARTITION_LEAVE", 2, 2, undefined],
                ["PARTITION_JOIN", 1, 3, 1],
                ["PARTITION_LEAVE", 2, 3, undefined],
                ["PARTITION_RECONFIGURE_PRIORITY", 0, 3, 2],
                ["BROKER_REMOVE", 2, undefined, undefined],
            ],
        );
        assert.ok(plan.plannedChanges.every((op) => Array.isArray(op.brokers) && op.brokers.length === 0));
        assert.deepEqual(
            plan.expectedTopology.map((broker) => [broker.id, broker.version]),
            [
                [0, 3],
                [1, 2],
            ],
        );
        // "<now>" is the reference's placeholder, not a timestamp: kept raw, no time derived from it.
        assert.deepEqual(plan.expectedTopology[0].lastUpdatedAt, { raw: "<now>", epochMs: null });
    });

    it("decodes the mid-change GET sample: pending shrinking, completed with completedAt", () => {
        const state = decodeOk(decodeCluster, fixture("reference-5.8-get-mid-change.json"));
        const pending = state.pendingChange;
        assert.ok(pending);
        assert.equal(pending.id, 2);
        assert.equal(pending.status, "IN_PROGRESS");
        assert.deepEqual(
            pending.completed.map((op) => [op.operation, op.brokerId, op.partitionId, op.completedAt.raw]),
            [
                ["PARTITION_JOIN", 0, 2, "<t2>"],
                ["PARTITION_LEAVE", 2, 2, "<t4>"],
            ],
        );
        assert.deepEqual(
            pending.pending.map((op) => op.operation),
            ["PARTITION_JOIN", "PARTITION_LEAVE", "PARTITION_RECONFIGURE_PRIORITY", "BROKER_REMOVE"],
        );
        assert.equal(state.brokers[1].partitions[2].state, "JOINING");
    });
});

describe("sdk schemas: shapes of other releases", () => {
    it("8.8: exporter config, unknown operations and states, lists as [], routing and clusterId", () => {
        const state = decodeOk(decodeCluster, fixture("shape-8.8-get-during-partition-scaling.json"));
        assert.equal(state.clusterId, "3f5c2a9e-cluster");
        const broker1 = state.brokers.find((broker) => broker.id === 1);
        assert.deepEqual(broker1?.partitions[0].config?.exporting?.exporters, [{ id: "CamundaExporter", state: "ENABLED" }]);
        assert.equal(broker1?.partitions[1].config?.exporting?.exporters[0].state, "CONFIG_NOT_FOUND");
        assert.equal(broker1?.lastUpdatedAt.epochMs, Date.UTC(2025, 6, 4, 8, 10, 22, 984));
        const broker0 = state.brokers.find((broker) => broker.id === 0);
        assert.equal(broker0?.lastUpdatedAt.epochMs, null, "year-1 sentinel is unset");
        assert.equal(broker0?.partitions[1].state, "UNKNOWN");
        assert.equal(broker0?.partitions[1].config?.exporting, undefined);
        assert.equal(state.brokers.find((broker) => broker.id === 3)?.state, "JOINING");
        const pending = state.pendingChange;
        assert.ok(pending);
        assert.deepEqual(
            pending.pending.map((op) => op.operation),
            ["PARTITION_BOOTSTRAP", "AWAIT_REDISTRIBUTION", "AWAIT_RELOCATION", "PRE_SCALING", "DELETE_HISTORY", "PARTITION_ENABLE_EXPORTER"],
        );
        assert.deepEqual(pending.pending[3].brokers, [0, 1, 3]);
        assert.equal(pending.pending[4].brokerId, undefined);
        assert.equal(pending.pending[5].exporterId, "CamundaExporter");
        assert.equal(pending.completed[1].completedAt.epochMs, Date.UTC(2025, 6, 4, 8, 10, 24, 1));
        assert.equal(state.lastChange?.completedAt.epochMs, Date.UTC(2025, 6, 4, 8, 3, 10, 123));
    });

    it("8.4: the OffsetDateTime.MIN sentinel and nanosecond fractions", () => {
        const state = decodeOk(decodeCluster, fixture("shape-8.4-get-with-minimum-timestamp.json"));
        assert.equal(state.brokers[0].lastUpdatedAt.epochMs, null);
        assert.equal(state.brokers[0].lastUpdatedAt.raw, "-999999999-01-01T00:00:00+18:00");
        assert.equal(state.brokers[1].lastUpdatedAt.epochMs, Date.UTC(2023, 11, 22, 13, 37, 43, 403));
        assert.equal(state.lastChange?.startedAt.epochMs, Date.UTC(2023, 11, 22, 13, 37, 40, 100));
    });

    it("force removal plans carry the retained and removed brokers", () => {
        const plan = decodeOk(decodePlan, fixture("shape-force-removal-plan.json"));
        assert.deepEqual(
            plan.plannedChanges.map((op) => [op.operation, op.partitionId, op.brokers]),
            [
                ["PARTITION_FORCE_RECONFIGURE", 1, [0]],
                ["PARTITION_FORCE_RECONFIGURE", 2, [0]],
                ["BROKER_REMOVE", undefined, [1]],
            ],
        );
    });

    it("empty plans", () => {
        const plan = decodeOk(decodePlan, fixture("shape-empty-plan.json"));
        assert.equal(plan.changeId, 0);
        assert.deepEqual(plan.plannedChanges, []);
    });

    it("missing and null lists read as empty", () => {
        const plan = decodeOk(decodePlan, { changeId: 3, currentTopology: null, expectedTopology: [{ id: 0, state: "ACTIVE", version: 0 }] });
        assert.deepEqual(plan.plannedChanges, []);
        assert.deepEqual(plan.currentTopology, []);
        assert.deepEqual(plan.expectedTopology[0].partitions, []);
        assert.deepEqual(plan.expectedTopology[0].lastUpdatedAt, { raw: null, epochMs: null });
        const state = decodeOk(decodeCluster, { version: 2, pendingChange: { id: 2, status: "IN_PROGRESS" } });
        assert.deepEqual(state.brokers, []);
        assert.deepEqual(state.pendingChange?.completed, []);
        assert.deepEqual(state.pendingChange?.pending, []);
    });

    it("gateway topology: 8.8 with lastCompletedChangeId, 8.7 without", () => {
        const topology = decodeOk(decodeTopology, fixture("shape-8.8-topology.json"));
        assert.equal(topology.lastCompletedChangeId, null, '"-1" means no change completed');
        assert.deepEqual(
            topology.brokers[0].partitions.map((p) => p.role),
            ["leader", "follower", "inactive"],
        );
        assert.deepEqual(topology.brokers[1].partitions, []);
        assert.equal(topology.gatewayVersion, "8.8.0");
        const old = decodeOk(decodeTopology, fixture("shape-8.7-topology-without-change-id.json"));
        assert.equal(old.lastCompletedChangeId, undefined);
        const empty = decodeOk(decodeTopology, { ...old, lastCompletedChangeId: "" });
        assert.equal(empty.lastCompletedChangeId, null);
        const done = decodeOk(decodeTopology, { ...old, lastCompletedChangeId: "12" });
        assert.equal(done.lastCompletedChangeId, 12);
    });

    it("gateway topology: 8.9's cluster id (a string, or null while unknown), every partition role and health", () => {
        const topology = decodeOk(decodeTopology, fixture("shape-8.9-topology.json"));
        assert.equal(topology.clusterId, "3f1c2b0e-6a7d-4e21-9c55-0b8f4d2a7e10");
        assert.equal(topology.lastCompletedChangeId, null, '"-1" means no change completed');
        assert.deepEqual(
            topology.brokers[0].partitions.map((p) => `${p.partitionId}:${p.role}/${p.health}`),
            ["1:leader/healthy", "2:follower/unhealthy", "3:inactive/dead"],
        );
        const unknownCluster = decodeOk(decodeTopology, { ...(fixture("shape-8.9-topology.json") as object), clusterId: null });
        assert.equal(unknownCluster.clusterId, undefined);
        // A role or health a later release adds is read as it is.
        const newer = decodeOk(decodeTopology, {
            ...(fixture("shape-8.9-topology.json") as object),
            brokers: [{ nodeId: 0, host: "h", port: 1, partitions: [{ partitionId: 1, role: "learner", health: "recovering" }], version: "9.0.0" }],
        });
        assert.deepEqual(newer.brokers[0].partitions[0], { partitionId: 1, role: "learner", health: "recovering" });
    });

    it("token response and member list", () => {
        const token = decodeOk(decoder("token response", tokenResponseSchema), fixture("shape-token-response.json"));
        assert.equal(token.expires_in, 300);
        assert.equal(token.token_type, "Bearer");
        const members = decodeOk(decoder("member list", memberListSchema), fixture("shape-members.json"));
        assert.deepEqual(members[1], { name: "Alan Turing", email: "alan@example.com", roles: ["developer", "analyst"], invitePending: true });
    });
});

describe("sdk schemas: strictness", () => {
    const fresh = fixture("reference-5.8-get-fresh.json") as { brokers: { id: unknown; partitions: { id: unknown }[] }[] };

    it("rejects non-integer ids and says where, without echoing values", () => {
        const stringId = structuredClone(fresh);
        stringId.brokers[1].id = "1";
        const result = decodeCluster(stringId);
        assert.equal(result.ok, false);
        assert.match(!result.ok ? result.problem : "", /brokers\[1\]\.id/);

        const fractional = structuredClone(fresh);
        fractional.brokers[0].partitions[0].id = 1.5;
        const partitionResult = decodeCluster(fractional);
        assert.match(!partitionResult.ok ? partitionResult.problem : "", /brokers\[0\]\.partitions\[0\]\.id: .*expected int/);

        const plan = decodePlan({
            changeId: 2,
            plannedChanges: [
                { operation: "BROKER_ADD", brokerId: 3 },
                { operation: "BROKER_ADD", brokerId: "4" },
            ],
        });
        assert.match(!plan.ok ? plan.problem : "", /plannedChanges\[1\]\.brokerId: .*expected number, received string/);
        assert.ok(!plan.ok && !plan.problem.includes('"4"'));
    });

    it("rejects a changeId that is not a number and a lastCompletedChangeId that is not digits", () => {
        assert.equal(decodePlan({ changeId: "2", plannedChanges: [] }).ok, false);
        const old = fixture("shape-8.7-topology-without-change-id.json") as object;
        assert.equal(decodeTopology({ ...old, lastCompletedChangeId: "abc" }).ok, false);
    });

    it("rejects a token response without a usable token or lifetime, never echoing the token", () => {
        const decode = decoder("token response", tokenResponseSchema);
        const noLifetime = decode({ access_token: "secret-token-value", token_type: "Bearer" });
        assert.equal(noLifetime.ok, false);
        assert.ok(!noLifetime.ok && !noLifetime.problem.includes("secret-token-value"));
        assert.equal(decode({ access_token: "", expires_in: 300 }).ok, false);
        assert.equal(decode({ access_token: 42, expires_in: 300 }).ok, false);
        assert.equal(decode({ access_token: "t", expires_in: "300" }).ok, true);
    });

    it("rejects a member list that is not a list", () => {
        assert.equal(decoder("member list", memberListSchema)({ members: [] }).ok, false);
    });
});

describe("sdk schemas: null reads as absent", () => {
    const answers = [
        {
            name: "cluster state",
            decode: decodeCluster,
            samples: [
                "reference-5.8-get-fresh.json",
                "reference-5.8-get-mid-change.json",
                "shape-8.4-get-with-minimum-timestamp.json",
                "shape-8.8-get-during-partition-scaling.json",
            ],
        },
        {
            name: "planned change",
            decode: decodePlan,
            samples: ["reference-5.8-post-brokers.json", "shape-force-removal-plan.json", "shape-empty-plan.json"],
        },
    ];

    it("an optional field sent as null is undefined, a list sent as null is empty", () => {
        const plan = decodeOk(decodePlan, {
            changeId: 4,
            plannedChanges: [{ operation: "PARTITION_JOIN", brokerId: null, partitionId: 2, priority: null, brokers: null, exporterId: null }],
            expectedTopology: [
                { id: 0, state: "ACTIVE", version: 1, lastUpdatedAt: null, partitions: [{ id: 2, state: "ACTIVE", priority: 1, config: null }] },
            ],
        });
        assert.deepStrictEqual(plan.plannedChanges[0], {
            operation: "PARTITION_JOIN",
            brokerId: undefined,
            partitionId: 2,
            priority: undefined,
            brokers: [],
            exporterId: undefined,
        });
        assert.equal(plan.expectedTopology[0].partitions[0].config, undefined);
        const state = decodeOk(decodeCluster, { version: 1, brokers: null, lastChange: null, pendingChange: null, clusterId: null });
        assert.deepStrictEqual(JSON.parse(JSON.stringify(state)), { version: 1, brokers: [] });
    });

    for (const { name, decode, samples } of answers) {
        it(`${name}: on thousands of variations, a field sent as null decodes as the field left out`, () => {
            const random = seededRandom(samples.length);
            let accepted = 0;
            for (let round = 0; round < 3_000; round++) {
                const data = fixture(samples[round % samples.length]);
                for (let edits = Math.floor(random() * 3); edits > 0; edits--) mutate(data, random);
                const withNull = structuredClone(data);
                const withoutField = structuredClone(data);
                if (!nullOneField(withNull, withoutField, random)) continue;
                const context = JSON.stringify(withNull);
                const nulled = decode(withNull);
                const omitted = decode(withoutField);
                assert.equal(nulled.ok, omitted.ok, context);
                if (!nulled.ok || !omitted.ok) continue;
                accepted++;
                // JSON drops undefined fields: a null field is present but undefined, an omitted one absent.
                assert.deepStrictEqual(JSON.parse(JSON.stringify(nulled.value)), JSON.parse(JSON.stringify(omitted.value)), context);
            }
            assert.ok(accepted > 500, `only ${accepted} variations were valid`);
        });
    }
});

/** Sets the same randomly chosen object field to null in one copy and removes it from the other; false if there is none. */
function nullOneField(withNull: unknown, withoutField: unknown, random: () => number): boolean {
    const fields: [Record<string, unknown>, Record<string, unknown>, string][] = [];
    const collect = (a: unknown, b: unknown): void => {
        if (typeof a !== "object" || a === null) return;
        for (const key of Object.keys(a)) {
            if (!Array.isArray(a)) fields.push([a as Record<string, unknown>, b as Record<string, unknown>, key]);
            collect((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]);
        }
    };
    collect(withNull, withoutField);
    if (fields.length === 0) return false;
    const [nulled, omitted, key] = fields[Math.floor(random() * fields.length)];
    nulled[key] = null;
    delete omitted[key];
    return true;
}

/** A deterministic pseudo-random sequence in [0, 1). */
function seededRandom(seed: number): () => number {
    let state = seed;
    return () => {
        state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
        return state / 2 ** 31;
    };
}

/** One random edit somewhere in a JSON value: a field removed, nulled, given another type, or added. */
function mutate(data: unknown, random: () => number): void {
    const containers: (Record<string, unknown> | unknown[])[] = [];
    const collect = (value: unknown): void => {
        if (typeof value !== "object" || value === null) return;
        containers.push(value as Record<string, unknown> | unknown[]);
        for (const child of Object.values(value)) collect(child);
    };
    collect(data);
    const target = containers[Math.floor(random() * containers.length)];
    const keys = Object.keys(target);
    const replacements: unknown[] = [null, "1", "", "x", 1.5, -3, 0, 2 ** 53, true, [], {}, [1], "2025-07-04T08:10:22.984+0000", "0001-01-01T00:00:00Z"];
    const replacement = replacements[Math.floor(random() * replacements.length)];
    const choice = random();
    if (keys.length > 0 && choice < 0.3) {
        const key = keys[Math.floor(random() * keys.length)];
        if (Array.isArray(target)) target.splice(Number(key), 1);
        else delete target[key];
    } else if (keys.length > 0 && choice < 0.85) {
        (target as Record<string, unknown>)[keys[Math.floor(random() * keys.length)]] = replacement;
    } else if (!Array.isArray(target)) {
        target[random() < 0.5 ? "unknownField" : "brokers"] = replacement;
    }
}

describe("sdk schemas: timestamps", () => {
    const cases: [string, number | null][] = [
        ["2023-12-22T13:37:43.403615966Z", Date.UTC(2023, 11, 22, 13, 37, 43, 403)],
        ["2025-07-04T08:10:22.984+0000", Date.UTC(2025, 6, 4, 8, 10, 22, 984)],
        ["2025-07-04T10:10:22.9+02:00", Date.UTC(2025, 6, 4, 8, 10, 22, 900)],
        ["2025-07-04T06:10:22-0200", Date.UTC(2025, 6, 4, 8, 10, 22, 0)],
        ["2025-07-04T08:10:22", Date.UTC(2025, 6, 4, 8, 10, 22, 0)],
        ["2025-07-04T08:10Z", Date.UTC(2025, 6, 4, 8, 10, 0, 0)],
        ["0000-01-01T00:00:00Z", null],
        ["0001-01-01T00:00:00.000+0000", null],
        ["-999999999-01-01T00:00:00+18:00", null],
        ["<now>", null],
        ["2025-13-01T00:00:00Z", null],
        ["2025-07-04t08:10:22,5z", Date.UTC(2025, 6, 4, 8, 10, 22, 500)],
        [" 2025-07-04 08:10:22.98765 +02 ", Date.UTC(2025, 6, 4, 6, 10, 22, 987)],
        ["+2025-07-04T08:10:22Z", Date.UTC(2025, 6, 4, 8, 10, 22, 0)],
        ["2025-07-04T08:10:22+02:", null],
        ["2025-07-04T08:10:22.Z", null],
        ["2025-07-04T08:10:2Z", null],
        ["2025-07-04T08:10:22Zulu", null],
        ["2025-07-04", null],
        ["999999999-01-01T00:00:00Z", null],
    ];
    for (const [raw, expected] of cases) {
        it(`${raw} -> ${expected === null ? "unset" : new Date(expected).toISOString()}`, () => {
            assert.equal(parseTimestamp(raw), expected);
        });
    }
});
