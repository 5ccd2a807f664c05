// ClusterScale on the cluster's bad days: a plan never drops a replica, removes a live broker or adopts a change the
// program did not ask for, and every failure says what happened and leaves a state the next up resumes from.
// Each case runs through the real provider host against the emulator, as an operator would meet it.
import * as assert from "assert";
import type { BrokerLayout, ChangeRecord } from "../../provider/clusterScale/types";
import { waitForChange } from "../../sdk/cluster/changeWaiter";
import { unusedPort } from "../support/ports";
import { ClusterScaleFixture, dryRuns, failed, layout, mutating, output, printed, requestLine, succeeded } from "./clusterScaleSupport";

describe("ClusterScale on the cluster's bad days", function () {
    this.timeout(120_000);
    const fixture = new ClusterScaleFixture("in-process");
    const gatewayUrl = (): string => fixture.emulator.gatewayUrl;
    const replicasOf = (brokers: BrokerLayout[]): Record<number, number> => {
        const counts: Record<number, number> = {};
        for (const broker of brokers) for (const partition of broker.partitions) counts[partition.id] = (counts[partition.id] ?? 0) + 1;
        return counts;
    };
    const step = (run: Awaited<ReturnType<ClusterScaleFixture["run"]>>, name = "cluster") => run.result.steps.find((entry) => entry.name === name)?.op;

    before(() => fixture.start());
    after(() => fixture.stop());

    describe("replicas after a force removal (4 brokers, 4 partitions, replication factor 2; broker 3 stopped and force-removed)", function () {
        before(async () => {
            fixture.reset({ brokers: 4, partitions: 4, replicationFactor: 2 });
            succeeded(await fixture.run("up", { brokers: [0, 1, 2, 3] }));
            fixture.emulator.control.stopBroker(3);
            succeeded(await fixture.run("up", { brokers: [0, 1, 2], force: true }));
        });

        it("the force removal leaves partitions 3 and 4 with one replica, and the resource still intends two", async () => {
            const cluster = await fixture.cluster().getCluster();
            assert.deepStrictEqual(replicasOf(layout(cluster.brokers)), { 1: 2, 2: 2, 3: 1, 4: 1 });
            const run = await fixture.run("preview", { brokers: [0, 1, 2], force: true });
            succeeded(run);
            assert.strictEqual(run.resource!.outputs.intendedReplicationFactor, 2);
            assert.strictEqual(run.resource!.outputs.replicationFactor, 1);
        });

        it("while force stays true, preview shows no change and says that setting force back to false restores them", async () => {
            const run = await fixture.run("preview", { brokers: [0, 1, 2], force: true });
            succeeded(run);
            assert.strictEqual(step(run), "same", run.result.stdout);
            assert.ok(
                printed(run, "partitions 3, 4 run with 1 replica, below the intended replication factor 2: set force back to false and up restores them"),
                run.result.stdout,
            );
            assert.deepStrictEqual(mutating(run.requests), []);
        });

        it("with force back to false, preview shows the update that restores them, asking with the intended replication factor", async () => {
            const run = await fixture.run("preview", { brokers: [0, 1, 2] });
            succeeded(run);
            assert.strictEqual(step(run), "update", run.result.stdout);
            assert.ok(
                printed(run, "partitions 3, 4 run with 1 replica, below the intended replication factor 2; this change restores them"),
                run.result.stdout,
            );
            assert.ok(!printed(run, "dropped"), run.result.stdout);
            assert.deepStrictEqual(dryRuns(run.requests).map(requestLine), ["POST /actuator/cluster/brokers?dryRun=true&replicationFactor=2 202"]);
            assert.deepStrictEqual(mutating(run.requests), []);
        });

        it("up sends the layout with replicationFactor 2 (never the server's implicit minimum) and every partition has two replicas again", async () => {
            const run = await fixture.run("up", { brokers: [0, 1, 2] });
            succeeded(run);
            assert.deepStrictEqual(mutating(run.requests).map(requestLine), ["POST /actuator/cluster/brokers?replicationFactor=2 202"]);
            assert.deepStrictEqual(replicasOf(output<BrokerLayout[]>(run, "topology")), { 1: 2, 2: 2, 3: 2, 4: 2 });
            assert.strictEqual(output(run, "replicationFactor"), 2);
        });

        it("the next preview shows no change", async () => {
            const run = await fixture.run("preview", { brokers: [0, 1, 2] });
            succeeded(run);
            assert.strictEqual(step(run), "same", run.result.stdout);
            assert.ok(!printed(run, "below the intended replication factor"), run.result.stdout);
        });
    });

    it("a plan that would drop replicas the program did not lower is refused in preview and up, naming the partitions; saying so explicitly goes through", async () => {
        fixture.reset({ brokers: 4, partitions: 4, replicationFactor: 2 });
        succeeded(await fixture.run("up", { brokerCount: 4 }));
        // Behind the stack's back every partition gets a third replica.
        const raise = await fixture.cluster().scaleBrokers([0, 1, 2, 3], { replicationFactor: 3 });
        await waitForChange({ changeId: raise.changeId, cluster: fixture.cluster() });

        const preview = await fixture.run("preview", { brokerCount: 3 });
        const refusal = failed(preview);
        assert.match(refusal, /replicationFactor: the plan would drop replicas the program did not ask to drop: partition 1 \(3 → 2 replicas\)/);
        assert.match(refusal, /replicationFactor is not set and this resource intends 2 replicas per partition; set replicationFactor/);
        // Up refuses at the same point, its diff, before anything is sent.
        const up = await fixture.run("up", { brokerCount: 3 });
        assert.match(failed(up), /the plan would drop replicas the program did not ask to drop: partition 1 \(3 → 2 replicas\)/);
        assert.deepStrictEqual(mutating(up.requests), []);

        const explicit = await fixture.run("up", { brokerCount: 3, replicationFactor: 2 });
        succeeded(explicit);
        assert.deepStrictEqual(mutating(explicit.requests).map(requestLine), ["POST /actuator/cluster/brokers?replicationFactor=2 202"]);
        assert.deepStrictEqual(replicasOf(output<BrokerLayout[]>(explicit, "topology")), { 1: 2, 2: 2, 3: 2, 4: 2 });
    });

    describe("force removal of a broker that runs", function () {
        before(async () => {
            fixture.reset({ brokers: 4, partitions: 4, replicationFactor: 2 });
            succeeded(await fixture.run("up", { brokers: [0, 1, 2, 3] }));
        });

        it("with gatewayUrl (which lists broker 3 as running): refused in preview and in up, naming it; nothing is sent", async () => {
            const preview = await fixture.run("preview", { brokers: [0, 1, 2], force: true, gatewayUrl: gatewayUrl() });
            assert.match(failed(preview), /force: broker 3 is running \(the gateway lists it\): .*remove them without force \(set force to false\)/);
            const up = await fixture.run("up", { brokers: [0, 1, 2], force: true, gatewayUrl: gatewayUrl() });
            assert.match(failed(up), /force: broker 3 is running \(the gateway lists it\)/);
            assert.deepStrictEqual(mutating([...preview.requests, ...up.requests]), []);
            assert.deepStrictEqual(
                layout((await fixture.cluster().getCluster()).brokers).map((broker) => broker.id),
                [0, 1, 2, 3],
            );
        });

        it("without gatewayUrl: preview says that liveness could not be checked", async () => {
            const preview = await fixture.run("preview", { brokers: [0, 1, 2], force: true });
            succeeded(preview);
            assert.ok(
                printed(preview, "could not check that broker 3 is stopped (no gatewayUrl is set); a force removal of a running broker drops its replicas"),
                preview.result.stdout,
            );
            assert.deepStrictEqual(mutating(preview.requests), []);
        });
    });

    it("a dead coordinator (broker 0, which answers reads) is force-removed with exactly one request, and the next preview shows no change", async () => {
        fixture.reset({ brokers: 4, partitions: 4, replicationFactor: 2 });
        succeeded(await fixture.run("up", { brokerCount: 4 }));
        fixture.emulator.control.stopBroker(0);

        succeeded(await fixture.run("preview", { brokers: [1, 2, 3], force: true }));
        const up = await fixture.run("up", { brokers: [1, 2, 3], force: true });
        succeeded(up);
        assert.deepStrictEqual(mutating(up.requests).map(requestLine), ["POST /actuator/cluster/brokers?force=true 202"]);
        assert.ok(printed(up, "cannot read the cluster", "a force removal is sent to the lowest broker it keeps"), up.result.stdout);
        assert.deepStrictEqual(
            layout(output<BrokerLayout[]>(up, "topology")).map((broker) => broker.id),
            [1, 2, 3],
        );
        assert.strictEqual(output<ChangeRecord>(up, "lastChange").status, "COMPLETED");

        const again = await fixture.run("preview", { brokers: [1, 2, 3], force: true });
        succeeded(again);
        assert.strictEqual(step(again), "same", again.result.stdout);
        assert.deepStrictEqual(mutating(again.requests), []);
    });

    describe("brokers the change needs are not running (gatewayUrl set)", function () {
        beforeEach(async () => {
            fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
            succeeded(await fixture.run("up", { brokerCount: 3, gatewayUrl: gatewayUrl() }));
        });

        it("a current broker that is down: preview names it, up refuses and sends nothing", async () => {
            fixture.emulator.control.stopBroker(2);
            fixture.emulator.control.startBroker(3);
            const preview = await fixture.run("preview", { brokerCount: 4, gatewayUrl: gatewayUrl() });
            succeeded(preview);
            assert.ok(
                printed(preview, "up will refuse this change until every broker it needs runs: broker 2 is down (the gateway does not list it)"),
                preview.result.stdout,
            );
            const up = await fixture.run("up", { brokerCount: 4, gatewayUrl: gatewayUrl() });
            assert.match(
                failed(up),
                /brokers: broker 2 is down \(the gateway does not list it\): a change without force needs every broker up; .*Nothing was sent/,
            );
            assert.deepStrictEqual(mutating(up.requests), []);
        });

        it("a new broker that has not started: preview names it, and says the change waits for it", async () => {
            const preview = await fixture.run("preview", { brokerCount: 4, gatewayUrl: gatewayUrl() });
            succeeded(preview);
            assert.ok(
                printed(preview, "new broker 3 is not running yet: the change waits for it to start (it stays at BROKER_ADD until then)"),
                preview.result.stdout,
            );
            assert.ok(!printed(preview, "up will refuse"), preview.result.stdout);
        });
    });

    it("two ClusterScale resources on one cluster: the second one's check fails, naming the first", async () => {
        fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
        const run = await fixture.run("preview", { brokerCount: 3 }, { config: { second: JSON.stringify({ brokerCount: 4 }) } });
        const stderr = failed(run);
        const refusals = stderr.split("\n").filter((line) => line.includes("already manages this cluster"));
        assert.strictEqual(refusals.length, 1, stderr);
        assert.match(
            refusals[0],
            /ClusterScale resource 'cluster-b' has a problem: managementUrl: ClusterScale "cluster" already manages this cluster \(http:\/\/127\.0\.0\.1:\d+\/actuator\/cluster\)/,
        );
        assert.deepStrictEqual(mutating(run.requests), []);
    });

    it("a rebuilt cluster that gives another client's change the recorded id: that change is another client's, not resumed", async () => {
        fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
        const first = await fixture.run("up", { brokerCount: 4, timeoutSeconds: 1 });
        failed(first);
        const changeId = first.resource!.outputs.changeId as number;
        // The cluster is rebuilt, and another client's change (adding brokers 3 and 4, which do not run yet) gets the same id.
        fixture.emulator.control.reset({ brokers: 3, partitions: 3, replicationFactor: 3, opMs: 10 });
        const foreign = await fixture.cluster().scaleBrokers([0, 1, 2, 3, 4]);
        assert.strictEqual(foreign.changeId, changeId);

        const up = await fixture.run(
            "up",
            { brokerCount: 4, timeoutSeconds: 60 },
            {
                onLine: (line) => {
                    if (line.includes(`change ${changeId} (started outside this resource, or by an interrupted run) is in progress`)) {
                        fixture.emulator.control.startBroker(3);
                        fixture.emulator.control.startBroker(4);
                    }
                },
            },
        );
        succeeded(up);
        assert.ok(printed(up, `change ${changeId} has the id of a change of this resource but another plan`), up.result.stdout);
        assert.ok(!printed(up, "started by an earlier run"), up.result.stdout);
        // After the other client's change (5 brokers), this resource's own: broker 4 leaves.
        assert.deepStrictEqual(mutating(up.requests).map(requestLine), ["POST /actuator/cluster/brokers?replicationFactor=3 202"]);
        assert.ok((output(up, "changeId") as number) > changeId);
        const plan = output<{ operation: string; brokerId?: number }[]>(up, "plannedChanges");
        assert.ok(
            plan.some((change) => change.operation === "BROKER_REMOVE" && change.brokerId === 4),
            JSON.stringify(plan),
        );
        assert.ok(!plan.some((change) => change.operation === "BROKER_ADD"), "the old cluster's plan was kept");
        assert.deepStrictEqual(
            layout(output<BrokerLayout[]>(up, "topology")).map((broker) => broker.id),
            [0, 1, 2, 3],
        );
    });

    it("a rebuilt cluster where another client's change with the recorded id reached the program's layout: up sends nothing, and the outputs never keep the old cluster's plan", async () => {
        fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 2 });
        const first = await fixture.run("up", { brokerCount: 4, timeoutSeconds: 1 }, { skipPreview: true });
        failed(first);
        const changeId = first.resource!.outputs.changeId as number;
        assert.ok(
            (first.resource!.outputs.plannedChanges as { operation: string }[]).some((change) => change.operation === "BROKER_ADD"),
            "the recorded plan adds broker 3",
        );
        // Rebuilt with four brokers and one replica per partition; another client raises it to two: the program's
        // layout, reached by another plan under the same id (broker 3 was there all along).
        fixture.emulator.control.reset({ brokers: 4, partitions: 3, replicationFactor: 1, opMs: 10 });
        const foreign = await fixture.cluster().scaleBrokers([0, 1, 2, 3], { replicationFactor: 2 });
        assert.strictEqual(foreign.changeId, changeId);
        await waitForChange({ changeId, cluster: fixture.cluster(), timeoutMs: 30_000 });

        const up = await fixture.run("up", { brokerCount: 4, timeoutSeconds: 60 });
        succeeded(up);
        assert.deepStrictEqual(mutating(up.requests), []);
        assert.strictEqual(output(up, "changeId"), changeId);
        assert.deepStrictEqual(output(up, "plannedChanges"), []);
        assert.strictEqual(up.resource!.outputs.plannedChangeCount, 0);
        assert.strictEqual(output<ChangeRecord>(up, "lastChange").status, "COMPLETED");
    });

    describe("a gateway that cannot confirm completion", function () {
        beforeEach(() => {
            fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
            fixture.emulator.control.startBroker(3);
        });

        it("at a closed port: the change completes and up succeeds, with a note instead of waiting out timeoutSeconds", async () => {
            const run = await fixture.run("up", { brokerCount: 4, gatewayUrl: `http://127.0.0.1:${await unusedPort()}` });
            succeeded(run);
            assert.ok(
                printed(run, "the gateway did not confirm change 2 within 5 s", "ECONNREFUSED", "the management API reports it completed"),
                run.result.stdout,
            );
            assert.strictEqual(output<ChangeRecord>(run, "lastChange").status, "COMPLETED");
        });

        it("answering 401: a note, not a failure", async () => {
            fixture.emulator.control.addFault({ interface: "gateway", count: 100, status: 401 });
            const run = await fixture.run("up", { brokerCount: 4, gatewayUrl: gatewayUrl() });
            succeeded(run);
            assert.ok(printed(run, "the gateway did not confirm change 2", "401", "the management API reports it completed"), run.result.stdout);
            assert.strictEqual(output<ChangeRecord>(run, "lastChange").status, "COMPLETED");
        });
    });

    it("a scale endpoint that keeps answering 503 (Retry-After: 1): three real attempts, each after a look at the cluster, then a clear error", async () => {
        fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
        fixture.emulator.control.startBroker(3);
        const before = await fixture.cluster().getCluster();
        fixture.emulator.control.addFault({ interface: "management", method: "POST", query: { dryRun: null }, count: 6, status: 503 });
        const run = await fixture.run("up", { brokerCount: 4 });
        assert.match(failed(run), /the management API answered 503 three times; nothing was applied/);
        const attempts = mutating(run.requests);
        assert.deepStrictEqual(attempts.map(requestLine), Array(3).fill("POST /actuator/cluster/brokers?replicationFactor=3 503"));
        for (let i = 1; i < attempts.length; i++) {
            const between = run.requests.slice(run.requests.indexOf(attempts[i - 1]) + 1, run.requests.indexOf(attempts[i]));
            assert.ok(
                between.some((entry) => entry.method === "GET" && entry.path === "/actuator/cluster"),
                "an attempt without a look at the cluster first",
            );
            // Retry-After: 1 is honoured before the next attempt.
            assert.ok(Date.parse(attempts[i].at) - Date.parse(attempts[i - 1].at) >= 900, "Retry-After was not honoured");
        }
        const after = await fixture.cluster().getCluster();
        assert.strictEqual(after.version, before.version, "the cluster changed");
    });
});
