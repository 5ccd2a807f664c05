// A Python, Go or YAML program (examples/<language>-cluster) through its whole life under the real `pulumi` CLI and the
// provider plugin, against the emulator: the plan lines and steps of the TypeScript examples, a clean
// `preview --expect-no-changes`, the refusals (a partition decrease, a bad email), the API client's secret a secret in
// the state and nowhere in plain text, refresh and destroy.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import * as path from "node:path";
import { useEmulator } from "../support/emulator";
import { SecretLedger } from "../support/secretScan";
import { CliResult, CliStack, stepsOf } from "../cli/cliStack";
import { PULUMI_SDK_MATCH } from "../tools/pulumi";
import { type Language, REPOSITORY, languageSetup } from "./languageTools";

const CLIENT = { clientId: "lang-client", clientSecret: `lang-secret-${randomBytes(8).toString("hex")}`, audience: "127.0.0.1" };
const MEMBERS = [
    { name: "Ada Lovelace", email: "ada@example.com", roles: ["owner"], invitePending: false },
    { name: "Grace Hopper", email: "grace@example.com", roles: ["admin"], invitePending: false },
];

const succeeded = (result: CliResult) => assert.equal(result.exitCode, 0, `pulumi ${result.command} exited ${result.exitCode}:\n${result.lines.join("\n")}`);
const failedWith = (result: CliResult, text: string) => {
    assert.notEqual(result.exitCode, 0, `pulumi ${result.command} passed:\n${result.lines.join("\n")}`);
    printed(result, text);
};
const printed = (result: CliResult, text: string) =>
    assert.ok(
        result.lines.some((line) => line.includes(text)),
        `no line with ${JSON.stringify(text)}:\n${result.lines.join("\n")}`,
    );
const sorted = (steps: string[]) => [...steps].sort();

export function describeLanguage(language: Language): void {
    describe(`examples/${language}-cluster under pulumi ${PULUMI_SDK_MATCH} and the provider plugin`, function () {
        this.timeout(300_000);
        const emulator = useEmulator({
            brokers: 3,
            partitions: 6,
            replicationFactor: 3,
            partitionScaling: true,
            running: [0, 1, 2, 3, 4],
            opMs: 10,
            rateLimitBlockSeconds: 0,
            clients: [CLIENT],
            members: MEMBERS,
            seats: 10,
        });

        it("preview, up, preview --expect-no-changes, the refusals, refresh, destroy; the client secret a secret", async () => {
            const ledger = new SecretLedger();
            ledger.addSecret("admin client secret", CLIENT.clientSecret);
            const setup = await languageSetup(language);
            const stack = await CliStack.create({
                example: path.join(REPOSITORY, "examples", `${language}-cluster`),
                version: PULUMI_SDK_MATCH,
                runner: setup.runner,
                env: setup.env,
                config: {
                    managementUrl: emulator().managementUrl,
                    clientId: CLIENT.clientId,
                    oauthUrl: emulator().authUrl,
                    baseUrl: emulator().baseUrl,
                },
                secrets: { clientSecret: CLIENT.clientSecret },
            });
            try {
                stack.addEnv(setup.prepare(stack.programDir));
                ledger.watchTokenCache(path.join(stack.workDir, "tokens"));
                const scan = (result: CliResult) => ledger.assertClean(`${language} ${result.command}`, { output: result.lines.join("\n") });

                const preview = await stack.preview();
                succeeded(preview);
                printed(preview, 'ClusterScale "cluster": up will apply');
                printed(preview, "brokers added: 3, 4");
                printed(preview, 'OrganizationMember "grace": adopts existing member grace@example.com (roles admin → admin, operationsengineer)');
                assert.deepEqual(sorted(stepsOf(preview)), ["create cluster", "create grace"]);
                scan(preview);

                const up = await stack.up();
                succeeded(up);
                assert.deepEqual(sorted(stepsOf(up)), ["create cluster", "create grace"]);
                scan(up);
                const outputs = await stack.outputs();
                assert.equal(outputs.partitionCount, 8);
                assert.deepEqual(sorted(outputs.memberRoles as string[]), ["admin", "operationsengineer"]);
                const grace = emulator()
                    .control.members()
                    .find((member) => member.email === "grace@example.com");
                assert.deepEqual(sorted(grace?.roles ?? []), ["admin", "operationsengineer"]);

                // The credentials (with the client secret) are ciphertext in the state, inputs and outputs.
                const resources = (await stack.exportState()).deployment.resources ?? [];
                const member = resources.find((resource) => resource.urn.endsWith("::grace"))!;
                for (const where of ["inputs", "outputs"] as const) {
                    const value = member[where]?.credentials as { ciphertext?: unknown } | undefined;
                    assert.equal(typeof value?.ciphertext, "string", `grace.${where}.credentials is not ciphertext: ${JSON.stringify(value)}`);
                }

                const clean = await stack.preview("--expect-no-changes");
                succeeded(clean);
                assert.ok(
                    stepsOf(clean).every((step) => step.startsWith("same ")),
                    stepsOf(clean).join("\n"),
                );

                // The refusals, before anything is sent.
                const restore = stack.keepConfig();
                if (language !== "yaml") {
                    await stack.setConfig({ partitionCount: "4" });
                    failedWith(await stack.preview(), "partitionCount");
                    restore();
                }
                await stack.setConfig({ memberEmail: "not-an-email" });
                failedWith(await stack.preview(), "email is not an email address");
                restore();

                const refresh = await stack.refresh();
                succeeded(refresh);
                scan(refresh);
                const destroy = await stack.destroy();
                succeeded(destroy);
                scan(destroy);
                assert.deepEqual((await stack.exportState()).deployment.resources ?? [], []);
                const files = ledger.scanEverything([path.join(stack.workDir, "backend"), path.join(stack.workDir, "home"), stack.programDir]);
                assert.deepEqual(files.leaks, []);
                ledger.assertClean(`${language} events`, { events: stack.eventsWithoutDebug() });
            } finally {
                stack.dispose();
            }
        });
    });
}
