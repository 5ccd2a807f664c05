// A Python program with two explicit `platform.Provider`s, each with the settings of one organization and its cluster
// (one emulator each), and the same resources under each, given no setting of their own: each resource talks only to
// its provider's; the client secrets are ciphertext in the state's provider inputs; a changed endpoint updates the
// provider and replaces nothing; refresh and destroy work with the settings the state recorded. (The default
// provider's settings from `platform:` stack config: the examples' lifecycle, languageLifecycle.ts.)
import assert from "node:assert/strict";
import * as path from "node:path";
import { printed, succeeded } from "../cli/cliAssertions";
import { stepsOf } from "../cli/cliStack";
import type { RunningEmulator } from "../emulator";
import { useEmulator } from "../support/emulator";
import { PULUMI_SDK_MATCH } from "../tools/pulumi";
import { languageStack } from "./languageTools";

const FIRST = { clientId: "first-client", clientSecret: "first-secret-4a9d2c", audience: "127.0.0.1" };
const SECOND = { clientId: "second-client", clientSecret: "second-secret-7e31b0", audience: "127.0.0.1" };
const platformOf = (client: typeof FIRST) => ({
    brokers: 3,
    partitions: 3,
    replicationFactor: 3,
    running: [0, 1, 2, 3, 4],
    opMs: 10,
    rateLimitBlockSeconds: 0,
    clients: [client],
    members: [
        { name: "Grace Hopper", email: "grace@example.com", roles: ["admin"], invitePending: false },
        { name: "Ada Lovelace", email: "ada@example.com", roles: ["admin"], invitePending: false },
    ],
    seats: 10,
});

describe(`a Python program with two explicit providers under pulumi ${PULUMI_SDK_MATCH}`, function () {
    this.timeout(300_000);
    const first = useEmulator(platformOf(FIRST));
    const second = useEmulator(platformOf(SECOND));
    const paths = (emulator: RunningEmulator) => emulator.control.requests().map((entry) => `${entry.interface} ${entry.method} ${entry.path}`);

    it("each resource talks to its provider's organization and cluster only; the secrets are ciphertext; a changed endpoint replaces nothing; refresh and destroy", async () => {
        const stack = await languageStack("python", path.join(__dirname, "programs", "pythonProviders"), {
            config: {
                firstManagementUrl: first().managementUrl,
                firstClientId: FIRST.clientId,
                firstOauthUrl: first().authUrl,
                firstBaseUrl: first().baseUrl,
                secondManagementUrl: second().managementUrl,
                secondClientId: SECOND.clientId,
                secondOauthUrl: second().authUrl,
                secondBaseUrl: second().baseUrl,
            },
            secrets: { firstClientSecret: FIRST.clientSecret, secondClientSecret: SECOND.clientSecret },
        });
        try {
            const up = await stack.up();
            succeeded(up);
            printed(up, 'OrganizationMember "grace"');
            const brokersOf = (emulator: RunningEmulator) => (emulator.control.state() as { members: { id: number }[] }).members.map((broker) => broker.id);
            assert.deepEqual(brokersOf(first()), [0, 1, 2, 3, 4]);
            assert.deepEqual(brokersOf(second()), [0, 1, 2, 3]);
            const roles = (emulator: RunningEmulator, email: string) => emulator.control.members().find((member) => member.email === email)?.roles;
            assert.deepEqual(roles(first(), "grace@example.com")?.sort(), ["admin", "developer"]);
            assert.deepEqual(roles(second(), "grace@example.com"), ["admin"], "the second organization was changed for grace");
            assert.ok(!paths(first()).some((line) => line.includes("ada@example.com")), paths(first()).join("\n"));
            assert.ok(!paths(second()).some((line) => line.includes("grace@example.com")), paths(second()).join("\n"));

            const exported = JSON.stringify(await stack.exportState());
            for (const secret of [FIRST.clientSecret, SECOND.clientSecret]) assert.ok(!exported.includes(secret), "a client secret is plain text in the state");
            const providers = ((await stack.exportState()).deployment.resources ?? []).filter((resource) => resource.type === "pulumi:providers:platform");
            assert.equal(providers.length, 2);
            for (const provider of providers) assert.ok(JSON.stringify(provider.inputs?.clientSecret).includes("ciphertext"), JSON.stringify(provider.inputs));

            succeeded(await stack.preview("--expect-no-changes"));
            // The first cluster's management API at another address (the same emulator): the provider is updated, nothing replaced.
            await stack.setConfig({ firstManagementUrl: first().managementUrl.replace("127.0.0.1", "localhost") });
            const moved = await stack.up();
            succeeded(moved);
            const replaced = stepsOf(moved).filter((step) => /^(replace|create-replacement|delete)/.test(step));
            assert.deepEqual(replaced, [], "a changed endpoint replaced resources");
            assert.equal((first().control.state() as { acceptedChanges: number }).acceptedChanges, 1);

            succeeded(await stack.refresh());
            succeeded(await stack.destroy());
            assert.deepEqual((await stack.exportState()).deployment.resources ?? [], []);
        } finally {
            stack.dispose();
        }
    });
});
