// 4. Concurrency: two stacks (two state files, two runs at once) scale the same cluster to different layouts. The
// one that comes second waits for the first one's change, naming it, then applies its own; nothing is lost: both
// changes complete, one scale request each, the cluster ends with the layout of the last writer, and after a
// refresh each stack's state agrees with the live cluster.
//
// Each stack adds a broker of its own (3 or 4), stopped at first, so each change stalls at its BROKER_ADD until the
// test starts that broker: the first one's once both runs have shown where they are (one has sent its change, the
// other waits for it), the second one's once the first run has ended. So the order is fixed whatever the timing.
import * as assert from "assert";
import { Lab, LabRun, LabStack, Scenario, Section, cluster, once, requestLine, resourceOf, scaleRequests, succeeded } from "./support";

interface Writer {
    label: string;
    brokers: number[];
    /** The broker this stack adds (stopped until the test starts it). */
    added: number;
    stack: LabStack;
    /** The change this stack's run sent, once it says so. */
    sent?: number;
    /** The change (not its own) this stack's run said it waits for. */
    waitedFor?: number;
}

export function concurrency(lab: Lab): Section {
    const emulatorOnce = once(() => lab.emulator());
    const scenarios: Scenario[] = [
        {
            name: "the second waits for the first one's change, naming it; the last writer's layout wins; refresh agrees with the cluster",
            run: async () => {
                const emulator = await emulatorOnce();
                emulator.control.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
                emulator.control.clearRequests();
                const writers: Writer[] = [
                    { label: "concurrent stack A", brokers: [0, 1, 2, 3], added: 3, stack: lab.stack("concurrent stack A") },
                    { label: "concurrent stack B", brokers: [0, 1, 2, 4], added: 4, stack: lab.stack("concurrent stack B") },
                ];
                const ended = new Map<Writer, Promise<unknown>>();
                let started = false;
                const observe = (writer: Writer, line: string): void => {
                    const accepted = / change (\d+) accepted /.exec(line);
                    if (accepted && writer.sent === undefined) writer.sent = Number(accepted[1]);
                    const waiting = / change (\d+) \(started outside this resource, or by an interrupted run\) is in progress; waiting/.exec(line);
                    if (waiting && writer.sent === undefined) writer.waitedFor ??= Number(waiting[1]);
                    const [a, b] = writers;
                    const firstAndWaiting = (first: Writer, second: Writer) => first.sent !== undefined && second.waitedFor === first.sent;
                    if (!started && (firstAndWaiting(a, b) || firstAndWaiting(b, a))) {
                        started = true;
                        const [first, second] = firstAndWaiting(a, b) ? [a, b] : [b, a];
                        emulator.control.startBroker(first.added);
                        void ended
                            .get(first)!
                            .finally(() => emulator.control.startBroker(second.added))
                            .catch(() => undefined);
                    }
                };
                for (const writer of writers) {
                    const run = lab.run(emulator, writer.stack, {
                        command: "up",
                        scale: { brokers: writer.brokers },
                        clearLog: false,
                        ownProcess: true,
                        onLine: (line) => observe(writer, line),
                    });
                    ended.set(writer, run);
                }
                const runs = await Promise.all(writers.map((writer) => ended.get(writer) as Promise<LabRun>));
                runs.forEach(succeeded);
                assert.ok(started, `the runs never overlapped: ${writers.map((w) => `${w.label} sent ${w.sent} waited for ${w.waitedFor}`).join("; ")}`);

                const [first, second] = writers[0].waitedFor === undefined ? [writers[0], writers[1]] : [writers[1], writers[0]];
                const [firstRun, secondRun] = first === writers[0] ? runs : [runs[1], runs[0]];
                assert.strictEqual(second.waitedFor, first.sent, "the second run did not wait for the first one's change");
                assert.ok(
                    secondRun.hostLines.some((line) => line.includes(`change ${first.sent} `)),
                    "the second run did not name the pending change",
                );

                // A request sent while the other change ran is refused with 409 and changes nothing; the second run then waits.
                const sent = scaleRequests(emulator.control.requests());
                const accepted = sent.filter((entry) => entry.status === 202);
                assert.strictEqual(accepted.length, 2, `not exactly one accepted scale request per stack: ${sent.map(requestLine).join(", ")}`);
                assert.ok(
                    sent.every((entry) => entry.status === 202 || entry.status === 409),
                    sent.map(requestLine).join(", "),
                );
                const live = await cluster(emulator).getCluster();
                assert.strictEqual(live.lastChange?.status, "COMPLETED");
                assert.strictEqual(live.lastChange?.id, second.sent, "the last change is not the second writer's");
                assert.ok(second.sent! > first.sent!);
                assert.deepStrictEqual(brokerIds(live.brokers), second.brokers, "the final layout is not the last writer's");
                assertRecords(firstRun, first.sent!, first.brokers);
                assertRecords(secondRun, second.sent!, second.brokers);

                // Each stack's state, refreshed, agrees with the live cluster (the first stack's layout was overwritten).
                const refreshed = await Promise.all(writers.map((writer) => lab.run(emulator, writer.stack, { command: "refresh", clearLog: false })));
                for (const run of refreshed) {
                    succeeded(run);
                    const outputs = resourceOf(run)!.outputs;
                    assert.deepStrictEqual(brokerIds(outputs.topology as { id: number }[]), brokerIds(live.brokers));
                    assert.strictEqual(outputs.changeId, live.lastChange?.id);
                }
            },
        },
    ];
    return { number: 4, title: "concurrency: two stacks scale the same cluster at once", scenarios };
}

function assertRecords(run: LabRun, changeId: number, brokers: number[]): void {
    const outputs = resourceOf(run)!.outputs;
    assert.strictEqual(outputs.changeId, changeId, "a stack records another change than its own");
    assert.deepStrictEqual(brokerIds(outputs.topology as { id: number }[]), brokers);
}

function brokerIds(brokers: readonly { id: number }[]): number[] {
    return brokers.map((broker) => broker.id).sort((a, b) => a - b);
}
