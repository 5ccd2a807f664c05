// What the suites under the real CLI assert of a command and of a stack's state, one way for all of them.
import assert from "node:assert/strict";
import * as path from "node:path";
import type { RunningEmulator } from "../emulator";
import type { SecretLedger } from "../support/secretScan";
import type { CliResult, CliStack } from "./cliStack";

export function succeeded(result: CliResult): void {
    assert.equal(result.exitCode, 0, `pulumi ${result.command} exited ${result.exitCode}:\n${result.lines.join("\n")}`);
}

export function printed(result: CliResult, text: string): void {
    assert.ok(
        result.lines.some((line) => line.includes(text)),
        `no line with ${JSON.stringify(text)}:\n${result.lines.join("\n")}`,
    );
}

/**
 * `up` shows `text` as often as `preview` does (the display prints a line live and again under Diagnostics): the plan
 * shown once per operation, by up's preview pass, not again when it applies.
 */
export function shownAsInPreview(up: CliResult, preview: CliResult, text: string): void {
    const count = (result: CliResult) => result.lines.filter((line) => line.includes(text)).length;
    assert.ok(count(preview) > 0, `no line with ${JSON.stringify(text)} in the preview:\n${preview.lines.join("\n")}`);
    assert.equal(count(up), count(preview), `${JSON.stringify(text)} in up, as often as in its preview:\n${up.lines.join("\n")}`);
}

/** Each `[resource name, property, inputs|outputs]` is ciphertext in `stack export`. */
export async function assertCiphertext(stack: CliStack, fields: readonly (readonly [string, string, "inputs" | "outputs"])[]): Promise<void> {
    const resources = (await stack.exportState()).deployment.resources ?? [];
    for (const [name, field, where] of fields) {
        const resource = resources.find((candidate) => candidate.urn.endsWith(`::${name}`));
        const value = resource?.[where]?.[field] as { ciphertext?: unknown } | undefined;
        assert.equal(typeof value?.ciphertext, "string", `${name}.${where}.${field} is not ciphertext in the state: ${JSON.stringify(value)}`);
    }
}

/**
 * A program of examples/hosted-cluster's shape (the cluster `orders`, its client `order-worker` exported as
 * `workerClientSecret`, the connector secret `payments-api-key`): the secrets ciphertext in the state, the worker's
 * secret shown by `stack output --show-secrets` and `[secret]` without. Returns the worker's secret.
 */
export async function assertHostedClusterSecrets(stack: CliStack, emulator: RunningEmulator): Promise<string> {
    await assertCiphertext(stack, [
        ["order-worker", "clientSecret", "outputs"],
        ["order-worker", "credentials", "outputs"],
        ["payments-api-key", "value", "outputs"],
        ["payments-api-key", "value", "inputs"],
        ["orders", "credentials", "inputs"],
    ]);
    const clientSecret = emulator.control.hostedClusters()[0].clients[0].clientSecret;
    assert.equal((await stack.outputs(true)).workerClientSecret, clientSecret);
    const shown = await stack.outputs();
    assert.equal(shown.workerClientSecret, "[secret]");
    // What other tests read from the backend's file instead (savedOutputs) is what the CLI prints.
    assert.deepEqual(stack.savedOutputs(), shown);
    return clientSecret;
}

/**
 * `destroy` succeeds and leaves no resource; no secret of the ledger in its output, in any file the CLI wrote (state,
 * backups, history, config, the program's folder) or in its events but the debug ones (their lines carry outputs in
 * plain text, an upstream matter the README warns about).
 */
export async function assertDestroyedWithoutLeaks(stack: CliStack, ledger: SecretLedger, label: string): Promise<void> {
    // Without its preview pass, which makes no provider call (test/cli's parity runs journal every call a host makes).
    const destroy = await stack.destroy("--skip-preview");
    succeeded(destroy);
    ledger.assertClean(`${label} ${destroy.command}`, { output: destroy.lines.join("\n") });
    assert.deepEqual((await stack.exportState()).deployment.resources ?? [], []);
    const files = ledger.scanEverything([path.join(stack.workDir, "backend"), path.join(stack.workDir, "home"), stack.programDir]);
    assert.deepEqual(files.leaks, []);
    ledger.assertClean(`${label} events`, { events: stack.eventsWithoutDebug() });
}
