// The dynamic-provider host's life around ClusterScale, through the real host process as the CLI starts it (its stdin
// a pipe the engine holds): a host whose engine is gone (the pipe closed, its output unread, or only its output
// broken) exits within seconds, in the middle of its wait for a change, which goes on in the cluster; and the
// engine's Cancel (Ctrl-C) ends the wait with a partial failure that keeps the change's id, sending nothing more.
// Under the real CLI, for every kind of stop: test/cli/stoppedUps.ts.
import assert from "node:assert/strict";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { clusterScaleShim } from "../../provider/clusterScale/resource";
import { DynamicHost, HostCallError } from "../engine/dynamicHost";
import type { PropertyMap } from "../engine/propertyValues";
import { useEmulator } from "../support/emulator";

const URN = "urn:pulumi:dev::lifetime::pulumi-nodejs:dynamic/platform:ClusterScale::cluster";
const GONE_WITHIN_MS = 10_000;

describe("the dynamic-provider host's life: it ends with its engine, and stops on Cancel", function () {
    this.timeout(60_000);
    const emulator = useEmulator({ brokers: 3, partitions: 3, replicationFactor: 3, running: [0, 1, 2, 3, 4], opMs: 400 });
    let serialized: string;
    let host: DynamicHost | undefined;
    let lines: string[];
    let onLine: (line: string) => void;

    before(async () => {
        serialized = (await pulumi.runtime.serializeFunction(() => clusterScaleShim, { allowSecrets: true })).text;
    });
    beforeEach(async () => {
        lines = [];
        onLine = () => undefined;
        host = await DynamicHost.start({
            cwd: path.resolve(__dirname, "..", ".."),
            project: "lifetime",
            onLog: (_stream, line) => {
                lines.push(line);
                onLine(line);
            },
        });
        await host.configure({});
    });
    afterEach(() => host?.stop());

    const served = () => emulator().control.requests().length;
    const pending = () => (emulator().control.state() as { pendingChange?: unknown }).pendingChange !== undefined;
    /** Resolves at the first line the host prints that holds `text`. */
    const line = (text: string) =>
        new Promise<void>((resolve) => {
            onLine = (printed) => printed.includes(text) && resolve();
        });

    /** Up's create of 3 → 5 brokers: check, then create (left running). */
    async function createInFlight(): Promise<Promise<unknown>> {
        const news = {
            resourceName: "cluster",
            dryRun: false,
            managementUrl: emulator().managementUrl,
            brokerCount: 5,
            partitionCount: 3,
            replicationFactor: 3,
            timeoutSeconds: 600,
            __provider: serialized,
        } as PropertyMap;
        const checked = await host!.check(URN, {}, news);
        assert.deepEqual(checked.failures, []);
        return host!.create(URN, checked.inputs).then(
            () => assert.fail("the create completed"),
            (error: unknown) => error,
        );
    }

    async function exitsWithin(ms: number): Promise<void> {
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), ms)));
        const outcome = await Promise.race([host!.whenExited().then(() => "exited" as const), late]);
        clearTimeout(timer);
        assert.equal(outcome, "exited", `the host still ran ${ms / 1000} s after its engine went`);
    }

    it("its engine gone (stdin closed, output unread) while it waits for a change: it exits within seconds and sends nothing more; the change goes on in the cluster", async () => {
        const accepted = line("accepted");
        const create = createInFlight();
        await accepted;
        host!.abandon();
        await exitsWithin(GONE_WITHIN_MS);
        await create;
        const when = served();
        assert.ok(pending(), "the change was no longer running when the host went");
        while (pending()) await new Promise((resolve) => setTimeout(resolve, 50));
        assert.equal(served(), when, "a request reached the cluster after the host exited");
        assert.equal((emulator().control.state() as { acceptedChanges: number }).acceptedChanges, 1);
    });

    it("only its output broken (nobody reads it): its next line ends it, with no loop of errors", async () => {
        const accepted = line("accepted");
        const create = createInFlight();
        await accepted;
        // The engine's end of stdout and stderr closed; stdin stays open, so only the broken write can tell.
        const child = (host as unknown as { child: { stdout: { destroy(): void }; stderr: { destroy(): void } } }).child;
        child.stdout.destroy();
        child.stderr.destroy();
        await exitsWithin(GONE_WITHIN_MS);
        await create;
    });

    it("Cancel while it waits for a change: the create fails at once with a partial failure that keeps the change's id (the next up waits for it); nothing more is sent", async () => {
        const accepted = line("accepted");
        const create = createInFlight();
        await accepted;
        await host!.cancel();
        const error = await create;
        const when = served();
        assert.ok(error instanceof HostCallError, String(error));
        assert.match(
            error.message,
            /ClusterScale "cluster": the run was cancelled while change \d+ ran: it goes on in the cluster, and the next up waits for it/,
        );
        const kept = error.initFailure?.properties as { lastChange?: { status: string; changeId: number } } | undefined;
        assert.equal(kept?.lastChange?.status, "IN_PROGRESS");
        assert.ok(pending(), "the change was no longer running when the create failed");
        while (pending()) await new Promise((resolve) => setTimeout(resolve, 50));
        assert.equal(served(), when, "a request reached the cluster after the Cancel");
    });
});
