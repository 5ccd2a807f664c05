// ClusterScale under what Pulumi's own engine does (test/engine/pulumiSemantics.spec.ts pins the engine): an up makes a
// preview pass first, refresh diffs every resource and clears init errors, and a partially failed update keeps the
// old inputs. Each case runs through the real provider host against the emulator.
import * as assert from "assert";
import { waitForChange } from "../../sdk/cluster/changeWaiter";
import type { ChangeRecord } from "../../provider/clusterScale/types";
import { ClusterScaleFixture, dryRuns, failed, mutating, output, printed, requestLine, succeeded } from "./clusterScaleSupport";

describe("ClusterScale under Pulumi's engine", function () {
    this.timeout(120_000);
    // The cases run in the in-process engine (the same semantics); the up with its preview pass runs as the CLI does.
    const fixture = new ClusterScaleFixture("in-process");
    const step = (run: Awaited<ReturnType<ClusterScaleFixture["run"]>>) => run.result.steps.find((entry) => entry.name === "cluster")?.op;
    const hostLines = (run: Awaited<ReturnType<ClusterScaleFixture["run"]>>, pass: number) => run.result.passes[pass].diagnostics.map((d) => d.line);
    const completed = async (changeId: number) => waitForChange({ changeId, cluster: fixture.cluster(), timeoutMs: 30_000 });

    before(() => fixture.start());
    after(() => fixture.stop());

    it("up: the preview pass shows the plan, the update sends one request and shows its own lines, not the plan again", async () => {
        fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 2 });
        fixture.emulator.control.startBroker(3);
        const run = await fixture.run("up", { brokerCount: 4 }, { inProcess: false });
        succeeded(run);
        assert.deepStrictEqual(
            run.result.passes.map((pass) => pass.pass),
            ["preview", "up"],
        );
        assert.deepStrictEqual(mutating(run.requests).map(requestLine), ["POST /actuator/cluster/brokers?replicationFactor=2 202"]);
        const preview = hostLines(run, 0);
        const update = hostLines(run, 1);
        assert.ok(
            preview.some((line) => line.startsWith('ClusterScale "cluster": up will apply')),
            preview.join("\n"),
        );
        assert.ok(!update.some((line) => line.includes("up will apply") || line.includes("expected layout")), update.join("\n"));
        assert.ok(
            update.some((line) => /change \d+ accepted/.test(line)),
            update.join("\n"),
        );
        assert.ok(
            update.some((line) => /change \d+ completed/.test(line)),
            update.join("\n"),
        );
    });

    describe("refresh of a cluster that differs from the program (changed outside Pulumi)", function () {
        before(async () => {
            fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 2, partitionScaling: true });
            succeeded(await fixture.run("up", { brokerCount: 3, partitionCount: 3 }, { skipPreview: true }));
            fixture.emulator.control.startBroker(3);
            const outside = await fixture.cluster().patchCluster({ brokers: { add: [3] }, partitions: { count: 4, replicationFactor: 2 } });
            await completed(outside.changeId);
        });

        it("refresh succeeds and shows the drift, sending nothing that changes the cluster and no dry run", async () => {
            const run = await fixture.run("refresh", { brokerCount: 3, partitionCount: 3 });
            succeeded(run);
            assert.strictEqual(step(run), "update", run.result.stdout);
            assert.ok(
                printed(run, "the cluster differs from the program: brokers 0, 1, 2, 3 (the program: 0, 1, 2); 4 partitions (the program: 3)"),
                run.result.stdout,
            );
            assert.deepStrictEqual(mutating(run.requests), []);
            assert.deepStrictEqual(dryRuns(run.requests), []);
            // One read per pass (its preview, then the refresh).
            assert.deepStrictEqual(run.requests.map(requestLine), ["GET /actuator/cluster 200", "GET /actuator/cluster 200"]);
            assert.strictEqual(run.resource!.inputs.partitionCount, 4);
        });

        it("the next preview refuses what cannot be undone (fewer partitions), and plans the rest", async () => {
            const refused = await fixture.run("preview", { brokerCount: 3, partitionCount: 3 });
            assert.match(failed(refused), /partitionCount 3 is below the current 4: partitions can only be added, never removed/);
            const planned = await fixture.run("preview", { brokerCount: 3 });
            succeeded(planned);
            assert.strictEqual(step(planned), "update");
            assert.ok(printed(planned, "brokers removed: 3"), planned.result.stdout);
            assert.deepStrictEqual(mutating(planned.requests), []);
        });
    });

    describe("a change left in flight by an up that timed out, then a refresh", function () {
        let changeId = 0;
        before(async () => {
            fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 2 });
            // Broker 3 does not run: the change waits at BROKER_ADD beyond timeoutSeconds.
            const timedOut = await fixture.run("up", { brokerCount: 4, timeoutSeconds: 1 }, { skipPreview: true });
            assert.match(failed(timedOut), /did not complete within timeoutSeconds/);
            changeId = timedOut.resource!.outputs.changeId as number;
        });

        it("refresh keeps the change in flight, sends nothing to the cluster, and clears the init errors as the engine does", async () => {
            const run = await fixture.run("refresh", { brokerCount: 4, timeoutSeconds: 1 });
            succeeded(run);
            assert.deepStrictEqual(run.requests, []);
            assert.strictEqual(run.resource!.initErrors, undefined);
            assert.strictEqual((run.resource!.outputs.lastChange as unknown as ChangeRecord).status, "IN_PROGRESS");
        });

        it("once the change completed, the next up of the unchanged program records it: an update that sends nothing", async () => {
            fixture.emulator.control.startBroker(3);
            await completed(changeId);
            const run = await fixture.run("up", { brokerCount: 4, timeoutSeconds: 1 });
            succeeded(run);
            assert.deepStrictEqual(
                run.result.passes.map((pass) => pass.steps.find((entry) => entry.name === "cluster")?.op),
                ["update", "update"],
            );
            assert.deepStrictEqual(mutating(run.requests), []);
            assert.strictEqual(output<ChangeRecord>(run, "lastChange").status, "COMPLETED");
            assert.strictEqual(output<number>(run, "changeId"), changeId);
            assert.ok(printed(run, `change ${changeId} is recorded as in progress (an earlier up timed out); up will record how it ended`), run.result.stdout);
        });
    });

    describe("after a partially failed update, the state keeps the old inputs", function () {
        let changeId = 0;
        before(async () => {
            fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 2 });
            succeeded(await fixture.run("up", { brokers: [0, 1, 2] }, { skipPreview: true }));
            const timedOut = await fixture.run("up", { brokers: [0, 1, 2, 3], timeoutSeconds: 1 }, { skipPreview: true });
            assert.match(failed(timedOut), /did not complete within timeoutSeconds/);
            assert.deepStrictEqual(timedOut.resource!.inputs.brokers, [0, 1, 2]);
            changeId = timedOut.resource!.outputs.changeId as number;
        });

        it("a force removal that keeps the broker the timed-out change added is checked against the cluster, not the old inputs", async () => {
            fixture.emulator.control.startBroker(3);
            await completed(changeId);
            fixture.emulator.control.stopBroker(2);
            const run = await fixture.run("up", { brokers: [0, 1, 3], force: true });
            succeeded(run);
            assert.deepStrictEqual(mutating(run.requests).map(requestLine), ["POST /actuator/cluster/brokers?force=true 202"]);
            assert.ok(run.result.steps.some((entry) => entry.name === "cluster" && entry.op === "replace"));
            assert.deepStrictEqual(run.resource!.inputs.brokers, [0, 1, 3]);
        });

        it("a force removal that would add a broker that is not a member is still refused in preview, naming it", async () => {
            const run = await fixture.run("preview", { brokers: [0, 1, 3, 5], force: true });
            assert.match(failed(run), /force removal cannot add brokers \(5 is not a member of the cluster\): add them in a separate update without force/);
            assert.deepStrictEqual(mutating(run.requests), []);
        });
    });
});
