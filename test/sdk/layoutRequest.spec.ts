// The SDK decides the wire form of a layout change: which request (POST /brokers or PATCH) and body a layout
// becomes, the fallback when a server has no PATCH, and which layout setting a server's refusal names.

import assert from "node:assert/strict";
import { ClusterClient } from "../../sdk/cluster/clusterClient";
import { describeLayoutRequest, layoutRefusal, layoutRequest, sameLayoutRequest } from "../../sdk/cluster/layoutRequest";
import { InvalidRequestError } from "../../sdk/errors";
import { requestsTo, startBrokers, useEmulator } from "./support";

describe("sdk layout requests", () => {
    const live = { members: [0, 1, 2], partitionCount: 3 };

    const cases: { title: string; layout: Parameters<typeof layoutRequest>[0]; patch?: boolean; known?: boolean; wire: string }[] = [
        { title: "brokers only", layout: { brokers: [0, 1, 2, 3] }, wire: "POST /brokers [0,1,2,3]" },
        { title: "brokers and a replication factor", layout: { brokers: [0, 1], replicationFactor: 2 }, wire: "POST /brokers [0,1] ?replicationFactor=2" },
        {
            title: "the same partition count",
            layout: { brokers: [0, 1, 2], partitionCount: 3, replicationFactor: 3 },
            wire: "POST /brokers [0,1,2] ?replicationFactor=3",
        },
        {
            title: "more partitions",
            layout: { brokers: [0, 1, 3], partitionCount: 6, replicationFactor: 3 },
            wire: 'PATCH {"brokers":{"add":[3],"remove":[2]},"partitions":{"count":6,"replicationFactor":3}}',
        },
        {
            title: "more partitions on a server without PATCH",
            layout: { brokers: [0, 1, 2], partitionCount: 6 },
            patch: false,
            wire: "POST /brokers [0,1,2]",
        },
        { title: "more partitions, live cluster unknown", layout: { brokers: [0, 1, 2], partitionCount: 6 }, known: false, wire: "POST /brokers [0,1,2]" },
        {
            title: "a force removal names no replication factor",
            layout: { brokers: [0, 1], replicationFactor: 3, force: true },
            wire: "POST /brokers [0,1] ?force=true",
        },
    ];
    for (const { title, layout, patch, known, wire } of cases) {
        it(`${title}: ${wire}`, () => {
            assert.equal(describeLayoutRequest(layoutRequest(layout, known === false ? undefined : live, { patch })), wire);
        });
    }

    it("compares requests with broker lists as sets", () => {
        assert.ok(sameLayoutRequest(layoutRequest({ brokers: [2, 0, 1] }, live), layoutRequest({ brokers: [0, 1, 2] }, live)));
        assert.ok(!sameLayoutRequest(layoutRequest({ brokers: [0, 1] }, live), layoutRequest({ brokers: [0, 1], replicationFactor: 2 }, live)));
    });

    it("a refusal names the setting the server's message is about, for the request the error says was refused", () => {
        const refused = (method: string, serverMessage: string) =>
            new InvalidRequestError("refused", { request: { method, path: "/actuator/cluster" }, status: 400, serverMessage });
        assert.deepEqual(layoutRefusal(refused("PATCH", "Partition scaling is not enabled")), { field: "partitionCount", partitionScalingOff: true });
        assert.deepEqual(layoutRefusal(refused("PATCH", "new partition count must be larger")), { field: "partitionCount", partitionScalingOff: false });
        assert.deepEqual(layoutRefusal(refused("POST", "replication factor 4 exceeds 3 brokers")), { field: "replicationFactor", partitionScalingOff: false });
        assert.deepEqual(layoutRefusal(refused("POST", "broker 7 is not known")), { field: "brokers", partitionScalingOff: false });
        // The POST sent after a 405 is not a PATCH: its refusal is about the brokers, whatever it mentions.
        assert.deepEqual(layoutRefusal(refused("POST", "partition count cannot change here")), { field: "brokers", partitionScalingOff: false });
    });

    describe("planLayout against the emulator", () => {
        const emulator = useEmulator({ brokers: 3, partitions: 3, replicationFactor: 3, partitionScaling: true });
        const cluster = (): ClusterClient => new ClusterClient({ managementUrl: emulator().managementUrl });
        const sent = () => requestsTo(emulator(), "management").map((entry) => `${entry.method} ${entry.path} ${entry.status}`);

        it("plans a partition increase with one PATCH dry run, changing nothing", async () => {
            const planned = await cluster().planLayout({ brokers: [0, 1, 2], partitionCount: 4, replicationFactor: 3 }, live);
            assert.equal(planned.request.method, "PATCH");
            assert.equal(planned.patchSupported, true);
            assert.ok(planned.plan.plannedChanges.length > 0);
            assert.deepEqual(sent(), ["PATCH /actuator/cluster 202"]);
            assert.equal((await cluster().getCluster()).pendingChange, undefined);
        });

        it("a server that answers PATCH with 405 gets the layout as POST /brokers, and says it has no PATCH", async () => {
            emulator().control.reset({ brokers: 3, partitions: 3, replicationFactor: 3, patchSupported: false });
            startBrokers(emulator(), [3]);
            const planned = await cluster().planLayout({ brokers: [0, 1, 2, 3], partitionCount: 4, replicationFactor: 3 }, live);
            assert.equal(describeLayoutRequest(planned.request), "POST /brokers [0,1,2,3] ?replicationFactor=3");
            assert.equal(planned.patchSupported, false);
            assert.deepEqual(sent(), ["PATCH /actuator/cluster 405", "POST /actuator/cluster/brokers 202"]);
        });

        it("applyLayout sends the request once, as the request says", async () => {
            startBrokers(emulator(), [3]);
            const plan = await cluster().applyLayout(layoutRequest({ brokers: [0, 1, 2, 3], replicationFactor: 3 }, live));
            assert.ok(plan.changeId > 0);
            assert.deepEqual(sent(), ["POST /actuator/cluster/brokers 202"]);
        });
    });
});
