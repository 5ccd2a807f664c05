// A pipeline stopped mid-`up` (see stoppedRun.ts for the two ways, and what holds right after), at each stage of the
// work; then the next up converges: one layout change per step, no second cluster, no second client. A killed CLI
// leaves the stack locked on a self-managed backend (the next up refuses, naming `pulumi cancel`, which lifts it); an
// interrupted one unlocks it itself. Each way of stopping is a spec file of its own (stoppedUps/), so that the two,
// the longest files of the tier, run side by side. Every up runs as the Automation API runs one, without a preview
// pass: the Check and Diff calls such a pass makes are the update's own first calls.
import assert from "node:assert/strict";
import * as path from "node:path";
import { type BrokerPods, OPERATOR_RULES, startBrokerPods } from "../support/brokerPods";
import { useEmulator } from "../support/emulator";
import { CliStack, type CliResult } from "./cliStack";
import { type StopPoint, arrivals, stoppedUp } from "./stoppedRun";
import { printed, succeeded } from "./cliAssertions";
import { mainVersion } from "./pulumiBin";

const EXAMPLES = path.resolve(__dirname, "..", "..", "examples");
const CLUSTER_CLIENT_PROGRAM = path.join(__dirname, "programs", "clusterClient");
const CLIENT = { clientId: "kill-client", clientSecret: "kill-secret-5d2e9a", audience: "127.0.0.1" };

