// ClusterScale through the real dynamic-provider host (test/engine, in this process: the process boundary's own cases
// are in clusterScaleSerialization and under the real CLI) against the emulator: what preview shows and sends, what up
// applies and records, what refresh finds, and what destroy leaves alone.
import * as assert from "assert";
import type { BrokerLayout, ChangeRecord } from "../../provider/clusterScale/types";
import { waitForChange } from "../../sdk/cluster/changeWaiter";
import { ClusterScaleFixture, apiLayout, dryRuns, failed, layout, mutating, output, printed, requestLine, succeeded } from "./clusterScaleSupport";

describe("ClusterScale: preview, up, refresh and destroy", function () {
    this.timeout(120_000);
    const fixture = new ClusterScaleFixture("in-process");

    before(() => fixture.start());
    after(() => fixture.stop());

    describe("scaling up from 3 to 4 brokers (completion confirmed by the gateway)", function () {
        // Every run of this story names the gateway in the stack config.
        const withGateway = () => ({ config: { "platform:gatewayUrl": fixture.emulator.gatewayUrl } });
        before(() => {
            fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
            fixture.emulator.control.startBroker(3);
        });

        it("preview prints the server's plan from exactly one dry run, reads which brokers run from the gateway, and sends nothing else", async () => {
            const run = await fixture.run("preview", { brokerCount: 4 }, withGateway());
            succeeded(run);
            assert.deepStrictEqual(run.requests.map(requestLine), ["POST /actuator/cluster/brokers?dryRun=true 202", "GET /v2/topology 200"]);
            assert.deepStrictEqual(dryRuns(run.requests)[0].body, [0, 1, 2, 3]);
            assert.ok(!fixture.emulator.control.requests().some((entry) => entry.interface === "auth"), "preview asked for a token");
            assert.ok(printed(run, 'ClusterScale "cluster": up will apply 8 operations (change 2)'), run.result.stdout);
            assert.ok(printed(run, "brokers added: 3"), run.result.stdout);
            assert.ok(printed(run, "partition 2: broker 0 → broker 3"), run.result.stdout);
            assert.ok(printed(run, "partition 3: broker 1 → broker 3, priority of broker 0: 2 → 1"), run.result.stdout);
            assert.ok(printed(run, "broker 3: 2(1) 3(2)"), run.result.stdout);
            assert.deepStrictEqual(
                run.result.steps.map((step) => `${step.op} ${step.name}`).filter((s) => s.endsWith(" cluster")),
                ["create cluster"],
            );
        });

        it("up sends the request once, waits, and ends with the layout the dry run expected", async () => {
            const expected = await fixture.cluster().scaleBrokers([0, 1, 2, 3], { dryRun: true });
            // Broker 3 starts only once up reports the first operation running, so that line is observed, not raced.
            fixture.emulator.control.stopBroker(3);
            const run = await fixture.run(
                "up",
                { brokerCount: 4 },
                {
                    ...withGateway(),
                    onLine: (line) => {
                        if (line.includes(`change ${expected.changeId} [2/8] BROKER_ADD broker 3`)) fixture.emulator.control.startBroker(3);
                    },
                },
            );
            succeeded(run);
            assert.deepStrictEqual(mutating(run.requests).map(requestLine), ["POST /actuator/cluster/brokers?replicationFactor=3 202"]);
            assert.deepStrictEqual(layout(output<BrokerLayout[]>(run, "topology")), apiLayout(expected.expectedTopology));
            assert.strictEqual(output(run, "changeId"), expected.changeId);
            assert.strictEqual(output(run, "partitionCount"), 3);
            assert.strictEqual(output(run, "replicationFactor"), 3);
            assert.strictEqual(output<ChangeRecord>(run, "lastChange").status, "COMPLETED");
            assert.deepStrictEqual(
                output<{ operation: string }[]>(run, "plannedChanges").map((change) => change.operation),
                expected.plannedChanges.map((change) => change.operation),
            );
            assert.ok(printed(run, `change ${expected.changeId} accepted`, "8 operations"), run.result.stdout);
            assert.ok(printed(run, `change ${expected.changeId} [2/8] BROKER_ADD broker 3`), run.result.stdout);
            assert.ok(printed(run, `change ${expected.changeId} completed: 4 brokers, 3 partitions, replication factor 3`), run.result.stdout);
            const gatewayReads = run.requests.filter((entry) => entry.interface === "gateway");
            assert.ok(gatewayReads.length >= 2 && gatewayReads.every((entry) => entry.path === "/v2/topology"), "completion was not confirmed by the gateway");
            // Which brokers run is read before the request is sent; completion is confirmed after it.
            assert.ok(run.requests.indexOf(gatewayReads[0]) < run.requests.indexOf(mutating(run.requests)[0]));
            assert.ok(run.requests.indexOf(gatewayReads[gatewayReads.length - 1]) > run.requests.indexOf(mutating(run.requests)[0]));
            assert.ok(printed(run, "new broker 3 is not running yet: the change waits for it to start"), run.result.stdout);
            const live = await fixture.cluster().getCluster();
            assert.deepStrictEqual(apiLayout(live.brokers), apiLayout(expected.expectedTopology));
            const state = run.resource!;
            assert.strictEqual(typeof state.outputs.__provider, "string");
            assert.strictEqual(state.outputs.auth, undefined);
        });

        it("a second preview shows no change and changes nothing", async () => {
            const run = await fixture.run("preview", { brokerCount: 4 }, withGateway());
            succeeded(run);
            assert.ok(
                run.result.steps.some((step) => step.name === "cluster" && step.op === "same"),
                run.result.stdout,
            );
            assert.deepStrictEqual(run.requests.map(requestLine), ["POST /actuator/cluster/brokers?dryRun=true&replicationFactor=3 202"]);
            assert.deepStrictEqual(run.hostLines, []);
        });

        it("refresh finds drift made behind Pulumi's back, and the next preview plans to undo it", async () => {
            const cluster = fixture.cluster();
            const drift = await cluster.scaleBrokers([0, 1, 2], {});
            await waitForChange({ changeId: drift.changeId, cluster });
            const refresh = await fixture.run("refresh", { brokerCount: 4 }, withGateway());
            succeeded(refresh);
            assert.deepStrictEqual(mutating(refresh.requests), []);
            const state = refresh.resource!;
            assert.deepStrictEqual(state.inputs.brokerCount, 3, "refresh records the live broker set as inputs");
            assert.deepStrictEqual(state.inputs.partitionCount, 3);
            assert.deepStrictEqual(state.outputs.changeId, drift.changeId);
            assert.deepStrictEqual(
                (state.outputs.topology as unknown as BrokerLayout[]).map((broker) => broker.id),
                [0, 1, 2],
            );

            const preview = await fixture.run("preview", { brokerCount: 4 }, withGateway());
            succeeded(preview);
            assert.ok(
                preview.result.steps.some((step) => step.name === "cluster" && step.op === "update"),
                preview.result.stdout,
            );
            assert.ok(printed(preview, "brokers added: 3"), preview.result.stdout);
            assert.deepStrictEqual(mutating(preview.requests), []);
        });

        it("destroy removes the resource from the stack and sends nothing to the cluster", async () => {
            const before = await fixture.cluster().getCluster();
            const run = await fixture.run("destroy", { brokerCount: 4 }, withGateway());
            succeeded(run);
            assert.deepStrictEqual(run.requests, []);
            assert.ok(printed(run, "removed from the stack only, nothing is sent to the cluster (a cluster layout cannot be deleted)"), run.result.stdout);
            assert.strictEqual(run.resource, undefined);
            assert.strictEqual((await fixture.cluster().getCluster()).version, before.version);
        });
    });

    it("scales down: partitions move away from the leaving broker before it is removed", async () => {
        fixture.reset({ brokers: 4, partitions: 4, replicationFactor: 2 });
        const expected = await fixture.cluster().scaleBrokers([0, 1, 2], { dryRun: true });
        const run = await fixture.run("up", { brokers: [2, 0, 1] });
        succeeded(run);
        assert.deepStrictEqual(mutating(run.requests).map(requestLine), ["POST /actuator/cluster/brokers?replicationFactor=2 202"]);
        assert.deepStrictEqual(mutating(run.requests)[0].body, [0, 1, 2]);
        assert.ok(printed(run, "brokers removed: 3"), run.result.stdout);
        const operations = output<{ operation: string; brokerId?: number }[]>(run, "plannedChanges");
        // The newest release wraps a change of the member set in PRE_SCALING and POST_SCALING.
        assert.deepStrictEqual(operations.slice(-2), [
            { operation: "BROKER_REMOVE", brokerId: 3 },
            { operation: "POST_SCALING", brokerId: 0, brokers: [0, 1, 2] },
        ]);
        assert.deepStrictEqual(layout(output<BrokerLayout[]>(run, "topology")), apiLayout(expected.expectedTopology));
    });

    it("changes the replication factor with POST /brokers?replicationFactor=", async () => {
        fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 1 });
        const expected = await fixture.cluster().scaleBrokers([0, 1, 2], { dryRun: true, replicationFactor: 3 });
        const run = await fixture.run("up", { brokerCount: 3, replicationFactor: 3 });
        succeeded(run);
        // Check prints the plan of a resource not yet in state, in up as in preview.
        assert.ok(printed(run, "partition 1: new replica on broker 1, new replica on broker 2, priority of broker 0: 1 → 3"), run.result.stdout);
        assert.deepStrictEqual(mutating(run.requests).map(requestLine), ["POST /actuator/cluster/brokers?replicationFactor=3 202"]);
        assert.strictEqual(output(run, "replicationFactor"), 3);
        assert.deepStrictEqual(layout(output<BrokerLayout[]>(run, "topology")), apiLayout(expected.expectedTopology));
    });

    it("adopts a cluster that already has the layout: up records it without sending a change", async () => {
        fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
        const run = await fixture.run("up", { brokers: [0, 1, 2], partitionCount: 3, replicationFactor: 3 });
        succeeded(run);
        assert.ok(printed(run, "the cluster already has this layout; up will record it without sending a change"), run.result.stdout);
        assert.deepStrictEqual(mutating(run.requests), []);
        assert.strictEqual(output(run, "changeId"), 0);
        assert.deepStrictEqual(output(run, "plannedChanges"), []);
        assert.deepStrictEqual(
            layout(output<BrokerLayout[]>(run, "topology")).map((broker) => broker.id),
            [0, 1, 2],
        );
    });

    it("refuses an up whose layout the cluster rejects, naming the server's reason, with nothing sent", async () => {
        fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
        // Valid for the inputs alone (the replication factor is not among them), invalid for the live cluster.
        const run = await fixture.run("up", { brokerCount: 2 });
        const stderr = failed(run);
        assert.match(stderr, /Number of brokers \[2\] is less than the replication factor \[3\]/);
        assert.deepStrictEqual(mutating(run.requests), []);
    });
});
