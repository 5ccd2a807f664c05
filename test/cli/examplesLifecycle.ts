// Every example that needs no other provider plugin, through its whole life under the real `pulumi` CLI, against the
// emulator (examples.spec.ts and examplesOlderCli.spec.ts run it under each pinned version): preview (our plan lines in the CLI's output), up, a clean
// `preview --expect-no-changes`, `preview --diff` of a change naming what changes, refresh, destroy.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import * as path from "node:path";
import type { RunningEmulator } from "../emulator";
import { useEmulator } from "../support/emulator";
import { SecretLedger } from "../support/secretScan";
import { assertDestroyedWithoutLeaks, assertHostedClusterSecrets, printed, succeeded } from "./cliAssertions";
import { examplesPlatform } from "./examplesPlatform";
import { CliResult, CliStack, stepsOf } from "./cliStack";

const EXAMPLES = path.resolve(__dirname, "..", "..", "examples");
const CLIENT = { clientId: "cli-client", clientSecret: `cli-secret-${randomBytes(8).toString("hex")}`, audience: "127.0.0.1" };

interface Example {
    name: string;
    config: (emulator: RunningEmulator) => Record<string, string>;
    secrets?: Record<string, string>;
    /** Lines the preview of the first up prints, and the steps it plans. */
    planned: { lines: string[]; steps: string[] };
    /** A config change and a word `preview --diff` shows for it. */
    change: { config: Record<string, string>; shows: string[] };
    /** What else holds after the up (the secrets in the state). */
    afterUp?: (stack: CliStack, emulator: RunningEmulator) => Promise<void>;
}

const adminConfig = (emulator: RunningEmulator) => ({
    "platform:clientId": CLIENT.clientId,
    "platform:oauthUrl": emulator.authUrl,
    "platform:baseUrl": emulator.baseUrl,
});
const PAYMENTS_KEY = `payments-${randomBytes(8).toString("hex")}`;

const EXAMPLE_CASES: Example[] = [
    {
        name: "local",
        config: (emulator) => ({ "platform:managementUrl": emulator.managementUrl, "platform:gatewayUrl": emulator.gatewayUrl }),
        planned: {
            lines: ['ClusterScale "cluster": up will apply', "brokers added: 3, 4", "partitions created: 7, 8"],
            steps: ["create cluster"],
        },
        change: { config: { "platform-demo:brokerCount": "4" }, shows: ["brokerCount", "5 => 4"] },
    },
    {
        name: "organization",
        config: adminConfig,
        secrets: { "platform:clientSecret": CLIENT.clientSecret },
        planned: {
            lines: [
                'OrganizationMember "ada@example.com": ada@example.com is the organization owner: roles are left as they are',
                'OrganizationMember "grace@example.com": adopts existing member grace@example.com (roles admin → admin, operationsengineer)',
                'OrganizationMember "alan@example.com": invites alan@example.com (uses a seat)',
            ],
            steps: ["create ada@example.com", "create grace@example.com", "create alan@example.com"],
        },
        change: {
            config: {
                "platform-organization:members": JSON.stringify([
                    { email: "ada@example.com", roles: ["admin"] },
                    { email: "grace@example.com", roles: ["admin"] },
                ]),
            },
            shows: ["- pulumi-nodejs:dynamic/platform:OrganizationMember: (delete)", "roles"],
        },
    },
    {
        name: "hosted-cluster",
        config: adminConfig,
        secrets: { "platform:clientSecret": CLIENT.clientSecret, paymentsApiKey: PAYMENTS_KEY },
        planned: {
            lines: ['Cluster "orders": creates cluster orders (Basic in Belgium, Europe (europe-west1), channel Stable'],
            steps: ["create orders", "create order-worker", "create payments-api-key", "create ingress"],
        },
        change: { config: { "platform-hosted-cluster:officeRange": "198.51.100.0/24" }, shows: ["entries", "198.51.100.0/24"] },
        afterUp: async (stack, emulator) => {
            // stack export: the client's secret, the connector secret's value and the admin credentials as ciphertext;
            // stack output --show-secrets shows the worker's secret, without it [secret].
            const clientSecret = await assertHostedClusterSecrets(stack, emulator);
            // Known, upstream: the Node runtime's debug lines ("RegisterResource RPC finished … resp: …") carry each
            // resource's outputs in plain text, secrets too; `--debug` prints them (and the Automation API's event log
            // keeps them). The README warns against --debug and -v in pipelines; this shows why.
            const debug = await stack.preview("--debug");
            assert.ok(
                debug.lines.some((line) => line.includes(clientSecret)),
                "pulumi preview --debug no longer prints the client's secret: update the README's warning",
            );
        },
    },
    {
        name: "admin-members",
        config: adminConfig,
        secrets: { "platform:clientSecret": CLIENT.clientSecret },
        planned: { lines: [], steps: ["create admin"] },
        change: { config: { "platform:clientId": `${CLIENT.clientId}-2` }, shows: ['clientId    : "cli-client" => "cli-client-2"'] },
    },
];

