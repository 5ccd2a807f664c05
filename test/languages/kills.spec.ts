// A Python program's up through the provider plugin, stopped while ClusterScale waits for its change (see
// test/cli/stoppedRun.ts): the plugin process goes within seconds, nothing more reaches the cluster, and the next up
// waits for the same change instead of sending another.
import assert from "node:assert/strict";
import * as path from "node:path";
import { printed, succeeded } from "../cli/cliAssertions";
import { arrivals, stoppedUp } from "../cli/stoppedRun";
import { useEmulator } from "../support/emulator";
import { PULUMI_SDK_MATCH } from "../tools/pulumi";
import { languageStack } from "./languageTools";

for (const stop of ["SIGKILL", "SIGINT"] as const) {
    describe(`${stop} of a Python program's up under pulumi ${PULUMI_SDK_MATCH} and the provider plugin`, function () {
        this.timeout(240_000);
        const emulator = useEmulator({ brokers: 3, partitions: 3, replicationFactor: 3, running: [0, 1, 2, 3, 4], opMs: 300 });

        it("while ClusterScale waits for its change: the plugin goes, nothing more is sent, and the next up waits for that change", async () => {
            const stack = await languageStack("python", path.join(__dirname, "programs", "pythonScale"), {
                config: { managementUrl: emulator().managementUrl, brokerCount: "5" },
            });
            try {
                const run = await stoppedUp(stack, stop, { line: "accepted" }, () => arrivals(emulator()));
                if (stop === "SIGINT") printed(run, "ran: it goes on in the cluster, and the next up waits for it");
                succeeded(await stack.up());
                assert.equal((emulator().control.state() as { acceptedChanges: number }).acceptedChanges, 1, "a second layout change was accepted");
                assert.deepEqual((await stack.outputs()).brokers, [0, 1, 2, 3, 4]);
                succeeded(await stack.preview("--expect-no-changes"));
            } finally {
                stack.dispose();
            }
        });
    });
}
