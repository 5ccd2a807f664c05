// 7. Malformed answers from the management API: cut-short JSON, values of the wrong type, an HTML error page, an
// operation name this package does not know. The reference says to ignore unknown operation names (new ones come
// with every minor release): such a plan is shown and applied. An answer that cannot be read is a clear error
// when it decides something (a plan at preview, the cluster before planning), and is read again when it does not
// (a poll while waiting, or the answer to the scale request, after which the cluster itself is read). Never a
// crash, never a request sent twice.
import * as assert from "assert";
import type { RunningEmulator } from "../emulator";
import { Lab, Scenario, Section, cluster, failed, mutating, once, printed, requestLine, resourceOf, scaleRequests, succeeded, until } from "./support";
import { completedAsRecorded } from "./waitFaults";

const CLUSTER_PATH = "/actuator/cluster";
const HTML_PAGE = "<!DOCTYPE html><html><head><title>Sign in</title></head><body><form action=/login></form></body></html>";

export function malformedAnswers(lab: Lab): Section {
    const emulatorOnce = once(() => lab.emulator());
    /** The section's emulator, reset to 3 brokers, 3 partitions, replication factor 3 (broker 3 stopped). */
    const freshEmulator = async (): Promise<RunningEmulator> => {
        const emulator = await emulatorOnce();
        emulator.control.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
        return emulator;
    };
    const scenarios: Scenario[] = [];

    for (const [kind, body, problem] of [
        ["cut short", '{"changeId":2,"currentTopology":[{"id":0,"state":"ACT', /the body is not valid JSON/],
        ["with a value of the wrong type", '{"changeId":"two","currentTopology":[],"plannedChanges":[],"expectedTopology":[]}', /changeId/],
    ] as const) {
        scenarios.push({
            name: `a plan (dry run) ${kind}: preview fails naming the management API and what is wrong, and sends nothing`,
            run: async () => {
                const emulator = await freshEmulator();
                emulator.control.addFault({ interface: "management", query: { dryRun: "true" }, count: 1, status: 202, body });
                const run = await lab.run(emulator, lab.stack(`dry run ${kind}`), { command: "preview", scale: { brokerCount: 4 } });
                const errors = failed(run);
                assert.match(errors, /has a problem: managementUrl: the answer is not the cluster management API's/);
                assert.match(errors, problem);
                assert.deepStrictEqual(mutating(run.requests), []);
            },
        });
    }

    scenarios.push({
        name: "an HTML error page instead of a plan at preview (a proxy's 502): preview goes on, saying the plan is unknown",
        run: async () => {
            const emulator = await freshEmulator();
            emulator.control.addFault({ interface: "management", query: { dryRun: "true" }, count: 1, status: 502, body: HTML_PAGE, contentType: "text/html" });
            const run = await lab.run(emulator, lab.stack("dry run html 502"), { command: "preview", scale: { brokerCount: 4 } });
            succeeded(run);
            assert.ok(printed(run, "the plan could not be computed: cannot reach the management API"), run.result.stdout);
            assert.ok(
                run.hostLines.every((line) => !line.includes("<html")),
                "the page was printed",
            );
            assert.deepStrictEqual(mutating(run.requests), []);
        },
    });

    scenarios.push({
        name: "an HTML page with status 200 instead of the cluster (a login page): up fails clearly before sending anything",
        run: async () => {
            const emulator = await freshEmulator();
            emulator.control.addFault({ interface: "management", method: "GET", count: 1, status: 200, body: HTML_PAGE, contentType: "text/html" });
            const run = await lab.run(emulator, lab.stack("html instead of cluster"), { command: "up", scale: { brokerCount: 3, replicationFactor: 2 } });
            const errors = failed(run);
            assert.match(
                errors,
                new RegExp(`ClusterScale "cluster": cannot read the cluster: GET ${CLUSTER_PATH}, status 200: .*not valid JSON.*\\. Nothing was sent\\.`),
            );
            assert.ok(!errors.includes("<html"), "the page was repeated in the error");
            assert.deepStrictEqual(mutating(run.requests), []);
        },
    });

    scenarios.push({
        name: "a plan with an operation this package does not know: shown at preview, applied once, recorded",
        run: async () => {
            const emulator = await freshEmulator();
            emulator.control.startBroker(3);
            const plan = await dryRunText(emulator, [0, 1, 2, 3]);
            const parsed = JSON.parse(plan) as { changeId: number; plannedChanges: unknown[] };
            parsed.plannedChanges.unshift({ operation: "PRE_SCALING", brokerId: 0, brokers: [0, 1, 2, 3] });
            const doctored = JSON.stringify(parsed);
            // The dry runs of check and of apply, then the answer to the real request (the cluster acts on it as usual).
            emulator.control.addFault({ interface: "management", query: { dryRun: "true" }, count: 2, status: 202, body: doctored });
            emulator.control.addFault({ interface: "management", method: "POST", query: { dryRun: null }, count: 1, afterProcessing: true, body: doctored });
            const run = await lab.run(emulator, lab.stack("unknown operation"), { command: "up", scale: { brokerCount: 4 } });
            succeeded(run);
            const operations = parsed.plannedChanges.length;
            assert.ok(printed(run, `up will apply ${operations} operations (change ${parsed.changeId})`), run.result.stdout);
            assert.ok(printed(run, `change ${parsed.changeId} accepted`, `${operations} operations`), run.result.stdout);
            const recorded = resourceOf(run)!.outputs.plannedChanges as { operation: string }[];
            assert.strictEqual(recorded[0].operation, "PRE_SCALING");
            assert.strictEqual(recorded.length, operations);
            await completedAsRecorded(emulator, run, [0, 1, 2, 3]);
        },
    });

    scenarios.push({
        name: "the answer to the scale request cut short after the cluster accepted it: not sent again, the change is found and awaited",
        run: async () => {
            const emulator = await freshEmulator();
            emulator.control.startBroker(3);
            emulator.control.addFault({
                interface: "management",
                method: "POST",
                query: { dryRun: null },
                count: 1,
                afterProcessing: true,
                body: '{"changeId":2,"currentTopol',
            });
            const run = await lab.run(emulator, lab.stack("scale answer cut short"), { command: "up", scale: { brokerCount: 4 } });
            succeeded(run);
            assert.ok(printed(run, "the request may or may not have been accepted"), run.result.stdout);
            assert.deepStrictEqual(scaleRequests(run.requests).map(requestLine), ["POST /actuator/cluster/brokers?replicationFactor=3 202"]);
            await completedAsRecorded(emulator, run, [0, 1, 2, 3]);
        },
    });

    scenarios.push({
        name: "the scale answer cut short and the cluster unreadable right after: the change id is kept, the next up waits for it",
        run: async () => {
            const emulator = await freshEmulator();
            // Broker 3 is stopped: the change stalls, so it is still running when the next up comes.
            emulator.control.addFault({
                interface: "management",
                method: "POST",
                query: { dryRun: null },
                count: 1,
                afterProcessing: true,
                body: '{"changeId":2,"curr',
            });
            // The first GET (before planning) is answered as usual (a fault of no delay); the one after the scale request is a page.
            emulator.control.addFault({ interface: "management", method: "GET", count: 1, delayMs: 0 });
            emulator.control.addFault({ interface: "management", method: "GET", count: 1, status: 200, body: HTML_PAGE, contentType: "text/html" });
            const stack = lab.stack("scale answer and cluster unreadable");
            const first = await lab.run(emulator, stack, { command: "up", scale: { brokerCount: 4 } });
            const errors = failed(first);
            const pending = (await cluster(emulator).getCluster()).pendingChange;
            assert.ok(pending !== undefined, "no change was accepted: the test proves nothing");
            assert.match(errors, new RegExp(`cannot read the cluster: .*; change ${pending.id} may be running: the next up waits for it`));
            assert.strictEqual(resourceOf(first)!.outputs.changeId, pending.id, "the partial failure did not keep the change id");

            const second = await lab.run(emulator, stack, {
                command: "up",
                scale: { brokerCount: 4 },
                onLine: (line) => {
                    if (line.includes(`change ${pending.id} (started by an earlier run) is in progress`)) emulator.control.startBroker(3);
                },
            });
            succeeded(second);
            assert.deepStrictEqual(scaleRequests(second.requests), [], "the change was sent again");
            await completedAsRecorded(emulator, { ...second, requests: [...first.requests, ...second.requests] }, [0, 1, 2, 3]);
        },
    });

    scenarios.push({
        name: "unreadable answers while waiting (cut short, an HTML page): read again, the change is awaited to completion",
        run: async () => {
            const emulator = await freshEmulator();
            let injected: Promise<void> | undefined;
            let ended = false;
            const run = await lab.run(emulator, lab.stack("unreadable polls"), {
                command: "up",
                scale: { brokerCount: 4 },
                onLine: (line) => {
                    if (injected === undefined && / change \d+ accepted /.test(line)) {
                        injected = (async () => {
                            emulator.control.addFault({
                                interface: "management",
                                method: "GET",
                                count: 2,
                                status: 200,
                                body: '{"version":2,"brokers":[{"id":0',
                            });
                            emulator.control.addFault({
                                interface: "management",
                                method: "GET",
                                count: 1,
                                status: 200,
                                body: HTML_PAGE,
                                contentType: "text/html",
                            });
                            await until(
                                () => ((emulator.control.state() as { faults: unknown[] }).faults.length === 0 ? true : undefined),
                                () => ended,
                            );
                            emulator.control.startBroker(3);
                        })();
                        injected.catch(() => undefined);
                    }
                },
            });
            ended = true;
            succeeded(run);
            await injected;
            assert.ok(printed(run, "failed (", "still waiting for it"), run.result.stdout);
            assert.ok(
                run.hostLines.every((line) => !line.includes("<html")),
                "the page was printed",
            );
            await completedAsRecorded(emulator, run, [0, 1, 2, 3]);
        },
    });
    return { number: 7, title: "malformed answers: clear errors or tolerant reading, no crash, nothing sent twice", scenarios };
}

/** The body of the dry run of POST /brokers, as the emulator answers it. */
async function dryRunText(emulator: RunningEmulator, brokers: number[]): Promise<string> {
    const response = await fetch(`${emulator.managementUrl}${CLUSTER_PATH}/brokers?dryRun=true`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(brokers),
    });
    assert.strictEqual(response.status, 202);
    return response.text();
}
