/* eslint-disable @typescript-eslint/no-explicit-any -- the stand-in's objects, read field by field */
// ClusterScale with kubernetes.statefulSet: one up starts the new brokers' pods before the layout change names them,
// and stops removed brokers' pods only once the change completed, against the Kubernetes stand-in that runs pods as
// brokers (a broker stopped while it holds replicas is recorded as lost, so a wrong order fails here).
import * as assert from "assert";
import type { WorkloadOptions } from "../emulator/brokerWorkloads";
import type { ResourceRules } from "../emulator/workloadApi";
import { BrokerPods, OPERATOR_RULES, startBrokerPods } from "../support/brokerPods";
import { ClusterScaleFixture, failed, mutating, printed, requestLine, succeeded } from "./clusterScaleSupport";

describe("ClusterScale: brokers in a StatefulSet, started and stopped in the safe order", function () {
    this.timeout(120_000);
    const fixture = new ClusterScaleFixture("in-process");
    // The management API at the emulator's URL (the fixture's default config) and its gateway; the StatefulSet
    // through the stand-in's API server.
    const urls = () => ({ "platform:gatewayUrl": fixture.emulator.gatewayUrl });
    let pods: BrokerPods;
    let kubeconfig: string;

    /** The stand-in with 3 broker pods and a kubeconfig for a user with ClusterScale's rules. */
    const usePods = async (options: Partial<WorkloadOptions> = {}) => {
        pods = await startBrokerPods(fixture.emulator.control, {
            replicas: 3,
            proxy: { managementUrl: fixture.emulator.managementUrl, gatewayUrl: fixture.emulator.gatewayUrl },
            ...options,
        });
        kubeconfig = pods.user(OPERATOR_RULES, "ci").kubeconfig;
    };

    before(() => fixture.start());
    after(() => fixture.stop());
    beforeEach(async () => {
        fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
        await usePods();
    });
    afterEach(() => pods.stop());

    const route = (extra: Record<string, unknown> = {}) => ({
        namespace: "camunda",
        statefulSet: "platform-zeebe",
        kubeconfig,
        ...extra,
    });
    const replicas = () => (pods.workloads.scale() as { spec: { replicas: number } }).spec.replicas;
    const podNames = () => (pods.workloads.podList() as { metadata: { name: string } }[]).map((pod) => pod.metadata.name);
    const claimNames = () => (pods.workloads.claimList() as { metadata: { name: string } }[]).map((claim) => claim.metadata.name);

    it("scales up in one up: preview shows the pods that start, up raises replicas, waits for the pods to run, then sends the change", async () => {
        const args = { brokerCount: 5, kubernetes: route() };
        const preview = await fixture.run("preview", args, { config: urls() });
        succeeded(preview);
        assert.ok(
            printed(
                preview,
                "StatefulSet platform-zeebe: replicas 3 → 5 before the layout change: pods platform-zeebe-3, platform-zeebe-4 start; up waits until they run",
            ),
            preview.result.stdout,
        );
        // Up starts the new brokers itself: no line may say the change waits for them to start.
        assert.ok(!printed(preview, "not running yet"), preview.result.stdout);
        assert.strictEqual(replicas(), 3, "preview changed the StatefulSet");
        assert.deepStrictEqual(mutating(preview.requests), []);

        const up = await fixture.run("up", args, { config: urls() });
        succeeded(up);
        assert.strictEqual(replicas(), 5);
        assert.deepStrictEqual(mutating(up.requests).map(requestLine), ["POST /actuator/cluster/brokers?replicationFactor=3 202"]);
        const lines = up.hostLines.join("\n");
        // The apply's own lines (the preview pass printed the plan before them).
        const grown = lines.indexOf("StatefulSet platform-zeebe: replicas 3 → 5 (pods platform-zeebe-3, platform-zeebe-4 start)");
        assert.ok(grown >= 0 && lines.indexOf("accepted") > grown, lines);
        // The change reached the cluster only once both new brokers' containers had started.
        const sent = up.requests.find((entry) => entry.method === "POST" && entry.query.dryRun === undefined)!;
        for (const ordinal of [3, 4]) {
            const started = pods.workloads.containerStarts.get(ordinal);
            assert.ok(started !== undefined && started <= Date.parse(sent.at), `pod ${ordinal} started at ${started}, the change arrived at ${sent.at}`);
        }
        assert.deepStrictEqual(pods.workloads.lost, []);
    });

    it("scales down in one up: the change completes first, then replicas go down and the pods stop; claims are kept unless asked", async () => {
        await fixture.run("up", { brokerCount: 5, kubernetes: route() }, { config: urls() }).then(succeeded);
        const preview = await fixture.run("preview", { brokerCount: 3, kubernetes: route() }, { config: urls() });
        succeeded(preview);
        assert.ok(
            printed(
                preview,
                "StatefulSet platform-zeebe: replicas 5 → 3 once the layout change completed: pods platform-zeebe-3, platform-zeebe-4 stop; their claims are kept (volumesOfRemovedBrokers: retain)",
            ),
            preview.result.stdout,
        );
        const up = await fixture.run("up", { brokerCount: 3, kubernetes: route() }, { config: urls() });
        succeeded(up);
        const lines = up.hostLines.join("\n");
        const completed = lines.search(/change \d+ completed/);
        assert.ok(
            completed >= 0 && completed < lines.indexOf("StatefulSet platform-zeebe: replicas 5 → 3 (pods platform-zeebe-3, platform-zeebe-4 stop"),
            lines,
        );
        assert.strictEqual(replicas(), 3);
        assert.deepStrictEqual(podNames(), ["platform-zeebe-0", "platform-zeebe-1", "platform-zeebe-2"]);
        assert.deepStrictEqual(pods.workloads.lost, [], "a broker was stopped while it held replicas");
        assert.ok(claimNames().includes("data-platform-zeebe-4"), "a retained claim was deleted");

        // Scaling up again: preview names the claim the returning broker would start on.
        const again = await fixture.run("preview", { brokerCount: 4, kubernetes: route() }, { config: urls() });
        succeeded(again);
        assert.ok(printed(again, "claim data-platform-zeebe-3 exists although its pod does not"), again.result.stdout);
    });

    it("soak: an up killed while the removed pods stop, a refresh, then the resume: the claims of the brokers the layout leaves out go", async () => {
        // Pods that take 2 s to stop: the kill lands while they stop, before any claim is deleted.
        await pods.stop();
        await usePods({ terminationMs: 2_000 });
        await fixture.run("up", { brokerCount: 5, kubernetes: route() }, { config: urls() }).then(succeeded);
        const kill = new AbortController();
        const args = { brokerCount: 3, kubernetes: route({ volumesOfRemovedBrokers: "delete" }) };
        // Killed once the stand-in took the write of replicas 3 (the line announcing it comes before the write, so a
        // kill on the line could land before it).
        const stopWatching = pods.workloads.watch("StatefulSet", undefined, (event) => {
            if ((event.object as { spec: { replicas: number } }).spec.replicas === 3) kill.abort();
        });
        const killed = await fixture.run("up", args, {
            config: urls(),
            // Killed in the update pass: its preview pass is not the case.
            skipPreview: true,
            signal: kill.signal,
        });
        stopWatching();
        assert.strictEqual(killed.result.exitCode, 128 + 9, "the run was not killed");
        assert.ok(killed.result.stdout.includes("stop; the layout no longer names them"), killed.result.stdout);
        succeeded(await fixture.run("refresh", args, { config: urls() }));
        const preview = await fixture.run("preview", args, { config: urls() });
        succeeded(preview);
        assert.ok(
            printed(
                preview,
                "claims data-platform-zeebe-3, data-platform-zeebe-4 are deleted: their brokers were removed by an up that stopped before it deleted them",
            ),
            preview.result.stdout,
        );
        const resumed = await fixture.run("up", args, { config: urls() });
        succeeded(resumed);
        assert.deepStrictEqual(claimNames(), ["data-platform-zeebe-0", "data-platform-zeebe-1", "data-platform-zeebe-2"]);
        assert.deepStrictEqual(mutating(resumed.requests), [], "the resume sent a second layout change");
        assert.deepStrictEqual(pods.workloads.lost, []);
    });

    it("with volumesOfRemovedBrokers delete, a claim an earlier up retained stays: only the claims of the pods this up stops go", async () => {
        await fixture.run("up", { brokerCount: 5, kubernetes: route() }, { config: urls() }).then(succeeded);
        await fixture.run("up", { brokerCount: 4, kubernetes: route() }, { config: urls() }).then(succeeded);
        assert.ok(claimNames().includes("data-platform-zeebe-4"));
        // The same layout with "delete": this resource removed no broker under it, so no claim is owed.
        const same = await fixture.run("up", { brokerCount: 4, kubernetes: route({ volumesOfRemovedBrokers: "delete" }) }, { config: urls() });
        succeeded(same);
        assert.ok(!printed(same, "data-platform-zeebe-4"), same.result.stdout);
        assert.ok(claimNames().includes("data-platform-zeebe-4"), "a claim kept under retain was deleted");
        assert.deepStrictEqual(mutating(same.requests), []);

        const args = { brokerCount: 3, kubernetes: route({ volumesOfRemovedBrokers: "delete" }) };
        const preview = await fixture.run("preview", args, { config: urls() });
        succeeded(preview);
        assert.ok(
            printed(preview, "pod platform-zeebe-3 stop; claim data-platform-zeebe-3 is deleted (volumesOfRemovedBrokers: delete)"),
            preview.result.stdout,
        );
        assert.ok(!printed(preview, "data-platform-zeebe-4"), preview.result.stdout);
        const up = await fixture.run("up", args, { config: urls() });
        succeeded(up);
        assert.deepStrictEqual(claimNames(), ["data-platform-zeebe-0", "data-platform-zeebe-1", "data-platform-zeebe-2", "data-platform-zeebe-4"]);
        assert.ok(printed(up, "deleted 1 volume claim of removed brokers: data-platform-zeebe-3"), up.result.stdout);
    });

    it("with volumesOfRemovedBrokers delete, 5 → 3 deletes the claims of brokers 3 and 4 only, never the claim of a broker this resource never ran", async () => {
        await fixture.run("up", { brokerCount: 5, kubernetes: route() }, { config: urls() }).then(succeeded);
        pods.workloads.leaveClaim(7);
        const args = { brokerCount: 3, kubernetes: route({ volumesOfRemovedBrokers: "delete" }) };
        const preview = await fixture.run("preview", args, { config: urls() });
        succeeded(preview);
        assert.ok(printed(preview, "claims data-platform-zeebe-3, data-platform-zeebe-4 are deleted"), preview.result.stdout);
        assert.ok(!printed(preview, "data-platform-zeebe-7"), preview.result.stdout);
        succeeded(await fixture.run("up", args, { config: urls() }));
        assert.deepStrictEqual(claimNames(), ["data-platform-zeebe-0", "data-platform-zeebe-1", "data-platform-zeebe-2", "data-platform-zeebe-7"]);
        // And the next preview owes nothing.
        const after = await fixture.run("preview", args, { config: urls() });
        succeeded(after);
        assert.strictEqual(after.result.steps.find((step) => step.name === "cluster")?.op, "same");
    });

    it("a StatefulSet whose own policy deletes the claims of scaled-down pods (whenScaled: Delete): preview says so, whatever volumesOfRemovedBrokers says", async () => {
        await pods.stop();
        await usePods({ whenScaled: "Delete" });
        await fixture.run("up", { brokerCount: 5, kubernetes: route() }, { config: urls() }).then(succeeded);
        const preview = await fixture.run("preview", { brokerCount: 3, kubernetes: route() }, { config: urls() });
        succeeded(preview);
        assert.ok(
            printed(preview, "stop; the StatefulSet deletes their claims itself (persistentVolumeClaimRetentionPolicy.whenScaled: Delete)"),
            preview.result.stdout,
        );
    });

    it("with podManagementPolicy OrderedReady, adding two brokers is refused at preview (pod 4 would wait forever for broker 3); one at a time works", async () => {
        await pods.stop();
        await usePods({ podManagementPolicy: "OrderedReady" });
        const preview = await fixture.run("preview", { brokerCount: 5, kubernetes: route() }, { config: urls() });
        const refusal = failed(preview);
        assert.match(refusal, /StatefulSet platform-zeebe has podManagementPolicy OrderedReady/);
        assert.match(refusal, /broker 3 cannot be Ready before the layout change makes it a member, so pod platform-zeebe-4 would never start/);
        assert.match(refusal, /Add one broker per up, or use podManagementPolicy: Parallel/);
        const up = await fixture.run("up", { brokerCount: 5, kubernetes: route() }, { config: urls() });
        assert.match(failed(up), /pod platform-zeebe-4 would never start/);
        assert.strictEqual(replicas(), 3, "the StatefulSet was scaled");
        assert.deepStrictEqual(mutating(up.requests), []);

        for (const brokerCount of [4, 5, 4]) await fixture.run("up", { brokerCount, kubernetes: route() }, { config: urls() }).then(succeeded);
        assert.strictEqual(replicas(), 4);
        assert.deepStrictEqual(podNames(), ["platform-zeebe-0", "platform-zeebe-1", "platform-zeebe-2", "platform-zeebe-3"]);
        assert.deepStrictEqual(pods.workloads.lost, [], "a broker was stopped while it held replicas");
        // A resource in the state is refused by its diff the same way.
        const again = await fixture.run("preview", { brokerCount: 6, kubernetes: route() }, { config: urls() });
        assert.match(failed(again), /broker 4 cannot be Ready before the layout change makes it a member, so pod platform-zeebe-5 would never start/);
    });

    it("a StatefulSet that numbers its pods from 1 (spec.ordinals.start) is refused at preview and up: its pods are not its brokers' ids", async () => {
        await pods.stop();
        await usePods({ firstOrdinal: 1 });
        assert.deepStrictEqual(podNames(), ["platform-zeebe-1", "platform-zeebe-2", "platform-zeebe-3"]);
        const preview = await fixture.run("preview", { brokerCount: 4, kubernetes: route() }, { config: urls() });
        assert.match(failed(preview), /StatefulSet platform-zeebe numbers its pods from 1 \(spec.ordinals.start\)/);
        const up = await fixture.run("up", { brokerCount: 4, kubernetes: route() }, { config: urls() });
        assert.match(failed(up), /pod ordinal = broker id, from 0. Leave kubernetes.statefulSet out and scale the StatefulSet yourself/);
        assert.strictEqual(replicas(), 3, "the StatefulSet was scaled");
        assert.deepStrictEqual(mutating(up.requests), []);
    });

    it('with volumesOfRemovedBrokers "delete", exactly the removed brokers\' claims go', async () => {
        await fixture.run("up", { brokerCount: 5, kubernetes: route() }, { config: urls() }).then(succeeded);
        const up = await fixture.run("up", { brokerCount: 4, kubernetes: route({ volumesOfRemovedBrokers: "delete" }) }, { config: urls() });
        succeeded(up);
        assert.deepStrictEqual(claimNames(), ["data-platform-zeebe-0", "data-platform-zeebe-1", "data-platform-zeebe-2", "data-platform-zeebe-3"]);
        assert.ok(printed(up, "deleted 1 volume claim of removed brokers: data-platform-zeebe-4"), up.result.stdout);
    });

    it("a new pod that never runs fails the up within timeoutSeconds, naming the pod and the reason, with no layout change sent", async () => {
        pods.workloads.neverStarting.set(3, { reason: "ImagePullBackOff", message: 'Back-off pulling image "camunda/camunda:8.9.16"' });
        const up = await fixture.run("up", { brokerCount: 4, timeoutSeconds: 1, kubernetes: route() }, { config: urls() });
        const stderr = failed(up);
        assert.match(stderr, /pod platform-zeebe-3 did not run within timeoutSeconds \(1 s\): platform-zeebe-3: ImagePullBackOff/);
        assert.match(stderr, /no layout change was sent/);
        assert.deepStrictEqual(mutating(up.requests), []);
    });

    it("a new pod the StatefulSet cannot create (a pod quota exhausted) fails the up within timeoutSeconds, saying it was not created", async () => {
        pods.workloads.neverCreated.add(3);
        const up = await fixture.run("up", { brokerCount: 4, timeoutSeconds: 1, kubernetes: route() }, { config: urls() });
        assert.match(failed(up), /pod platform-zeebe-3 did not run within timeoutSeconds \(1 s\): platform-zeebe-3: not created; no layout change was sent/);
        assert.deepStrictEqual(mutating(up.requests), []);

        await pods.stop();
        await usePods({ podManagementPolicy: "OrderedReady" });
        pods.workloads.neverCreated.add(3);
        const ordered = await fixture.run("up", { brokerCount: 4, timeoutSeconds: 1, kubernetes: route() }, { config: urls() });
        assert.match(
            failed(ordered),
            /platform-zeebe-3: not created \(podManagementPolicy OrderedReady: the StatefulSet creates it once every lower pod is Ready\)/,
        );
    });

    it("a scale-down whose change does not complete never lowers replicas; the next up resumes it and then stops the pods", async () => {
        await fixture.run("up", { brokerCount: 4, kubernetes: route() }, { config: urls() }).then(succeeded);
        fixture.emulator.control.updateSettings({ opMs: 5_000 });
        const late = await fixture.run("up", { brokerCount: 3, timeoutSeconds: 1, kubernetes: route() }, { config: urls() });
        assert.match(failed(late), /did not complete within timeoutSeconds/);
        assert.strictEqual(replicas(), 4, "replicas were lowered although the change had not completed");
        fixture.emulator.control.updateSettings({ opMs: 10 });
        const resumed = await fixture.run("up", { brokerCount: 3, kubernetes: route() }, { config: urls() });
        succeeded(resumed);
        assert.deepStrictEqual(mutating(resumed.requests), [], "a second layout change was sent");
        assert.strictEqual(replicas(), 3);
        assert.deepStrictEqual(pods.workloads.lost, []);
    });

    it("an up killed while new pods start, or while its change runs, leaves a state the next up resumes from, with one layout change", async () => {
        const killedAt = async (args: object, line: RegExp) => {
            const kill = new AbortController();
            const run = await fixture.run("up", args, {
                config: urls(),
                // Killed in the update pass: its preview pass is not the case.
                skipPreview: true,
                signal: kill.signal,
                onLine: (text) => {
                    if (line.test(text)) kill.abort();
                },
            });
            assert.strictEqual(run.result.exitCode, 128 + 9, run.result.stdout);
            return run;
        };
        // Scale-up, killed while the new pods start (they take 2 s here, so the kill lands while up waits for them):
        // the next up finds the replicas raised, waits for the pods and sends the change once.
        await pods.stop();
        await usePods({ startMs: 2_000 });
        const grown = await killedAt({ brokerCount: 5, kubernetes: route() }, /waiting for pods platform-zeebe-3, platform-zeebe-4 to run/);
        assert.strictEqual(replicas(), 5);
        assert.deepStrictEqual(mutating(grown.requests), []);
        const up = await fixture.run("up", { brokerCount: 5, kubernetes: route() }, { config: urls() });
        succeeded(up);
        assert.deepStrictEqual(mutating(up.requests).map(requestLine), ["POST /actuator/cluster/brokers?replicationFactor=3 202"]);
        // Scale-down, killed once the change was accepted: the next up waits for it (no second change), then stops the pods.
        const killed = await killedAt({ brokerCount: 3, kubernetes: route() }, /change \d+ accepted/);
        const sent = mutating(killed.requests).length;
        const down = await fixture.run("up", { brokerCount: 3, kubernetes: route() }, { config: urls() });
        succeeded(down);
        assert.strictEqual(sent + mutating(down.requests).length, 1, "the scale-down was sent twice");
        assert.strictEqual(replicas(), 3);
        assert.deepStrictEqual(pods.workloads.lost, []);
    });

    describe("someone else moves the count right before an act: the up looks again and stops", () => {
        /** Once the stand-in emits a `kind` event that `matches`, `write` runs right after it (the provider has not read yet). */
        const onceAfter = (kind: "Pod" | "StatefulSet", matches: (object: any) => boolean, write: () => void) => {
            const stop = pods.workloads.watch(kind, undefined, (event) => {
                if (!matches(event.object)) return;
                stop();
                setImmediate(write);
            });
            return stop;
        };
        /** The event of the last of pods 3 and 4 to start. */
        const bothStarted = (pod: any) =>
            pod.status.containerStatuses?.[0]?.started === true && [3, 4].every((ordinal) => pods.workloads.containerStarts.has(ordinal));

        /** An up to 5 brokers whose count argocd-controller sets back to 3 once a `kind` event `matches`: it stops, saying `says`. */
        const setBackTo3 = async (kind: "Pod" | "StatefulSet", matches: (object: any) => boolean, says: RegExp) => {
            const stop = onceAfter(kind, matches, () => pods.workloads.setReplicas(3, undefined, "argocd-controller"));
            const up = await fixture.run("up", { brokerCount: 5, kubernetes: route() }, { config: urls() });
            stop();
            assert.match(failed(up), says);
            assert.deepStrictEqual(mutating(up.requests), [], "the layout change was sent");
            assert.strictEqual(replicas(), 3, "the up fought the writer");
            assert.deepStrictEqual(pods.workloads.lost, []);
        };
        const SET_BACK =
            "\\(pods platform-zeebe-3, platform-zeebe-4 stop\\): managedFields name field manager argocd-controller as writer of spec\\.replicas\\. No layout change was sent";

        it("set back to 3 by argocd-controller the moment the new pods run: no layout change is sent, naming the writer and the value", async () => {
            // Seen by the look right before the change, or (when the pods began to stop before the up saw them run) by the
            // next round's read: the same facts either way.
            await setBackTo3(
                "Pod",
                bothStarted,
                new RegExp(
                    `StatefulSet platform-zeebe: spec\\.replicas is 3( right before the layout change, not the 5 it needs|, not the 5 this up set it to) ${SET_BACK}`,
                ),
            );
        });

        it("set back to 3 by argocd-controller right after the up raised it, before the new pods run: the up does not raise it again, nothing is sent", async () => {
            await setBackTo3(
                "StatefulSet",
                (sts) => sts.spec.replicas === 5,
                new RegExp(`StatefulSet platform-zeebe: spec\\.replicas is 3, not the 5 this up set it to ${SET_BACK}`),
            );
        });

        it("set back to 3 by argocd-controller while the new pods start, before the up sees them run: the up's wait ends, nothing is sent", async () => {
            await setBackTo3(
                "Pod",
                (pod) => pod.metadata.name === "platform-zeebe-4" && pod.status?.containerStatuses?.[0]?.started !== true,
                new RegExp(`StatefulSet platform-zeebe: spec\\.replicas is 3, not the 5 this up set it to ${SET_BACK}`),
            );
        });

        it("raised to 6 by kubectl right before replicas go down after 5 → 3: nothing lowered, the state keeps the applied layout and the next up finishes", async () => {
            await fixture.run("up", { brokerCount: 5, kubernetes: route() }, { config: urls() }).then(succeeded);
            const args = { brokerCount: 3, kubernetes: route() };
            pods.server.workloadApi!.beforeScaleRead = () => pods.workloads.setReplicas(6, undefined, "kubectl-scale");
            const down = await fixture.run("up", args, { config: urls() });
            assert.match(
                failed(down),
                /spec\.replicas is 6, not the 5 this up read before lowering it to 3: managedFields name kubectl \(field manager kubectl-scale\) as writer of spec\.replicas\. Nothing was lowered \(the layout change completed: the next up lowers it\)/,
            );
            assert.strictEqual(replicas(), 6);
            assert.deepStrictEqual(pods.workloads.lost, []);
            const sent = mutating(down.requests).length;
            assert.strictEqual(sent, 1, "the layout change was not sent once");
            const finished = await fixture.run("up", args, { config: urls() });
            succeeded(finished);
            assert.deepStrictEqual(mutating(finished.requests), [], "the next up sent the layout change again");
            assert.strictEqual(replicas(), 3);
            assert.deepStrictEqual(podNames(), ["platform-zeebe-0", "platform-zeebe-1", "platform-zeebe-2"]);
            assert.deepStrictEqual(pods.workloads.lost, []);
        });

        it("raised to 5 again by argocd-controller once the removed pods are gone: no claim is deleted", async () => {
            await fixture.run("up", { brokerCount: 5, kubernetes: route() }, { config: urls() }).then(succeeded);
            const args = { brokerCount: 3, kubernetes: route({ volumesOfRemovedBrokers: "delete" }) };
            // Once both removed pods are gone (the up's wait ends there; they may go in either order), before its look.
            const removed = new Set(["platform-zeebe-3", "platform-zeebe-4"]);
            const stop = pods.workloads.watch("Pod", undefined, (event) => {
                if (event.type !== "DELETED") return;
                removed.delete((event.object as { metadata: { name: string } }).metadata.name);
                if (removed.size > 0) return;
                stop();
                setImmediate(() => pods.workloads.setReplicas(5, undefined, "argocd-controller"));
            });
            const down = await fixture.run("up", args, { config: urls(), skipPreview: true });
            stop();
            assert.match(
                failed(down),
                // Seen right before the claims, or by the round after the wait for the pods to go (when they came back first).
                /spec\.replicas is 5( again, above the layout's 3, right before the claims of removed brokers were to be deleted \(pods platform-zeebe-3, platform-zeebe-4 start on them\)|, not the 3 this up set it to)/,
            );
            assert.ok(claimNames().includes("data-platform-zeebe-3") && claimNames().includes("data-platform-zeebe-4"), "a claim was deleted");
            assert.deepStrictEqual(pods.workloads.lost, []);
        });
    });

    it("replicas raised by someone else above the layout: preview and up name the writer; up stops the pod the layout does not name", async () => {
        const args = { brokerCount: 5, kubernetes: route() };
        await fixture.run("up", args, { config: urls() }).then(succeeded);
        pods.workloads.setReplicas(6, undefined, "kubectl-scale");
        const above = "spec.replicas 6 written by kubectl (field manager kubectl-scale) (managedFields)";
        const preview = await fixture.run("preview", args, { config: urls() });
        succeeded(preview);
        assert.ok(
            printed(preview, "StatefulSet platform-zeebe: replicas 6 → 5 once the layout change completed: pod platform-zeebe-5 stop", above),
            preview.result.stdout,
        );
        const up = await fixture.run("up", args, { config: urls() });
        succeeded(up);
        assert.ok(
            printed(up, "StatefulSet platform-zeebe: replicas 6 → 5 (pod platform-zeebe-5 stop; the layout no longer names them", above),
            up.result.stdout,
        );
        assert.deepStrictEqual(mutating(up.requests), []);
        assert.strictEqual(replicas(), 5);
        assert.deepStrictEqual(pods.workloads.lost, []);
    });

    describe("GitOps controllers deploying the StatefulSet: named before the count moves, with their recipe", () => {
        const APPLICATION = "/apis/argoproj.io/v1alpha1/namespaces/argocd/applications/camunda";
        const KUSTOMIZATION = "/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations/camunda";
        const HELM_RELEASE = "/apis/helm.toolkit.fluxcd.io/v2/namespaces/flux-system/helmreleases/camunda";
        const READER: ResourceRules = { ...OPERATOR_RULES, applications: ["get"], kustomizations: ["get"], helmreleases: ["get"] };
        const argoRule = (rule: object) => ({ spec: { ignoreDifferences: [rule], syncPolicy: { syncOptions: ["RespectIgnoreDifferences=true"] } } });
        const REPLICAS_RULE = { group: "apps", kind: "StatefulSet", name: "platform-zeebe", jsonPointers: ["/spec/replicas"] };
        const byArgo = () => {
            pods.workloads.extraAnnotations["argocd.argoproj.io/tracking-id"] = "camunda:apps/StatefulSet:camunda/platform-zeebe";
            pods.workloads.otherManagers.push({ manager: "argocd-controller", operation: "Update" });
        };
        const byFlux = (controller: "kustomize" | "helm") => {
            pods.workloads.extraLabels[`${controller}.toolkit.fluxcd.io/name`] = "camunda";
            pods.workloads.extraLabels[`${controller}.toolkit.fluxcd.io/namespace`] = "flux-system";
        };
        const grow = (extra: Record<string, unknown> = {}, rules = READER) => ({
            brokerCount: 5,
            kubernetes: route({ kubeconfig: pods.user(rules, "reader").kubeconfig, ...extra }),
        });

        it("Argo CD without its recipe, with a rule lacking group, with it: preview and up refuse the first two, naming what the Application lacks; the third scales", async () => {
            byArgo();
            const named =
                "StatefulSet platform-zeebe is deployed by Argo CD (annotation argocd.argoproj.io/tracking-id): unless its recipe is in place, every sync";
            for (const [application, lacks] of [
                [{ spec: {} }, "Application argocd/camunda lacks its recipe: no ignoreDifferences rule for /spec/replicas of the StatefulSet"],
                [
                    argoRule({ ...REPLICAS_RULE, group: undefined }),
                    "its ignoreDifferences rule for /spec/replicas has no group: apps, and a rule without group matches nothing (argo-cd#28590)",
                ],
            ] as const) {
                pods.server.workloadApi!.objects.set(APPLICATION, application);
                const preview = await fixture.run("preview", grow(), { config: urls() });
                assert.ok(
                    printed(preview, named, "Recipe: on the Application, ignoreDifferences [{group: apps, kind: StatefulSet, name: platform-zeebe", lacks),
                    preview.result.stdout,
                );
                assert.match(failed(preview), /it would move spec\.replicas from 3, and StatefulSet platform-zeebe is deployed by Argo CD/);
                const up = await fixture.run("up", grow(), { config: urls(), skipPreview: true });
                assert.ok(failed(up).includes(lacks) && failed(up).includes("Nothing was sent."), failed(up));
                assert.deepStrictEqual(mutating(up.requests), []);
                assert.strictEqual(replicas(), 3);
            }
            pods.server.workloadApi!.objects.set(APPLICATION, argoRule(REPLICAS_RULE));
            const preview = await fixture.run("preview", grow(), { config: urls() });
            succeeded(preview);
            assert.ok(printed(preview, named, "Its recipe is in place (read from Application argocd/camunda)"), preview.result.stdout);
            assert.ok(!printed(preview, "spec.replicas is also written by argocd-controller"), "the controller was named twice");
            succeeded(await fixture.run("up", grow(), { config: urls() }));
            assert.strictEqual(replicas(), 5);
        });

        it("Flux kustomize-controller whose Kustomization cannot be read: refused until kubernetes.gitOpsRecipes says the recipe is in place", async () => {
            byFlux("kustomize");
            const preview = await fixture.run("preview", grow({}, OPERATOR_RULES), { config: urls() });
            assert.ok(
                printed(
                    preview,
                    "StatefulSet platform-zeebe is deployed by Flux kustomize-controller (labels kustomize.toolkit.fluxcd.io/*)",
                    "Recipe: on the Kustomization (v1.9.0 or later), spec.ignore [{paths: [/spec/replicas], target: {group: apps, kind: StatefulSet, name: platform-zeebe}}]",
                    "ClusterScale cannot read Kustomization flux-system/camunda (",
                    'up changes the count only once kubernetes.gitOpsRecipes lists "kustomize-controller"',
                ),
                preview.result.stdout,
            );
            failed(preview);
            const declared = grow({ gitOpsRecipes: ["kustomize-controller"] }, OPERATOR_RULES);
            const again = await fixture.run("preview", declared, { config: urls() });
            succeeded(again);
            assert.ok(
                printed(
                    again,
                    "The program says its recipe is in place (kubernetes.gitOpsRecipes; ClusterScale cannot read Kustomization flux-system/camunda)",
                ),
                again.result.stdout,
            );
            succeeded(await fixture.run("up", declared, { config: urls() }));
            assert.strictEqual(replicas(), 5);
        });

        it("Flux helm-controller: its HelmRelease read, without and with the post-renderer that removes /spec/replicas", async () => {
            byFlux("helm");
            pods.server.workloadApi!.objects.set(HELM_RELEASE, { spec: { driftDetection: { ignore: [{ paths: ["/spec/replicas"] }] } } });
            const preview = await fixture.run("preview", grow(), { config: urls() });
            assert.ok(
                printed(
                    preview,
                    "HelmRelease flux-system/camunda lacks its recipe: no postRenderers kustomize patch removing /spec/replicas from the StatefulSet (driftDetection.ignore does not cover upgrades)",
                ),
                preview.result.stdout,
            );
            failed(preview);
            const patch = "- op: remove\n  path: /spec/replicas\n";
            pods.server.workloadApi!.objects.set(HELM_RELEASE, {
                spec: { postRenderers: [{ kustomize: { patches: [{ target: { kind: "StatefulSet", name: "platform-zeebe" }, patch }] } }] },
            });
            succeeded(await fixture.run("up", grow(), { config: urls() }));
            assert.strictEqual(replicas(), 5);
        });

        it("a layout that does not move the count: the controller is named, nothing refused; a bad kubernetes.gitOpsRecipes is refused naming the field", async () => {
            byArgo();
            pods.server.workloadApi!.objects.set(KUSTOMIZATION, {});
            const same = { brokerCount: 3, kubernetes: route() };
            const preview = await fixture.run("preview", same, { config: urls() });
            succeeded(preview);
            assert.ok(
                printed(preview, "StatefulSet platform-zeebe is deployed by Argo CD", "ClusterScale cannot read Application argocd/camunda"),
                preview.result.stdout,
            );
            const bad = await fixture.run("preview", { brokerCount: 3, kubernetes: route({ gitOpsRecipes: ["argocd"] }) }, { config: urls() });
            assert.match(failed(bad), /kubernetes\.gitOpsRecipes must be a list of "argo-cd", "kustomize-controller", "helm-controller"/);
        });
    });

    it("replicas lowered by someone else below the layout's highest broker: preview refuses, naming the brokers and their partitions", async () => {
        await fixture.run("up", { brokerCount: 4, kubernetes: route() }, { config: urls() }).then(succeeded);
        pods.workloads.otherReplicaManagers.push({ manager: "helm", operation: "Update" });
        pods.workloads.setReplicas(3, undefined, "helm");
        const preview = await fixture.run("preview", { brokerCount: 4, kubernetes: route() }, { config: urls() });
        const stderr = failed(preview);
        assert.match(
            stderr,
            /its replicas \(3\) are below the layout's highest broker: broker 3 \(pod platform-zeebe-3\) is down already \(its pod gone or stopping\), though it holds partition replicas/,
        );
        // Who set it, as managedFields say: not a guess.
        assert.match(stderr, /; managedFields name Helm \(field manager helm\) as writer of spec\.replicas: raise it to 4 again/);
        assert.match(stderr, /partitions that would lose replicas: broker 3: \d/);
    });

    describe("the StatefulSet deleted and created again below the layout's count", () => {
        const creator = { manager: "pulumi-kubernetes-4f2a9c1e", operation: "Apply" } as const;
        const RECREATED =
            /StatefulSet platform-zeebe was deleted and created anew at \d{4}-\d\d-\d\dT[\d:.]+Z \(uid sts-platform-zeebe-\S+; the last up followed uid sts-platform-zeebe\), at the count its creator gave, not the layout's; managedFields name Pulumi's Kubernetes provider \(field manager pulumi-kubernetes-4f2a9c1e, server-side apply\) as writer of spec\.replicas: raise it to 5 again/;

        it("preview and up refuse, naming the re-creation (by uid) and its creator (from managedFields); nothing sent", async () => {
            const args = { brokerCount: 5, kubernetes: route() };
            await fixture.run("up", args, { config: urls() }).then(succeeded);
            assert.strictEqual(fixture.recordedOutput("statefulSetUid"), "sts-platform-zeebe");
            pods.workloads.recreateStatefulSet(3, creator);
            const preview = await fixture.run("preview", args, { config: urls() });
            assert.match(failed(preview), RECREATED);
            const up = await fixture.run("up", args, { config: urls() });
            assert.match(failed(up), RECREATED);
            assert.deepStrictEqual(mutating(up.requests), []);
            assert.strictEqual(replicas(), 3);
        });

        it("without a recorded uid (a state from before 0.4) or an API server that leaves it out: only who owns spec.replicas", async () => {
            const args = { brokerCount: 5, kubernetes: route() };
            await fixture.run("up", args, { config: urls() }).then(succeeded);
            pods.workloads.recreateStatefulSet(3, creator);
            const WRITER =
                /below the layout's highest broker: .*; managedFields name Pulumi's Kubernetes provider \(field manager pulumi-kubernetes-4f2a9c1e, server-side apply\) as writer of spec\.replicas: raise it to 5 again/;
            pods.workloads.leaveOutIdentity = true;
            const unnamed = failed(await fixture.run("preview", args, { config: urls() }));
            assert.match(unnamed, WRITER);
            assert.doesNotMatch(unnamed, /created anew/);
            pods.workloads.leaveOutIdentity = false;
            fixture.dropOutput("statefulSetUid");
            const unrecorded = failed(await fixture.run("preview", args, { config: urls() }));
            assert.match(unrecorded, WRITER);
            assert.doesNotMatch(unrecorded, /created anew/);
        });
    });

    it("preview warns when another manager (helm) also owns spec.replicas", async () => {
        pods.workloads.otherReplicaManagers.push({ manager: "helm", operation: "Update" });
        const preview = await fixture.run("preview", { brokerCount: 4, kubernetes: route() }, { config: urls() });
        succeeded(preview);
        assert.ok(
            printed(preview, "spec.replicas is also written by helm: its next apply either sets the count back or fails with a conflict"),
            preview.result.stdout,
        );
    });

    it("a user who may not list pods: up stops at its preview naming the permission, before any layout change", async () => {
        const blind = pods.user({ ...OPERATOR_RULES, pods: ["get"] }, "blind").kubeconfig;
        const up = await fixture.run("up", { brokerCount: 4, kubernetes: route({ kubeconfig: blind }) }, { config: urls() });
        const stderr = failed(up);
        assert.match(stderr, /cannot read StatefulSet platform-zeebe or its pods: .*cannot list resource "pods"/);
        assert.match(stderr, /the kubeconfig's user needs .*"list" and "watch" on pods/);
        assert.deepStrictEqual(mutating(up.requests), []);
    });

    it('a user who may not delete claims, with volumesOfRemovedBrokers "delete": preview and up refuse before the layout change, naming the permission', async () => {
        await fixture.run("up", { brokerCount: 4, kubernetes: route() }, { config: urls() }).then(succeeded);
        const keeper = pods.user({ ...OPERATOR_RULES, persistentvolumeclaims: ["get", "list", "watch"] }, "keeper").kubeconfig;
        const args = { brokerCount: 3, kubernetes: route({ kubeconfig: keeper, volumesOfRemovedBrokers: "delete" }) };
        for (const command of ["preview", "up"] as const) {
            const run = await fixture.run(command, args, { config: urls() });
            const stderr = failed(run);
            assert.match(
                stderr,
                /the API server says the kubeconfig's user may not delete resource "persistentvolumeclaims" \(data-platform-zeebe-3\) in namespace/,
            );
            assert.match(stderr, /the kubeconfig's user needs "delete" on persistentvolumeclaims in the namespace .*Nothing was sent/);
            assert.deepStrictEqual(mutating(run.requests), []);
        }
        assert.strictEqual(replicas(), 4);
        assert.ok(
            pods.server.workloadApi!.reviewsAsked.includes("delete persistentvolumeclaims data-platform-zeebe-3"),
            pods.server.workloadApi!.reviewsAsked.join("; "),
        );
    });

    it("a cluster that refuses SelfSubjectAccessReviews: up goes on, and the step that lacks the permission fails naming it (the scale-down itself completed)", async () => {
        await fixture.run("up", { brokerCount: 4, kubernetes: route() }, { config: urls() }).then(succeeded);
        pods.server.workloadApi!.accessReviews = "forbidden";
        const keeper = pods.user({ ...OPERATOR_RULES, persistentvolumeclaims: ["get", "list", "watch"] }, "keeper").kubeconfig;
        const up = await fixture.run(
            "up",
            { brokerCount: 3, kubernetes: route({ kubeconfig: keeper, volumesOfRemovedBrokers: "delete" }) },
            { config: urls() },
        );
        const stderr = failed(up);
        assert.match(stderr, /cannot delete claim data-platform-zeebe-3: .*cannot delete resource "persistentvolumeclaims"/);
        assert.match(stderr, /the kubeconfig's user needs "delete" on persistentvolumeclaims/);
        assert.strictEqual(replicas(), 3, "the scale-down itself completed");
        assert.ok(claimNames().includes("data-platform-zeebe-3"));
        assert.deepStrictEqual(pods.workloads.lost, []);
    });

    it("a user who may not scale the StatefulSet: up fails naming the permission, before any layout change", async () => {
        const viewer = pods.user({ ...OPERATOR_RULES, "statefulsets/scale": ["get"] }, "viewer").kubeconfig;
        const up = await fixture.run("up", { brokerCount: 4, kubernetes: route({ kubeconfig: viewer }) }, { config: urls() });
        const stderr = failed(up);
        assert.match(stderr, /may not update resource "statefulsets\/scale" \(platform-zeebe\)/);
        assert.match(stderr, /the kubeconfig's user needs "update" on statefulsets\/scale/);
        assert.deepStrictEqual(mutating(up.requests), []);
        pods.server.workloadApi!.accessReviews = "forbidden";
        const unreviewed = await fixture.run("up", { brokerCount: 4, kubernetes: route({ kubeconfig: viewer }) }, { config: urls() });
        assert.match(failed(unreviewed), /cannot scale the StatefulSet: .*cannot update resource "statefulsets\/scale"/);
        assert.deepStrictEqual(mutating(unreviewed.requests), []);
    });
});
