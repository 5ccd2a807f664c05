// 3. Interrupted apply: the run is killed (SIGKILL, its provider host dies with it) while up waits for the change
// it started, before anything of the resource reached the state. The next up finds that very change running, waits for
// it and sends no second scale request.
import * as assert from "assert";
import { Lab, Scenario, Section, cluster, once, printed, requestLine, resourceOf, scaleRequests, succeeded } from "./support";
import { completedAsRecorded } from "./waitFaults";

export function interruptedApply(lab: Lab): Section {
    const emulatorOnce = once(() => lab.emulator());
    const scenarios: Scenario[] = [
        {
            name: "an up killed mid-wait; the next up waits for its change and sends nothing",
            run: async () => {
                const emulator = await emulatorOnce();
                emulator.control.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
                const stack = lab.stack("interrupted apply");

                // Broker 3 is not running: the change stalls at BROKER_ADD, so the kill always lands mid-wait.
                const kill = new AbortController();
                let changeId: number | undefined;
                let operations = 0;
                const killed = await lab.run(emulator, stack, {
                    command: "up",
                    scale: { brokerCount: 4 },
                    // Killed in the update pass: its preview pass is not the case.
                    skipPreview: true,
                    signal: kill.signal,
                    onLine: (line) => {
                        const accepted = / change (\d+) accepted \(.*\): (\d+) operations/.exec(line);
                        if (accepted && changeId === undefined) {
                            changeId = Number(accepted[1]);
                            operations = Number(accepted[2]);
                            kill.abort();
                        }
                    },
                });
                assert.ok(changeId !== undefined, `up never said a change was accepted\n${killed.result.stdout}`);
                assert.strictEqual(killed.result.exitCode, 128 + 9, "the run was not killed");
                assert.deepStrictEqual(scaleRequests(killed.requests).map(requestLine), ["POST /actuator/cluster/brokers?replicationFactor=3 202"]);
                const pending = (await cluster(emulator).getCluster()).pendingChange;
                assert.strictEqual(pending?.id, changeId, "the killed run's change is not the one in progress");

                const resumed = await lab.run(emulator, stack, {
                    command: "up",
                    scale: { brokerCount: 4 },
                    // The broker starts only once this up waits for the change, so the resumed wait is observed, not raced.
                    onLine: (line) => {
                        if (line.includes(`change ${changeId} (started outside this resource, or by an interrupted run) is in progress`))
                            emulator.control.startBroker(3);
                    },
                });
                succeeded(resumed);
                // The run was killed inside create: the resource never reached the state, only the engine's note that it was being created.
                assert.strictEqual(resourceOf(killed), undefined);
                assert.match(
                    resumed.result.stderr + resumed.result.stdout,
                    /Attempting to deploy or update resources with 1 pending operations from previous deployment\.\n {2}\* \S+ClusterScale::cluster, interrupted while creating/,
                );
                assert.ok(
                    printed(resumed, `change ${changeId} (started outside this resource, or by an interrupted run) is in progress; waiting for it`),
                    resumed.result.stdout,
                );
                assert.deepStrictEqual(scaleRequests(resumed.requests).map(requestLine), [], "a second scale request was sent");
                assert.strictEqual(resourceOf(resumed)!.outputs.changeId, changeId, "the state records another change");
                assert.strictEqual(
                    (resourceOf(resumed)!.outputs.plannedChanges as unknown[]).length,
                    operations,
                    "the plan of the resumed change is not recorded",
                );
                await completedAsRecorded(emulator, { ...resumed, requests: [...killed.requests, ...resumed.requests] }, [0, 1, 2, 3]);
            },
        },
    ];
    return { number: 3, title: "interrupted apply: the next up resumes the same change", scenarios };
}