export function describeStoppedUps(stop: "SIGKILL" | "SIGINT"): void {
    const interrupted = stop === "SIGINT";

    describe(`${stop} of a pulumi ${mainVersion()} up`, function () {
        this.timeout(240_000);

        describe("ClusterScale with its brokers' StatefulSet (examples/local), stopped at each stage", function () {
            const emulator = useEmulator({ brokers: 3, partitions: 3, replicationFactor: 3, opMs: 300 }, { resetEach: false });
            let pods: BrokerPods;
            let stack: CliStack;
            const arrived = () => arrivals(emulator(), pods);
            const accepted = () => (emulator().control.state() as { acceptedChanges: number }).acceptedChanges;
            const replicas = () => (pods.workloads.scale() as { spec: { replicas: number } }).spec.replicas;

            before(async () => {
                pods = await startBrokerPods(emulator().control, { replicas: 3, terminationMs: 1_500 });
                const kubernetes = { ...pods.route(pods.user(OPERATOR_RULES, "pipeline").kubeconfig), volumesOfRemovedBrokers: "delete" };
                stack = await CliStack.create({
                    example: path.join(EXAMPLES, "local"),
                    version: mainVersion(),
                    config: {
                        "platform:managementUrl": emulator().managementUrl,
                        "platform:gatewayUrl": emulator().gatewayUrl,
                        kubernetes: JSON.stringify(kubernetes),
                        partitionCount: "3",
                        replicationFactor: "3",
                    },
                });
            });
            after(async () => {
                stack?.dispose();
                await pods?.stop();
            });

            /** brokerCount `to`, stopped at `at`; the next up reaches it with one layout change, no broker lost. */
            async function stage(to: number, at: StopPoint, afterStop: () => void = () => undefined): Promise<CliResult> {
                const changesBefore = accepted();
                await stack.setConfig({ brokerCount: String(to) });
                const run = await stoppedUp(stack, stop, at, arrived);
                afterStop();
                const resumed = await stack.up("--skip-preview");
                succeeded(resumed);
                assert.equal(accepted(), changesBefore + 1, "not exactly one layout change for this step");
                assert.equal(replicas(), to);
                assert.equal((stack.savedOutputs().brokers as string[]).length, to);
                assert.deepEqual(pods.workloads.lost, [], "a broker was stopped while it held replicas");
                return run;
            }

            it("3 → 6, stopped while the new pods are waited for (their image cannot be pulled yet): nothing was sent to the cluster; the next up starts them and changes the layout once", async () => {
                for (const ordinal of [3, 4, 5]) pods.workloads.neverStarting.set(ordinal, { reason: "ErrImagePull", message: "registry unreachable" });
                const run = await stage(6, { line: "to run before the layout change names them" }, () =>
                    [3, 4, 5].forEach((ordinal) => pods.workloads.letStart(ordinal)),
                );
                if (interrupted) printed(run, "the run was cancelled while the layout change was not sent yet");
            });

            it("6 → 5, stopped right after the change was accepted: the next up waits for that change instead of sending another", async () => {
                const run = await stage(5, { line: "accepted" });
                if (interrupted) printed(run, "ran: it goes on in the cluster, and the next up waits for it");
            });

            it("5 → 4, stopped while the StatefulSet's replicas are lowered: the next up finishes it", async () => {
                const run = await stage(4, { line: "replicas 5 → 4 (" });
                if (interrupted) printed(run, "the run was cancelled while the brokers' StatefulSet was brought to the applied layout");
            });

            it("4 → 3, stopped while the removed broker's claim is deleted: the next up finishes it; the claims of brokers 0-2 stay", async () => {
                let reached!: () => void;
                let release!: () => void;
                const deletion = new Promise<void>((resolve) => (reached = resolve));
                const released = new Promise<void>((resolve) => (release = resolve));
                const api = pods.server.workloadApi!;
                api.beforeClaimDeletion = () => {
                    reached();
                    return released;
                };
                try {
                    await stage(3, { event: deletion.then(() => void setImmediate(release)), what: "the claim's deletion" });
                } finally {
                    api.beforeClaimDeletion = undefined;
                    release();
                }
                const claims = (pods.workloads.claimList() as { metadata: { name: string } }[]).map((claim) => claim.metadata.name);
                assert.deepEqual(claims, ["data-platform-zeebe-0", "data-platform-zeebe-1", "data-platform-zeebe-2"]);
                succeeded(await stack.preview("--expect-no-changes"));
            });
        });

        describe("examples/local without Kubernetes, stopped while the change runs", function () {
            const emulator = useEmulator({ brokers: 3, partitions: 6, replicationFactor: 3, partitionScaling: true, running: [0, 1, 2, 3, 4], opMs: 150 });

            // A refresh between matters after a kill only: an interrupted up recorded the change itself.
            for (const refreshBetween of interrupted ? [false] : [false, true]) {
                it(`the next up${refreshBetween ? ", after a refresh," : ""} waits for the same change: one change accepted, the layout reached`, async () => {
                    const stack = await CliStack.create({
                        example: path.join(EXAMPLES, "local"),
                        version: mainVersion(),
                        config: { "platform:managementUrl": emulator().managementUrl, "platform:gatewayUrl": emulator().gatewayUrl },
                    });
                    try {
                        await stoppedUp(stack, stop, { line: "accepted" }, () => arrivals(emulator()));
                        const state = await stack.exportState();
                        // A killed CLI recorded the create as a pending operation; a cancelled one recorded the resource
                        // with the change in flight (a partial failure).
                        if (interrupted) assert.deepEqual(state.deployment.pending_operations ?? [], []);
                        else
                            assert.deepEqual(
                                (state.deployment.pending_operations ?? []).map((pending) => pending.type),
                                ["creating"],
                            );
                        if (refreshBetween) succeeded(await stack.refresh());
                        const resumed = await stack.up("--skip-preview");
                        succeeded(resumed);
                        if (!interrupted) printed(resumed, "pending operations from previous deployment");
                        const accepted = emulator().control.state() as { acceptedChanges: number };
                        assert.equal(accepted.acceptedChanges, 1, "a second layout change was accepted");
                        assert.equal(stack.savedOutputs().partitionCount, 8);
                        succeeded(await stack.preview("--expect-no-changes"));
                    } finally {
                        stack.dispose();
                    }
                });
            }
        });

        describe("examples/hosted-cluster, stopped while the cluster is Creating", function () {
            const emulator = useEmulator({ opMs: 10, rateLimitBlockSeconds: 0, clients: [CLIENT], clusterCreateMs: 60_000 });

            for (const refreshBetween of interrupted ? [false] : [false, true]) {
                const outcome = interrupted
                    ? "the cluster stays in the stack, and the next up waits for the same one"
                    : "the next up refuses a second cluster naming existingClusterId, which then takes the one made over";
                it(`${outcome}${refreshBetween ? " (a refresh between)" : ""}`, async () => {
                    const stack = await CliStack.create({
                        example: path.join(EXAMPLES, "hosted-cluster"),
                        version: mainVersion(),
                        config: { "platform:clientId": CLIENT.clientId, "platform:oauthUrl": emulator().authUrl, "platform:baseUrl": emulator().baseUrl },
                        secrets: { "platform:clientSecret": CLIENT.clientSecret, paymentsApiKey: "payments-key-7f3a" },
                    });
                    try {
                        const run = await stoppedUp(stack, stop, { line: "is Creating" }, () => arrivals(emulator()));
                        const [made] = emulator().control.hostedClusters();
                        if (refreshBetween) succeeded(await stack.refresh());
                        if (interrupted) {
                            printed(run, `the run was cancelled while cluster ${made.id} was Creating; it stays in the stack`);
                        } else {
                            const again = await stack.up("--skip-preview");
                            assert.notEqual(again.exitCode, 0);
                            printed(again, `to bring it under this stack set existingClusterId: "${made.id}"`);
                            assert.equal(emulator().control.hostedClusters().length, 1, "a second cluster was made");
                            await stack.setConfig({ existingClusterId: made.id });
                        }
                        emulator().control.setHostedClusterStatus(made.id, "Healthy");
                        succeeded(await stack.up("--skip-preview"));
                        assert.equal(emulator().control.hostedClusters().length, 1, "a second cluster was made");
                        assert.equal(stack.savedOutputs().clusterId, made.id);
                    } finally {
                        stack.dispose();
                    }
                });
            }
        });

        describe("ClusterClient, stopped right after the client was created", function () {
            const emulator = useEmulator({ opMs: 10, rateLimitBlockSeconds: 0, clients: [CLIENT] });
            const outcome = interrupted
                ? "the client and its secret stay in the stack; the next up reads its details"
                : "the secret is lost with the CLI: the next up refuses to make a second client of that name, naming replaceExisting, which then makes it anew";

            it(outcome, async () => {
                const clusterId = emulator().control.addHostedCluster({ name: "orders" });
                const stack = await CliStack.create({
                    example: CLUSTER_CLIENT_PROGRAM,
                    version: mainVersion(),
                    config: {
                        "platform:clientId": CLIENT.clientId,
                        "platform:oauthUrl": emulator().authUrl,
                        "platform:baseUrl": emulator().baseUrl,
                        clusterId,
                    },
                    secrets: { "platform:clientSecret": CLIENT.clientSecret },
                });
                const clients = () => emulator().control.hostedClusters()[0].clients;
                try {
                    // The details wait while the cluster is not ready (412): the stop comes while the client is new.
                    emulator().control.setHostedClusterStatus(clusterId, "Updating");
                    await stoppedUp(stack, stop, { line: "created client worker" }, () => arrivals(emulator()));
                    emulator().control.setHostedClusterStatus(clusterId, null);
                    assert.equal(clients().length, 1);
                    if (!interrupted) {
                        const again = await stack.up("--skip-preview");
                        assert.notEqual(again.exitCode, 0);
                        printed(again, "set replaceExisting: true");
                        assert.equal(clients().length, 1, "a second client was made");
                        await stack.setConfig({ replaceExisting: "true" });
                    }
                    succeeded(await stack.up("--skip-preview"));
                    assert.equal(clients().length, 1, "not exactly one client");
                    assert.equal(stack.savedOutputs().clientId, clients()[0].clientId);
                } finally {
                    stack.dispose();
                }
            });
        });
    });
}
