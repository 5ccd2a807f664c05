// The scale scenarios on both platform releases the emulator serves: 8.9 (the newest) wraps a change of the member set
// in PRE_SCALING and POST_SCALING and reports a cluster id; 8.8 does neither. ClusterScale previews, applies, records
// and finds nothing left to do on each, with the plan the server made.
import * as assert from "assert";
import type { BrokerLayout } from "../../provider/clusterScale/types";
import type { Release } from "../emulator/settings";
import { ClusterScaleFixture, apiLayout, layout, mutating, output, printed, requestLine, succeeded } from "./clusterScaleSupport";

const SCALING_OPERATIONS: Record<Release, string[]> = { "8.9": ["PRE_SCALING", "POST_SCALING"], "8.8": [] };

describe("ClusterScale on each platform release", function () {
    this.timeout(120_000);
    const fixture = new ClusterScaleFixture("in-process");

    before(() => fixture.start());
    after(() => fixture.stop());

    for (const release of ["8.9", "8.8"] as const) {
        describe(`release ${release}`, () => {
            it("scales up: the preview's plan is the server's, up sends it once and records it, and the next preview finds nothing to do", async () => {
                fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3, release });
                fixture.emulator.control.startBroker(3);
                const expected = await fixture.cluster().scaleBrokers([0, 1, 2, 3], { dryRun: true });
                const total = expected.plannedChanges.length;
                const scaling = expected.plannedChanges.map((change) => change.operation).filter((name) => name.endsWith("_SCALING"));
                assert.deepStrictEqual(scaling, SCALING_OPERATIONS[release]);

                const up = await fixture.run("up", { brokerCount: 4 });
                succeeded(up);
                assert.ok(printed(up, `up will apply ${total} operations (change 2)`), up.result.stdout);
                assert.deepStrictEqual(mutating(up.requests).map(requestLine), ["POST /actuator/cluster/brokers?replicationFactor=3 202"]);
                assert.deepStrictEqual(
                    output<{ operation: string }[]>(up, "plannedChanges").map((change) => change.operation),
                    expected.plannedChanges.map((change) => change.operation),
                );
                assert.deepStrictEqual(layout(output<BrokerLayout[]>(up, "topology")), apiLayout(expected.expectedTopology));
                assert.strictEqual((await fixture.cluster().getCluster()).clusterId === undefined, release === "8.8");

                const again = await fixture.run("preview", { brokerCount: 4 });
                succeeded(again);
                assert.ok(
                    again.result.steps.some((step) => step.name === "cluster" && step.op === "same"),
                    again.result.stdout,
                );
            });

            it("scales down: the leaving broker's partitions move first, and the removal closes the change (before POST_SCALING on 8.9)", async () => {
                fixture.reset({ brokers: 4, partitions: 4, replicationFactor: 2, release });
                const up = await fixture.run("up", { brokerCount: 3 });
                succeeded(up);
                const operations = output<{ operation: string; brokerId?: number }[]>(up, "plannedChanges").map((change) => change.operation);
                const [opening, closing] = release === "8.9" ? [["PRE_SCALING"], ["BROKER_REMOVE", "POST_SCALING"]] : [[], ["BROKER_REMOVE"]];
                assert.deepStrictEqual(operations.slice(0, opening.length), opening);
                assert.deepStrictEqual(operations.slice(-closing.length), closing);
                assert.deepStrictEqual(
                    layout(output<BrokerLayout[]>(up, "topology")).map((broker) => broker.id),
                    [0, 1, 2],
                );
            });
        });
    }
});
