// 2. Faults while waiting: whatever happens to the answers while a change runs (connection resets, 500, 502, 503,
// 504, slow answers, the management port refusing connections for a while), up keeps waiting for that change to
// completion and sends exactly one scale request. And the scale request whose answer is lost after the cluster
// accepted it ("504 but accepted", a reset after processing): it is never sent again; up finds the change and waits.
//
// The change under test stalls at BROKER_ADD until the test starts the new broker, so the faults always meet a
// wait in progress, however slow the machine: the test injects them once up says the change was accepted, and
// starts the broker only when every fault has been served.
import * as assert from "assert";
import type { RunningEmulator } from "../emulator";
import type { FaultSpec } from "../emulator";
import { Lab, LabRun, Scenario, Section, cluster, once, printed, requestLine, resourceOf, scaleRequests, succeeded, until } from "./support";

/** Longer than the longest pause between two polls of a stalled change (2 s), so that polls meet the closed port. */
const OUTAGE_MS = 2_500;

export function waitFaults(lab: Lab): Section {
    const emulatorOnce = once(() => lab.emulator());
    const scenarios: Scenario[] = [];
    scenarios.push({
        name: "resets, 500, 502, 503, 504, slow answers and a closed management port, one after another, during one wait",
        run: async () => {
            const emulator = await emulatorOnce();
            emulator.control.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
            const stack = lab.stack("faults while waiting");
            const polls: Omit<FaultSpec, "interface" | "method">[] = [
                { count: 2, reset: true },
                { count: 2, status: 500 },
                { count: 1, status: 502 },
                { count: 1, status: 503 },
                { count: 1, status: 504 },
                { count: 2, delayMs: 400 },
            ];
            let storm: Promise<void> | undefined;
            let ended = false;
            const runEnded = (): boolean => ended;
            const run = await lab.run(emulator, stack, {
                command: "up",
                scale: { brokerCount: 4 },
                onLine: (line) => {
                    if (storm === undefined && / change \d+ accepted /.test(line)) {
                        storm = (async () => {
                            for (const fault of polls) emulator.control.addFault({ interface: "management", method: "GET", ...fault });
                            await until(() => (faultsPending(emulator) === 0 ? true : undefined), runEnded);
                            await emulator.control.outage("management", OUTAGE_MS);
                            await until(() => (isDown(emulator) ? undefined : true), runEnded);
                            emulator.control.startBroker(3);
                        })();
                        storm.catch(() => undefined); // awaited below, once the run has ended
                    }
                },
            });
            ended = true;
            succeeded(run);
            assert.ok(storm !== undefined, "up never said the change was accepted");
            await storm;
            const gets = run.requests.filter((entry) => entry.interface === "management" && entry.method === "GET").map((entry) => entry.status);
            assert.deepStrictEqual(
                gets.filter((status) => status !== 200),
                [0, 0, 500, 500, 502, 503, 504],
                `the faults did not all meet the wait: ${run.requests.map(requestLine).join(", ")}`,
            );
            await completedAsRecorded(emulator, run, [0, 1, 2, 3]);
        },
    });

    for (const [kind, fault] of [
        ["answered 504 after the cluster accepted it", { status: 504 }],
        ["whose connection was reset after the cluster accepted it", { reset: true }],
    ] as const) {
        scenarios.push({
            name: `a scale request ${kind}: not sent again; up finds the change and waits for it`,
            run: async () => {
                const emulator = await emulatorOnce();
                emulator.control.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
                emulator.control.startBroker(3);
                emulator.control.addFault({
                    interface: "management",
                    method: "POST",
                    pathPrefix: "/actuator/cluster/brokers",
                    query: { dryRun: null },
                    count: 1,
                    afterProcessing: true,
                    ...fault,
                });
                const run = await lab.run(emulator, lab.stack(`scale request ${kind}`), { command: "up", scale: { brokerCount: 4 } });
                succeeded(run);
                assert.ok(printed(run, "the request may or may not have been accepted"), run.result.stdout);
                const statuses = scaleRequests(run.requests).map((entry) => entry.status);
                assert.deepStrictEqual(statuses, ["reset" in fault ? 0 : 504], `sent again: ${run.requests.map(requestLine).join(", ")}`);
                await completedAsRecorded(emulator, run, [0, 1, 2, 3]);
            },
        });
    }
    return { number: 2, title: "faults while waiting: the change is awaited to completion, with one scale request", scenarios };
}

/** Exactly one scale request; the cluster completed the change the state records, with the brokers wanted. */
export async function completedAsRecorded(emulator: RunningEmulator, run: LabRun, brokers: number[]): Promise<void> {
    assert.strictEqual(scaleRequests(run.requests).length, 1, `scale requests: ${scaleRequests(run.requests).map(requestLine).join(", ")}`);
    const live = await cluster(emulator).getCluster();
    const outputs = resourceOf(run)!.outputs;
    assert.strictEqual(live.pendingChange, undefined);
    assert.strictEqual(live.lastChange?.status, "COMPLETED");
    assert.strictEqual(outputs.changeId, live.lastChange?.id, "the state records another change than the one the cluster completed");
    assert.deepStrictEqual((outputs.lastChange as { status: string }).status, "COMPLETED");
    assert.deepStrictEqual(
        live.brokers.map((broker) => broker.id).sort((a, b) => a - b),
        brokers,
    );
    assert.strictEqual(resourceOf(run)!.initErrors, undefined);
}

function faultsPending(emulator: RunningEmulator): number {
    return (emulator.control.state() as { faults: unknown[] }).faults.length;
}

function isDown(emulator: RunningEmulator): boolean {
    return (emulator.control.state() as { interfacesDown: string[] }).interfacesDown.length > 0;
}
