// An up killed (SIGKILL of the engine's processes) after its change was accepted leaves the layout from before the
// change in the stack. When the change completes before the next up, that up finds an empty plan: it must still record
// the live layout and its last change (saying so), or the stack keeps the old record for good and a later program asks
// for the old replication factor again. Each case found by the soak is a test named after it.
import * as assert from "assert";
import { ClusterScaleFixture, ScaleRun, mutating, output, printed, succeeded } from "./clusterScaleSupport";
import type { ChangeRecord } from "../../sdk/schemas";

const STALE = "the state records another layout than the cluster has";

describe("ClusterScale: a killed up whose change completes before the next up", function () {
    const fixture = new ClusterScaleFixture("in-process");
    before(() => fixture.start());
    after(() => fixture.stop());

    /** Runs up with `args`, killed once its change is accepted; returns the change's id once it has completed. */
    async function killedAfterAccepted(args: Parameters<ClusterScaleFixture["run"]>[1]): Promise<number> {
        const kill = new AbortController();
        let accepted: number | undefined;
        const killed = await fixture.run("up", args, {
            // Killed in the update pass: its preview pass is not the case.
            skipPreview: true,
            signal: kill.signal,
            onLine: (line) => {
                const match = / change (\d+) accepted/.exec(line);
                if (match && accepted === undefined) {
                    accepted = Number(match[1]);
                    kill.abort();
                }
            },
        });
        assert.strictEqual(killed.result.exitCode, 128 + 9, "the run was not killed");
        assert.ok(accepted !== undefined, "no change was accepted before the kill");
        // The change goes on without the killed run: its completion is an event of the emulator's.
        const completed = async () => {
            const state = await fixture.cluster().getCluster();
            return state.pendingChange === undefined && state.lastChange?.id === accepted;
        };
        await new Promise<void>((resolve, reject) => {
            const stop = fixture.emulator.control.onChange(() => void completed().then((done) => done && (stop(), resolve()), reject));
            void completed().then((done) => done && (stop(), resolve()), reject);
        });
        return accepted;
    }

    const recorded = (run: ScaleRun) => ({
        partitionCount: output<number>(run, "partitionCount"),
        replicationFactor: output<number>(run, "replicationFactor"),
        changeId: output<number>(run, "changeId"),
        lastChange: output<ChangeRecord>(run, "lastChange")?.status,
    });

    it("partitions 3 → 5: the next up records the live layout and the change, sending nothing; a preview after it finds nothing to do", async () => {
        fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3, partitionScaling: true, opMs: 30 });
        succeeded(await fixture.run("up", { brokerCount: 3, partitionCount: 3, replicationFactor: 3 }));
        const changeId = await killedAfterAccepted({ brokerCount: 3, partitionCount: 5, replicationFactor: 3 });

        const preview = await fixture.run("preview", { brokerCount: 3, partitionCount: 5, replicationFactor: 3 }, { inProcess: true });
        succeeded(preview);
        assert.strictEqual(preview.result.steps.find((step) => step.name === "cluster")?.op, "update");
        assert.ok(printed(preview, STALE, "partitions 3 → 5", "up records the live layout, sending nothing"), preview.hostLines.join("\n"));

        const up = await fixture.run("up", { brokerCount: 3, partitionCount: 5, replicationFactor: 3 }, { inProcess: true });
        succeeded(up);
        assert.deepStrictEqual(mutating(up.requests), []);
        assert.deepStrictEqual(recorded(up), { partitionCount: 5, replicationFactor: 3, changeId, lastChange: "COMPLETED" });
        assert.ok(printed(up, "the state recorded another layout (partitions 3 → 5", "recording the live one"), up.hostLines.join("\n"));

        const after = await fixture.run("preview", { brokerCount: 3, partitionCount: 5, replicationFactor: 3 }, { inProcess: true });
        succeeded(after);
        assert.strictEqual(after.result.steps.find((step) => step.name === "cluster")?.op, "same");
    });

    it("replication factor 3 → 2, a refresh in between: the next up records the intended factor 2, and a later program that leaves it out plans nothing", async () => {
        fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3, opMs: 30 });
        succeeded(await fixture.run("up", { brokerCount: 3, replicationFactor: 3 }));
        const changeId = await killedAfterAccepted({ brokerCount: 3, replicationFactor: 2 });
        // Refresh reads the live layout back, but not the factor the program intends: the up after it records that.
        succeeded(await fixture.run("refresh", { brokerCount: 3, replicationFactor: 2 }, { inProcess: true }));

        const up = await fixture.run("up", { brokerCount: 3, replicationFactor: 2 }, { inProcess: true });
        succeeded(up);
        assert.deepStrictEqual(mutating(up.requests), []);
        assert.deepStrictEqual(recorded(up), { partitionCount: 3, replicationFactor: 2, changeId, lastChange: "COMPLETED" });
        assert.strictEqual(up.resource?.outputs.intendedReplicationFactor, 2);

        const leftOut = await fixture.run("preview", { brokerCount: 3 }, { inProcess: true });
        succeeded(leftOut);
        assert.strictEqual(leftOut.result.steps.find((step) => step.name === "cluster")?.op, "same", leftOut.hostLines.join("\n"));
        assert.ok(!printed(leftOut, "up will apply"), leftOut.hostLines.join("\n"));
    });
});
