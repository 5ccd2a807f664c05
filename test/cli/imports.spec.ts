// Pulumi's import, for the resources people most want to bring under a stack (a member, a cluster made in the web
// console), under the real CLI: the `import` resource option fails as test/engine predicts for a dynamic resource,
// nothing is sent and nothing enters the state; the adoption inputs work instead. (The `pulumi import` command loads
// the Node language host, which is not built here: see programServer.ts.)
import assert from "node:assert/strict";
import * as path from "node:path";
import { useEmulator } from "../support/emulator";
import { CliStack } from "./cliStack";
import { mainVersion } from "./pulumiBin";

const CLIENT = { clientId: "import-client", clientSecret: "import-secret-91b7", audience: "127.0.0.1" };
const GRACE = { name: "Grace Hopper", email: "grace@example.com", roles: ["admin"], invitePending: false };
const OWNER = { name: "Ada Lovelace", email: "ada@example.com", roles: ["owner"], invitePending: false };
// The dynamic-provider host's own words after "Preview failed: " change with @pulumi/pulumi's release (3.248: "Cannot
// read properties of undefined (reading 'toJavaScript')", 3.276: "code must be a string, not undefined"): what a user
// must learn is that the import is refused at preview, with the import step shown, before anything is sent.
const HOST_FAILURE = /Preview failed: \S/;

describe(`import under pulumi ${mainVersion()}`, function () {
    this.timeout(180_000);
    const emulator = useEmulator({ opMs: 10, rateLimitBlockSeconds: 0, clients: [CLIENT], members: [OWNER, GRACE], clusterCreateMs: 100 });
    let stack: CliStack;
    let clusterId = "";
    const writes = () =>
        emulator()
            .control.requests()
            .filter((entry) => entry.interface === "admin" && entry.method !== "GET");

    beforeEach(async () => {
        clusterId = emulator().control.addHostedCluster({ name: "console-made" });
        stack = await CliStack.create({
            example: path.join(__dirname, "programs", "import"),
            version: mainVersion(),
            config: {
                "platform:clientId": CLIENT.clientId,
                "platform:oauthUrl": emulator().authUrl,
                "platform:baseUrl": emulator().baseUrl,
                email: GRACE.email,
                clusterId,
                clusterName: "console-made",
            },
            secrets: { "platform:clientSecret": CLIENT.clientSecret },
        });
        emulator().control.clearRequests();
    });
    afterEach(() => stack.dispose());

    it("the import option fails at preview and at up for both, as test/engine predicts; nothing is sent or recorded", async () => {
        await stack.setConfig({ importIds: "true" });
        for (const command of [["preview"], ["up", "--yes"]]) {
            const run = await stack.run(command);
            assert.notEqual(run.exitCode, 0, run.lines.join("\n"));
            assert.ok(
                run.lines.some((line) => HOST_FAILURE.test(line)),
                run.lines.join("\n"),
            );
            assert.ok(
                run.lines.some((line) => /OrganizationMember member import|Cluster cluster import/.test(line)),
                `no import step shown:\n${run.lines.join("\n")}`,
            );
        }
        assert.deepEqual(writes(), []);
        assert.deepEqual((await stack.exportState()).deployment.resources ?? [], []);
    });

    it("the adoption inputs work instead: the member is adopted as it is, the cluster taken over by existingClusterId", async () => {
        const preview = await stack.preview();
        assert.equal(preview.exitCode, 0, preview.lines.join("\n"));
        assert.ok(preview.lines.some((line) => line.includes("adopts existing member grace@example.com (roles admin, unchanged)")));
        assert.ok(preview.lines.some((line) => line.includes(`takes over cluster ${clusterId} (console-made, Healthy)`)));
        const up = await stack.up();
        assert.equal(up.exitCode, 0, up.lines.join("\n"));
        assert.deepEqual(writes(), [], "adopting what is already as declared sent a write");
        const ids = ((await stack.exportState()).deployment.resources ?? []).map((resource) => resource.id).filter(Boolean);
        assert.ok(ids.includes(GRACE.email) && ids.includes(clusterId), JSON.stringify(ids));
        assert.equal((await stack.preview("--expect-no-changes")).exitCode, 0);
    });
});
