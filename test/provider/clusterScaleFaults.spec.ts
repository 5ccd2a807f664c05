// ClusterScale when things go wrong or others act: force removal of a dead broker, a change that outlasts the
// timeout (and the next up that resumes it), a change someone else started, and a management API that cannot
// be reached during preview.
import * as assert from "assert";
import type { BrokerLayout, ChangeRecord } from "../../provider/clusterScale/types";
import { waitForChange } from "../../sdk/cluster/changeWaiter";
import { unusedPort } from "../support/ports";
import { ClusterScaleFixture, dryRuns, failed, layout, mutating, output, printed, requestLine, succeeded } from "./clusterScaleSupport";

describe("ClusterScale: faults, timeouts and changes started elsewhere", function () {
    this.timeout(120_000);
    const fixture = new ClusterScaleFixture("in-process");

    before(() => fixture.start());
    after(() => fixture.stop());

    describe("force removal of a stopped broker", function () {
        before(async () => {
            fixture.reset({ brokers: 4, partitions: 4, replicationFactor: 2 });
            succeeded(await fixture.run("up", { brokerCount: 4 }));
            fixture.emulator.control.stopBroker(3);
        });

        it("preview shows it as a replacement, with the plan, and changes nothing", async () => {
            const run = await fixture.run("preview", { brokers: [0, 1, 2], force: true });
            succeeded(run);
            assert.ok(
                run.result.steps.some((step) => step.name === "cluster" && step.op === "replace"),
                run.result.stdout,
            );
            assert.ok(printed(run, "force removal of broker(s) 3 replaces this resource"), run.result.stdout);
            assert.ok(printed(run, "brokers removed by force (their partitions are not moved): 3"), run.result.stdout);
            assert.deepStrictEqual(mutating(run.requests), []);
            assert.ok(
                dryRuns(run.requests).every((entry) => entry.query.force === "true"),
                run.requests.map(requestLine).join("\n"),
            );
        });

        it("up replaces the resource and sends the removal once, with force", async () => {
            const run = await fixture.run("up", { brokers: [0, 1, 2], force: true });
            succeeded(run);
            assert.ok(
                run.result.steps.some((step) => step.name === "cluster" && step.op === "replace"),
                run.result.stdout,
            );
            assert.deepStrictEqual(mutating(run.requests).map(requestLine), ["POST /actuator/cluster/brokers?force=true 202"]);
            assert.deepStrictEqual(mutating(run.requests)[0].body, [0, 1, 2]);
            assert.deepStrictEqual(
                layout(output<BrokerLayout[]>(run, "topology")).map((broker) => broker.id),
                [0, 1, 2],
            );
            assert.strictEqual(output(run, "replicationFactor"), 1, "partitions that lost a replica keep one");
        });

        it("a later preview with force still set shows no change", async () => {
            const run = await fixture.run("preview", { brokers: [0, 1, 2], force: true });
            succeeded(run);
            assert.ok(
                run.result.steps.some((step) => step.name === "cluster" && step.op === "same"),
                run.result.stdout,
            );
            assert.deepStrictEqual(mutating(run.requests), []);
        });

        it("a preview that cannot reach the management API compares with the recorded layout, in one line", async () => {
            fixture.emulator.control.addFault({ interface: "management", count: 1, reset: true });
            const run = await fixture.run("preview", { brokers: [0, 1, 2], force: true });
            succeeded(run);
            assert.deepStrictEqual(run.hostLines.length, 1, run.hostLines.join("\n"));
            assert.match(run.hostLines[0], /cannot reach the management API .*compared with the recorded layout: no change/);
            assert.ok(
                run.result.steps.some((step) => step.name === "cluster" && step.op === "same"),
                run.result.stdout,
            );
        });
    });

    describe("PLATFORM_PREVIEW_REQUIRE_CLUSTER=true (a pull request's preview insists on the cluster's own plan)", function () {
        const requireCluster = { env: { PLATFORM_PREVIEW_REQUIRE_CLUSTER: "true" } };

        it("a resource in state: an unreachable management API fails the preview instead of comparing with the recorded layout", async () => {
            fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
            succeeded(await fixture.run("up", { brokerCount: 3 }));
            fixture.emulator.control.addFault({ interface: "management", count: 1, reset: true });
            const run = await fixture.run("preview", { brokerCount: 3 }, requireCluster);
            assert.match(
                failed(run),
                /cannot reach the management API \(.*\), and PLATFORM_PREVIEW_REQUIRE_CLUSTER asks for the cluster's own plan: no preview without it/,
            );
        });

        it("a new resource: the check fails, naming managementUrl", async () => {
            fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
            const run = await fixture.run("preview", { managementUrl: `http://127.0.0.1:${await unusedPort()}`, brokerCount: 3 }, requireCluster);
            assert.match(failed(run), /has a problem: managementUrl: .*ECONNREFUSED.*PLATFORM_PREVIEW_REQUIRE_CLUSTER/);
        });
    });

    describe("a change that outlasts timeoutSeconds (the new broker is not running)", function () {
        let changeId: number;

        before(() => fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3 }));

        it("up fails as a partial failure that keeps the change id (and __provider) in state", async () => {
            const run = await fixture.run("up", { brokerCount: 4, timeoutSeconds: 1 });
            const stderr = failed(run);
            assert.match(stderr, /change \d+ did not complete within timeoutSeconds \(1 s\) \(1\/8 operations done; running: BROKER_ADD broker 3\)/);
            assert.match(stderr, /it keeps running: the next up waits for it instead of sending a new request/);
            assert.deepStrictEqual(mutating(run.requests).map(requestLine), ["POST /actuator/cluster/brokers?replicationFactor=3 202"]);
            const state = run.resource!;
            assert.ok(state.initErrors && state.initErrors.length > 0, "the resource is kept with init errors");
            assert.strictEqual(typeof state.outputs.__provider, "string");
            changeId = state.outputs.changeId as number;
            assert.strictEqual((await fixture.cluster().getCluster()).pendingChange?.id, changeId);
            assert.deepStrictEqual(state.outputs.lastChange, { id: changeId, status: "IN_PROGRESS" });
        });

        it("preview says up will wait for that change", async () => {
            const run = await fixture.run("preview", { brokerCount: 4, timeoutSeconds: 1 });
            succeeded(run);
            assert.ok(printed(run, `change ${changeId} is in progress; up will wait for it`), run.result.stdout);
            assert.deepStrictEqual(mutating(run.requests), []);
        });

        it("refresh meanwhile keeps the recorded layout and the change id (the kept provider), sending nothing", async () => {
            const run = await fixture.run("refresh", { brokerCount: 4, timeoutSeconds: 1 });
            succeeded(run);
            assert.ok(printed(run, `change ${changeId} had not completed when last applied; run up to resume waiting for it`), run.result.stdout);
            assert.deepStrictEqual(run.requests, []);
            assert.deepStrictEqual(run.resource!.outputs.lastChange, { id: changeId, status: "IN_PROGRESS" });
        });

        it("the next up resumes waiting for the same change, and sends nothing new", async () => {
            const run = await fixture.run(
                "up",
                { brokerCount: 4, timeoutSeconds: 60 },
                {
                    // The broker starts only once up is waiting, so the resumed wait is observed, not raced.
                    onLine: (line) => {
                        if (line.includes(`change ${changeId} (started by an earlier run) is in progress; waiting for it`))
                            fixture.emulator.control.startBroker(3);
                    },
                },
            );
            succeeded(run);
            assert.deepStrictEqual(mutating(run.requests), [], "a second scale request was sent");
            // Progress of the resumed change is shown (which operation the first poll sees depends on timing).
            assert.ok(
                run.hostLines.some((line) => line.includes(`change ${changeId} [`)),
                run.result.stdout,
            );
            assert.ok(printed(run, `change ${changeId} [8/8] done`), run.result.stdout);
            assert.strictEqual(output(run, "changeId"), changeId);
            assert.strictEqual(output<ChangeRecord>(run, "lastChange").status, "COMPLETED");
            assert.strictEqual(output<unknown[]>(run, "plannedChanges").length, 8, "the plan of the resumed change is kept");
            assert.deepStrictEqual(
                layout(output<BrokerLayout[]>(run, "topology")).map((broker) => broker.id),
                [0, 1, 2, 3],
            );
            assert.strictEqual(run.resource!.initErrors, undefined);
        });
    });

    it("a change that timed out and then completed unattended: the next up records it and sends nothing", async () => {
        fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
        const first = await fixture.run("up", { brokerCount: 4, timeoutSeconds: 1 });
        failed(first);
        const changeId = first.resource!.outputs.changeId as number;
        fixture.emulator.control.startBroker(3);
        await waitForChange({ changeId, cluster: fixture.cluster() });

        const run = await fixture.run("up", { brokerCount: 4, timeoutSeconds: 60 });
        succeeded(run);
        assert.deepStrictEqual(mutating(run.requests), []);
        assert.ok(printed(run, "the cluster has the requested layout", "nothing to send"), run.result.stdout);
        assert.strictEqual(output(run, "changeId"), changeId);
        assert.strictEqual(output<unknown[]>(run, "plannedChanges").length, 8, "the plan of the change the earlier run sent is kept");
    });

    it("with cancelOnTimeout, a change that outlasts the timeout is cancelled; destroy sends nothing; the next up plans anew", async () => {
        fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
        const first = await fixture.run("up", { brokerCount: 4, timeoutSeconds: 1, cancelOnTimeout: true });
        assert.match(failed(first), /it was cancelled \(cancelOnTimeout\)/);
        const cancelledId = first.resource!.outputs.changeId as number;
        assert.deepStrictEqual(mutating(first.requests).map(requestLine), [
            "POST /actuator/cluster/brokers?replicationFactor=3 202",
            `DELETE /actuator/cluster/changes/${cancelledId} 200`,
        ]);
        assert.deepStrictEqual(first.resource!.outputs.lastChange, { id: cancelledId, status: "CANCELLED" });

        // Destroy works on what the partial failure kept, and sends nothing.
        const destroy = await fixture.run("destroy", { brokerCount: 4 });
        succeeded(destroy);
        assert.deepStrictEqual(destroy.requests, []);
        assert.ok(printed(destroy, "removed from the stack only, nothing is sent to the cluster"), destroy.result.stdout);
        assert.strictEqual(destroy.resource, undefined);

        fixture.emulator.control.startBroker(3);
        const second = await fixture.run("up", { brokerCount: 4, timeoutSeconds: 60, cancelOnTimeout: true });
        succeeded(second);
        assert.deepStrictEqual(mutating(second.requests).map(requestLine), ["POST /actuator/cluster/brokers?replicationFactor=3 202"]);
        assert.ok((output(second, "changeId") as number) > cancelledId);
        assert.deepStrictEqual(
            layout(output<BrokerLayout[]>(second, "topology")).map((broker) => broker.id),
            [0, 1, 2, 3],
        );
    });

    it("a change already running (started directly): preview names it, up waits for it and then applies", async () => {
        fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
        // Stalls at BROKER_ADD until broker 3 starts.
        const foreign = await fixture.cluster().scaleBrokers([0, 1, 2, 3]);

        const preview = await fixture.run("preview", { brokerCount: 4, replicationFactor: 2 });
        succeeded(preview);
        assert.ok(printed(preview, `change ${foreign.changeId} is in progress; up will wait for it, then plan and apply this layout`), preview.result.stdout);
        assert.deepStrictEqual(mutating(preview.requests), []);

        const up = await fixture.run(
            "up",
            { brokerCount: 4, replicationFactor: 2 },
            {
                // Start the broker only once up is waiting, so the wait is observed, not raced.
                onLine: (line) => {
                    if (line.includes(`change ${foreign.changeId} (started outside this resource, or by an interrupted run) is in progress`))
                        fixture.emulator.control.startBroker(3);
                },
            },
        );
        succeeded(up);
        assert.deepStrictEqual(mutating(up.requests).map(requestLine), ["POST /actuator/cluster/brokers?replicationFactor=2 202"]);
        const cluster = await fixture.cluster().getCluster();
        assert.strictEqual(cluster.lastChange?.status, "COMPLETED");
        assert.ok((output(up, "changeId") as number) > foreign.changeId);
        assert.strictEqual(output(up, "replicationFactor"), 2);
        assert.deepStrictEqual(
            layout(output<BrokerLayout[]>(up, "topology")).map((broker) => broker.id),
            [0, 1, 2, 3],
        );
    });

    it("a scale request whose answer is lost after the cluster accepted it is not sent again: up finds and waits for the change", async () => {
        fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
        fixture.emulator.control.startBroker(3);
        // The cluster acts on the first real (not dry-run) scale request, then its answer is lost: a 504, as from a
        // gateway whose upstream call timed out after the coordinator acted.
        fixture.emulator.control.addFault({ interface: "management", method: "POST", query: { dryRun: null }, count: 1, status: 504, afterProcessing: true });
        const run = await fixture.run("up", { brokerCount: 4 });
        succeeded(run);
        assert.deepStrictEqual(
            mutating(run.requests).map(requestLine),
            ["POST /actuator/cluster/brokers?replicationFactor=3 504"],
            "the request was sent again, or its answer was not lost",
        );
        assert.ok(printed(run, "the request may or may not have been accepted"), run.result.stdout);
        const cluster = await fixture.cluster().getCluster();
        assert.strictEqual(output(run, "changeId"), cluster.lastChange?.id);
        assert.strictEqual(output<ChangeRecord>(run, "lastChange").status, "COMPLETED");
        assert.ok(output<unknown[]>(run, "plannedChanges").length > 0, "the plan of the accepted change is recorded");
        assert.deepStrictEqual(
            layout(output<BrokerLayout[]>(run, "topology")).map((broker) => broker.id),
            [0, 1, 2, 3],
        );
    });

    it("a management API that cannot be reached during the first preview: one line, no failure", async () => {
        fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
        const closedPort = await unusedPort();
        const run = await fixture.run("preview", { managementUrl: `http://127.0.0.1:${closedPort}`, brokerCount: 4 });
        succeeded(run);
        assert.deepStrictEqual(run.hostLines.length, 1, run.hostLines.join("\n"));
        assert.match(run.hostLines[0], /ClusterScale "cluster": the plan could not be computed: cannot reach the management API \(.*ECONNREFUSED/);
        assert.ok(
            run.result.steps.some((step) => step.name === "cluster" && step.op === "create"),
            run.result.stdout,
        );
    });
});
