// A pipeline killed mid-`up` (SIGKILL of the CLI's process group, its provider hosts and the program with it), then
// `pulumi up` again, with and without a `pulumi refresh` in between: the CLI's own handling of the pending operation
// (its warning, the state it leaves, the lock a killed CLI leaves on a self-managed backend, lifted by `pulumi cancel`),
// and the README's promise: the next up resumes, with no second layout change and no second cluster.
import assert from "node:assert/strict";
import * as path from "node:path";
import { useEmulator } from "../support/emulator";
import { CliStack } from "./cliStack";
import { mainVersion } from "./pulumiBin";

const EXAMPLES = path.resolve(__dirname, "..", "..", "examples");
const CLIENT = { clientId: "kill-client", clientSecret: "kill-secret-5d2e9a", audience: "127.0.0.1" };
const succeeded = (result: { exitCode: number; command: string; lines: string[] }) =>
    assert.equal(result.exitCode, 0, `pulumi ${result.command} exited ${result.exitCode}:\n${result.lines.join("\n")}`);

/**
 * Runs `up` and kills it (the whole process group) at the first line that shows `text`. A killed CLI leaves the
 * stack locked on a self-managed backend (the next up or refresh refuses, naming `pulumi cancel`, which lifts it).
 */
async function upKilledAt(stack: CliStack, text: string) {
    const kill = new AbortController();
    const killed = await stack.run(["up", "--yes"], { signal: kill.signal, onLine: (line) => line.includes(text) && kill.abort() });
    assert.equal(killed.exitCode, 128 + 9, `the up was not killed at "${text}":\n${killed.lines.join("\n")}`);
    assert.ok(stack.locks().length > 0, "the killed up left no lock: the next up would not need pulumi cancel");
    succeeded(await stack.run(["cancel", "--yes"]));
    assert.deepEqual(stack.locks(), [], "pulumi cancel left the lock");
    return killed;
}

describe(`killed ups under pulumi ${mainVersion()}`, function () {
    this.timeout(240_000);

    describe("examples/local: killed while the layout change runs", function () {
        const emulator = useEmulator({ brokers: 3, partitions: 6, replicationFactor: 3, partitionScaling: true, running: [0, 1, 2, 3, 4], opMs: 150 });

        for (const refreshBetween of [false, true]) {
            it(`the next up${refreshBetween ? ", after a refresh," : ""} waits for the same change: one change accepted, the layout reached`, async () => {
                const stack = await CliStack.create({
                    example: path.join(EXAMPLES, "local"),
                    version: mainVersion(),
                    config: { "platform:managementUrl": emulator().managementUrl, "platform:gatewayUrl": emulator().gatewayUrl },
                });
                try {
                    await upKilledAt(stack, "accepted");
                    const state = await stack.exportState();
                    // The CLI recorded the update as interrupted: the resource being created is a pending operation.
                    assert.deepEqual(
                        (state.deployment.pending_operations ?? []).map((pending) => pending.type),
                        ["creating"],
                    );
                    if (refreshBetween) succeeded(await stack.refresh());
                    const resumed = await stack.up();
                    succeeded(resumed);
                    assert.ok(
                        resumed.lines.some((line) => line.includes("pending operations from previous deployment")),
                        `the CLI did not warn of the interrupted create:\n${resumed.lines.join("\n")}`,
                    );
                    const accepted = emulator().control.state() as { acceptedChanges: number };
                    assert.equal(accepted.acceptedChanges, 1, "a second layout change was accepted");
                    const outputs = await stack.outputs();
                    assert.equal(outputs.partitionCount, 8);
                    succeeded(await stack.preview("--expect-no-changes"));
                } finally {
                    stack.dispose();
                }
            });
        }
    });

    describe("examples/hosted-cluster: killed while the cluster is Creating", function () {
        const emulator = useEmulator({ opMs: 10, rateLimitBlockSeconds: 0, clients: [CLIENT], clusterCreateMs: 60_000 });

        for (const refreshBetween of [false, true]) {
            it(`the next up${refreshBetween ? ", after a refresh," : ""} refuses a second cluster naming existingClusterId, which then takes the one made over`, async () => {
                const stack = await CliStack.create({
                    example: path.join(EXAMPLES, "hosted-cluster"),
                    version: mainVersion(),
                    config: { "platform:clientId": CLIENT.clientId, "platform:oauthUrl": emulator().authUrl, "platform:baseUrl": emulator().baseUrl },
                    secrets: { "platform:clientSecret": CLIENT.clientSecret, paymentsApiKey: "payments-key-7f3a" },
                });
                try {
                    await upKilledAt(stack, "is Creating");
                    const [made] = emulator().control.hostedClusters();
                    if (refreshBetween) succeeded(await stack.refresh());
                    const again = await stack.up();
                    assert.notEqual(again.exitCode, 0);
                    assert.ok(
                        again.lines.some((line) => line.includes(`to bring it under this stack set existingClusterId: "${made.id}"`)),
                        again.lines.join("\n"),
                    );
                    assert.equal(emulator().control.hostedClusters().length, 1, "a second cluster was made");

                    emulator().control.setHostedClusterStatus(made.id, "Healthy");
                    await stack.setConfig({ existingClusterId: made.id });
                    const adopted = await stack.up();
                    succeeded(adopted);
                    assert.equal(emulator().control.hostedClusters().length, 1);
                    assert.equal((await stack.outputs()).clusterId, made.id);
                } finally {
                    stack.dispose();
                }
            });
        }
    });
});
