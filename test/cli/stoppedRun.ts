// An `up` stopped the two ways pipelines stop, and what must hold after: SIGKILL of the CLI's process group (a job's
// timeout, a cancelled runner) and SIGINT (Ctrl-C: the CLI asks its providers to Cancel and waits for the steps in
// flight). The CLI starts its provider hosts in process groups of their own, so no kill of its group reaches them:
// they must see for themselves that their engine is gone. Then, within 10 s, no process of the run is left (the
// process table, by the stack's PULUMI_HOME), and nothing more reaches the platform.
import assert from "node:assert/strict";
import type { RunningEmulator } from "../emulator";
import type { BrokerPods } from "../support/brokerPods";
import { describeProcesses, untilGone } from "../support/processTable";
import { succeeded } from "./cliAssertions";
import type { CliResult, CliStack } from "./cliStack";

export type Stop = "SIGKILL" | "SIGINT";
/** When the up is stopped: at the first line that shows this text, or when this happens. */
export type StopPoint = { line: string } | { event: Promise<void>; what: string };

const PROCESSES_GONE_MS = 10_000;

/** A request the platform served: when it arrived (ms since the epoch, the server's own clock) and what it was. */
export interface Arrival {
    at: number;
    request: string;
}

/** The requests the emulator and the Kubernetes API stand-in served so far, each with the moment it arrived. */
export function arrivals(emulator: RunningEmulator, pods?: BrokerPods): Arrival[] {
    return [
        ...emulator.control.requests().map((entry) => ({ at: Date.parse(entry.at), request: `${entry.method} ${entry.path}` })),
        ...(pods?.server.workloadApi?.served ?? []).map((entry) => ({ at: entry.at, request: `kubernetes ${entry.request}` })),
    ];
}

/**
 * `up`, stopped by `stop` at `at`; then every process of the run is gone within 10 s, and nothing more reaches the
 * platform (no request `arrived` after that) while the lock is lifted (a killed CLI's; an interrupted one leaves none)
 * and the state read. A request that arrived before, still being answered then, is not one more.
 */
export async function stoppedUp(stack: CliStack, stop: Stop, at: StopPoint, arrived: () => Arrival[]): Promise<CliResult> {
    const controller = new AbortController();
    let stopped = false;
    const fire = () => {
        if (stopped) return;
        stopped = true;
        controller.abort();
    };
    const onLine = "line" in at ? (line: string) => line.includes(at.line) && fire() : undefined;
    if ("event" in at) void at.event.then(fire);
    // Without its preview pass, as the Automation API runs an up: every stop point is in the update.
    const run = await stack.run(
        ["up", "--yes", "--skip-preview"],
        stop === "SIGKILL" ? { signal: controller.signal, onLine } : { interrupt: controller.signal, onLine },
    );
    const where = "line" in at ? `the line "${at.line}"` : at.what;
    assert.ok(stopped, `the up ended before ${where}:\n${run.lines.join("\n")}`);
    if (stop === "SIGKILL") assert.equal(run.exitCode, 128 + 9, `the up was not killed at ${where}:\n${run.lines.join("\n")}`);
    else assert.notEqual(run.exitCode, 0, `the interrupted up succeeded:\n${run.lines.join("\n")}`);

    const left = await untilGone(() => stack.processes(), PROCESSES_GONE_MS);
    assert.deepEqual(left, [], `processes of the stopped up still ran ${PROCESSES_GONE_MS / 1000} s after the ${stop}:\n${describeProcesses(left)}`);
    const goneAt = Date.now();
    if (stop === "SIGKILL") {
        assert.ok(stack.locks().length > 0, "the killed up left no lock: the next up would not need pulumi cancel");
        succeeded(await stack.run(["cancel", "--yes"]));
    }
    assert.deepEqual(stack.locks(), [], "the stack is still locked");
    await stack.exportState();
    const late = arrived()
        .filter((arrival) => arrival.at > goneAt)
        .map((arrival) => `${arrival.request} at ${new Date(arrival.at).toISOString()}`);
    assert.deepEqual(late, [], `requests arrived after the stopped up's last process was seen gone (${new Date(goneAt).toISOString()})`);
    return run;
}
