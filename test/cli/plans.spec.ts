// What a pipeline runs besides a plain up, under the real CLI: `up --target` of one resource, and a program that
// changed between the preview a reviewer saw and the up: up previews again and does what its own preview shows, and
// with the preview's saved plan (`--save-plan`, `up --plan`) it refuses what the reviewed plan did not contain.
import assert from "node:assert/strict";
import * as path from "node:path";
import { useEmulator } from "../support/emulator";
import { CliStack, stepsOf } from "./cliStack";
import { mainVersion } from "./pulumiBin";

const EXAMPLES = path.resolve(__dirname, "..", "..", "examples");
const CLIENT = { clientId: "plan-client", clientSecret: "plan-secret-c41d", audience: "127.0.0.1" };
const MEMBERS = [{ name: "Ada Lovelace", email: "ada@example.com", roles: ["owner"], invitePending: false }];
const people = (roles: Record<string, string[]>) => JSON.stringify(Object.entries(roles).map(([email, list]) => ({ email, roles: list })));
const MEMBERS_KEY = "platform-organization:members";

describe(`targets and plans under pulumi ${mainVersion()}`, function () {
    this.timeout(180_000);
    const emulator = useEmulator({ opMs: 10, rateLimitBlockSeconds: 0, clients: [CLIENT], members: MEMBERS, seats: 10 });
    let stack: CliStack;
    const roles = (email: string) =>
        emulator()
            .control.members()
            .find((member) => member.email === email)?.roles;

    beforeEach(async () => {
        stack = await CliStack.create({
            example: path.join(EXAMPLES, "organization"),
            version: mainVersion(),
            config: {
                "platform:clientId": CLIENT.clientId,
                "platform:oauthUrl": emulator().authUrl,
                "platform:baseUrl": emulator().baseUrl,
                [MEMBERS_KEY]: people({ "grace@example.com": ["admin"], "alan@example.com": ["developer"] }),
            },
            secrets: { "platform:clientSecret": CLIENT.clientSecret },
        });
        const up = await stack.up();
        assert.equal(up.exitCode, 0, up.lines.join("\n"));
    });
    afterEach(() => stack.dispose());

    it("up --target changes only the resource named; the next preview still shows the other change", async () => {
        await stack.setConfig({ [MEMBERS_KEY]: people({ "grace@example.com": ["analyst"], "alan@example.com": ["visitor"] }) });
        const urn = "urn:pulumi:dev::platform-organization::pulumi-nodejs:dynamic/platform:OrganizationMember::alan@example.com";
        const targeted = await stack.up("--target", urn);
        assert.equal(targeted.exitCode, 0, targeted.lines.join("\n"));
        assert.deepEqual(stepsOf(targeted).sort(), ["same grace@example.com", "update alan@example.com"]);
        assert.deepEqual([roles("alan@example.com"), roles("grace@example.com")], [["visitor"], ["admin"]]);
        const next = await stack.preview();
        assert.ok(
            next.lines.some((line) => line.includes("changes roles of grace@example.com (admin → analyst)")),
            next.lines.join("\n"),
        );
    });

    it("a program changed after the reviewed preview: a plain up previews again and does what its own preview shows", async () => {
        await stack.setConfig({ [MEMBERS_KEY]: people({ "grace@example.com": ["analyst"], "alan@example.com": ["developer"] }) });
        const reviewed = await stack.preview();
        assert.ok(reviewed.lines.some((line) => line.includes("changes roles of grace@example.com (admin → analyst)")));
        await stack.setConfig({ [MEMBERS_KEY]: people({ "grace@example.com": ["modeler"], "alan@example.com": ["developer"] }) });
        const up = await stack.up();
        assert.equal(up.exitCode, 0, up.lines.join("\n"));
        assert.ok(
            up.lines.some((line) => line.includes("changes roles of grace@example.com (admin → modeler)")),
            up.lines.join("\n"),
        );
        assert.deepEqual(roles("grace@example.com"), ["modeler"]);
    });

    it("with the reviewed preview's saved plan, up refuses a change the plan did not contain and sends nothing", async () => {
        const plan = path.join(stack.workDir, "plan.json");
        const env = { PULUMI_EXPERIMENTAL: "true" };
        await stack.setConfig({ [MEMBERS_KEY]: people({ "grace@example.com": ["analyst"], "alan@example.com": ["developer"] }) });
        const reviewed = await stack.run(["preview", "--save-plan", plan], { env });
        assert.equal(reviewed.exitCode, 0, reviewed.lines.join("\n"));
        await stack.setConfig({ [MEMBERS_KEY]: people({ "grace@example.com": ["analyst"], "alan@example.com": ["visitor"] }) });
        emulator().control.clearRequests();
        const up = await stack.run(["up", "--yes", "--plan", plan], { env });
        assert.notEqual(up.exitCode, 0, up.lines.join("\n"));
        assert.ok(
            up.lines.some((line) => /violat|plan/i.test(line) && line.includes("alan")),
            `up does not say the change is outside the plan:\n${up.lines.join("\n")}`,
        );
        assert.deepEqual(roles("alan@example.com"), ["developer"], "up applied a change the reviewed plan did not contain");
    });
});
