// Partition counts through ClusterScale: growth with PATCH when the brokers allow it, the reference's error when
// they do not, decreases refused before anything is sent, and servers without PATCH (405).
import * as assert from "assert";
import type { BrokerLayout } from "../../provider/clusterScale/types";
import { ClusterScaleFixture, apiLayout, dryRuns, failed, layout, mutating, output, printed, requestLine, succeeded } from "./clusterScaleSupport";

describe("ClusterScale: partition count", function () {
    this.timeout(120_000);
    const fixture = new ClusterScaleFixture("in-process");

    before(() => fixture.start());
    after(() => fixture.stop());

    it("grows partitions with one PATCH when partition scaling is on, ending with the expected layout", async () => {
        fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3, partitionScaling: true });
        const expected = await fixture.cluster().patchCluster({ brokers: { add: [], remove: [] }, partitions: { count: 6 } }, { dryRun: true });
        const run = await fixture.run("up", { brokerCount: 3, partitionCount: 6 });
        succeeded(run);
        // The plan printed by check: the partitions to create, found with the PATCH dry run.
        assert.ok(printed(run, "partitions created: 4, 5, 6"), run.result.stdout);
        assert.deepStrictEqual(mutating(run.requests).map(requestLine), ["PATCH /actuator/cluster 202"]);
        assert.deepStrictEqual(mutating(run.requests)[0].body, { brokers: { add: [], remove: [] }, partitions: { count: 6, replicationFactor: 3 } });
        assert.strictEqual(output(run, "partitionCount"), 6);
        assert.deepStrictEqual(layout(output<BrokerLayout[]>(run, "topology")), apiLayout(expected.expectedTopology));
        const operations = output<{ operation: string }[]>(run, "plannedChanges").map((change) => change.operation);
        assert.ok(operations.includes("START_PARTITION_SCALE_UP") && operations.includes("PARTITION_BOOTSTRAP"), operations.join());
    });

    it("with partition scaling off, preview fails with the reference's error and nothing is changed", async () => {
        fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3, partitionScaling: false });
        const run = await fixture.run("preview", { brokerCount: 3, partitionCount: 6 });
        const stderr = failed(run);
        assert.match(stderr, /has a problem: partitionCount: .*partition scaling is not enabled on them/);
        assert.match(stderr, /Partition scaling is not enabled/, "the server's own message is shown");
        assert.deepStrictEqual(mutating(run.requests), []);
        assert.deepStrictEqual(dryRuns(run.requests).map(requestLine), [
            "POST /actuator/cluster/brokers?dryRun=true 202",
            "PATCH /actuator/cluster?dryRun=true 500",
        ]);
    });

    describe("a partition count below the current one", function () {
        before(() => fixture.reset({ brokers: 3, partitions: 6, replicationFactor: 3 }));

        it("is refused at the first preview, from the dry run's view of the cluster, naming both numbers", async () => {
            const run = await fixture.run("preview", { brokerCount: 3, partitionCount: 3 });
            const stderr = failed(run);
            assert.match(stderr, /has a problem: partitionCount 3 is below the cluster's 6 partitions/);
            assert.deepStrictEqual(mutating(run.requests), []);
        });

        it("is refused by check once the resource is in state, before any request", async () => {
            succeeded(await fixture.run("up", { brokerCount: 3, partitionCount: 6 }));
            const run = await fixture.run("preview", { brokerCount: 3, partitionCount: 3 });
            const stderr = failed(run);
            assert.match(stderr, /has a problem: partitionCount 3 is below the current 6: partitions can only be added/);
            assert.deepStrictEqual(run.requests, []);
        });
    });

    describe("a server without PATCH (405)", function () {
        it("refuses to add partitions, saying the server predates partition scaling", async () => {
            fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3, patchSupported: false, partitionScaling: true });
            const run = await fixture.run("preview", { brokerCount: 3, partitionCount: 6 });
            const stderr = failed(run);
            assert.match(stderr, /cannot add partitions \(3 → 6\): the management API answered PATCH with 405/);
            assert.deepStrictEqual(mutating(run.requests), []);
        });

        it("falls back to POST /brokers when no partition has to be added after all", async () => {
            fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3, patchSupported: false });
            succeeded(await fixture.run("up", { brokerCount: 3, partitionCount: 3 }));
            // Behind Pulumi's back the cluster now has 6 partitions: the recorded 3 suggests a PATCH, the server has none.
            fixture.emulator.control.reset({ brokers: 3, partitions: 6, replicationFactor: 3, patchSupported: false, opMs: 10 });
            fixture.emulator.control.startBroker(3);
            const preview = await fixture.run("preview", { brokerCount: 4, partitionCount: 6 });
            succeeded(preview);
            assert.deepStrictEqual(preview.requests.map(requestLine), [
                "PATCH /actuator/cluster?dryRun=true 405",
                "POST /actuator/cluster/brokers?dryRun=true&replicationFactor=3 202",
            ]);
            assert.ok(printed(preview, "brokers added: 3"), preview.result.stdout);

            const up = await fixture.run("up", { brokerCount: 4, partitionCount: 6 });
            succeeded(up);
            assert.deepStrictEqual(mutating(up.requests).map(requestLine), ["POST /actuator/cluster/brokers?replicationFactor=3 202"]);
            assert.strictEqual(output(up, "partitionCount"), 6);
            assert.deepStrictEqual(
                layout(output<BrokerLayout[]>(up, "topology")).map((broker) => broker.id),
                [0, 1, 2, 3],
            );
        });
    });
});
