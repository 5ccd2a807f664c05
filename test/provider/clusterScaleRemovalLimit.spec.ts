// ClusterScale's maxBrokersRemoved, the "at most N brokers removed in one change" a policy cannot check (it never sees
// the old layout): counted against the cluster's own members, refused at preview and at up before anything is sent,
// on create as on update; raising it alone sends nothing. Through the real provider host against the emulator.
import * as assert from "assert";
import { ClusterScaleFixture, failed, mutating, requestLine, succeeded } from "./clusterScaleSupport";

describe("ClusterScale maxBrokersRemoved", function () {
    this.timeout(120_000);
    const fixture = new ClusterScaleFixture("in-process");
    const members = async () => (await fixture.cluster().getCluster()).brokers.map((broker) => broker.id).sort((a, b) => a - b);

    before(() => fixture.start());
    after(() => fixture.stop());

    it("a new resource on a cluster of 5 asking for 2 brokers with maxBrokersRemoved 2: preview and up refuse, nothing sent", async () => {
        fixture.reset({ brokers: 5, partitions: 3, replicationFactor: 2 });
        for (const command of ["preview", "up"] as const) {
            const run = await fixture.run(command, { brokerCount: 2, replicationFactor: 2, maxBrokersRemoved: 2 });
            assert.match(
                failed(run),
                /maxBrokersRemoved: this change removes 3 brokers \(2, 3, 4\) of the cluster's 5, more than maxBrokersRemoved 2: remove them over several updates, or raise the limit for this one/,
            );
            assert.deepStrictEqual(mutating(run.requests).map(requestLine), [], command);
        }
        assert.deepStrictEqual(await members(), [0, 1, 2, 3, 4]);
    });

    it("an update within the limit applies; one beyond it is refused at preview and up; raising the limit alone sends nothing", async () => {
        fixture.reset({ brokers: 5, partitions: 3, replicationFactor: 2 });
        succeeded(await fixture.run("up", { brokerCount: 5, replicationFactor: 2, maxBrokersRemoved: 1 }));
        const within = await fixture.run("up", { brokerCount: 4, replicationFactor: 2, maxBrokersRemoved: 1 });
        succeeded(within);
        assert.strictEqual(mutating(within.requests).length, 1, mutating(within.requests).map(requestLine).join("\n"));
        assert.deepStrictEqual(await members(), [0, 1, 2, 3]);

        for (const command of ["preview", "up"] as const) {
            const run = await fixture.run(command, { brokerCount: 2, replicationFactor: 2, maxBrokersRemoved: 1 });
            assert.match(failed(run), /this change removes 2 brokers \(2, 3\) of the cluster's 4, more than maxBrokersRemoved 1/);
            assert.deepStrictEqual(mutating(run.requests).map(requestLine), [], command);
        }
        const raised = await fixture.run("up", { brokerCount: 4, replicationFactor: 2, maxBrokersRemoved: 2 });
        succeeded(raised);
        assert.deepStrictEqual(mutating(raised.requests).map(requestLine), []);
        assert.strictEqual(raised.resource?.outputs.maxBrokersRemoved, 2);
    });

    it("a limit that is not a count is a check failure naming the field and the rule", async () => {
        fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 2 });
        const run = await fixture.run("preview", { brokerCount: 3, maxBrokersRemoved: -1 });
        assert.match(failed(run), /maxBrokersRemoved is -1: it must be an integer ≥ 0 and at most 1024/);
        assert.deepStrictEqual(run.requests, []);
    });
});