/** The examples' lifecycle under one CLI version (a file per version, so that the two run in parallel). */
export function describeExamples(version: string): void {
    describe(`examples under pulumi ${version}`, function () {
        this.timeout(240_000);
        const emulator = useEmulator(examplesPlatform([CLIENT, { ...CLIENT, clientId: `${CLIENT.clientId}-2` }]));

        for (const example of EXAMPLE_CASES) {
            it(`examples/${example.name}: preview, up, preview --expect-no-changes, preview --diff of a change, refresh, destroy`, async () => {
                const ledger = new SecretLedger();
                ledger.addSecret("admin client secret", CLIENT.clientSecret);
                ledger.addSecret("connector secret value", PAYMENTS_KEY);
                const stack = await CliStack.create({
                    example: path.join(EXAMPLES, example.name),
                    version,
                    config: example.config(emulator()),
                    secrets: example.secrets,
                });
                try {
                    ledger.watchTokenCache(path.join(stack.workDir, "tokens"));
                    const scan = (result: CliResult) => ledger.assertClean(`examples/${example.name} ${result.command}`, { output: result.lines.join("\n") });

                    const preview = await stack.preview();
                    succeeded(preview);
                    for (const line of example.planned.lines) printed(preview, line);
                    // Resources with no dependency between them go in parallel: in any order.
                    const sorted = (steps: string[]) => [...steps].sort();
                    assert.deepEqual(sorted(stepsOf(preview)), sorted(example.planned.steps));
                    scan(preview);

                    // Its preview is the step before, of the same program, config and state.
                    const up = await stack.up("--skip-preview");
                    succeeded(up);
                    assert.deepEqual(sorted(stepsOf(up)), sorted(example.planned.steps));
                    scan(up);
                    await example.afterUp?.(stack, emulator());
                    for (const client of emulator()
                        .control.hostedClusters()
                        .flatMap((cluster) => cluster.clients))
                        ledger.addSecret("API client secret", client.clientSecret);

                    const clean = await stack.preview("--expect-no-changes");
                    succeeded(clean);
                    assert.ok(
                        stepsOf(clean).every((step) => step.startsWith("same ")),
                        stepsOf(clean).join("\n"),
                    );

                    const restoreConfig = await stack.keepConfig();
                    await stack.setConfig(example.change.config);
                    // A change pending: `preview --diff` names it, and `--expect-no-changes` makes the preview fail.
                    const diff = await stack.preview("--diff", "--expect-no-changes");
                    assert.notEqual(diff.exitCode, 0, "preview --expect-no-changes passed with a change pending");
                    for (const word of example.change.shows) printed(diff, word);
                    restoreConfig();

                    // Without its preview pass, whose reads are the refresh's own.
                    const refresh = await stack.refresh("--skip-preview");
                    succeeded(refresh);
                    scan(refresh);
                    await assertDestroyedWithoutLeaks(stack, ledger, `examples/${example.name}`);
                } finally {
                    stack.dispose();
                }
            });
        }
    });
}
