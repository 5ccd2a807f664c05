// OrganizationMember through the engine (in the test's process: the dynamic-provider host's own code, the provider
// loaded from its serialized text) against the emulator's administration API: preview says what happens to each person
// from one member list, up invites or adopts, the owner is never touched, refresh reads the organization back, bad
// inputs are refused before any request, and the bad days of the API (429, an expiring token, no seats) are handled.
import assert from "node:assert/strict";
import type { PropertyValue } from "../engine";
import { isSecret, unwrapSecrets } from "../engine";
import type { Member, RequestLogEntry } from "../emulator";
import { AdminRun, AdminStack, CLIENT, linesOf, platformConfig, succeeded, useAdminEmulator, useWorkDir } from "./adminClientSupport";

const TYPE = "pulumi-nodejs:dynamic/platform:OrganizationMember";
const OWNER: Member = { name: "Ada Lovelace", email: "ada@example.com", roles: ["owner"], invitePending: false };
const GRACE: Member = { name: "Grace Hopper", email: "grace@example.com", roles: ["admin"], invitePending: false };
const ALAN: Member = { name: "Alan Turing", email: "alan@example.com", roles: ["developer"], invitePending: true };

interface Entry {
    name: string;
    email: unknown;
    roles: unknown;
    import?: string;
}

const entry = (email: string, roles: string[], name = email): Entry => ({ name, email, roles });
const show = (r: RequestLogEntry) => `${r.method} ${decodeURIComponent(r.path)} ${r.status}`;
const mutating = (run: AdminRun): string[] => run.requests.filter((r) => r.interface === "admin" && r.method !== "GET").map(show);
const memberReads = (run: AdminRun): RequestLogEntry[] => run.requests.filter((r) => r.interface === "admin" && r.method === "GET" && r.path === "/members");
const lines = (run: AdminRun, name: string): string[] => linesOf(run, name, "OrganizationMember");
const records = (run: AdminRun): PropertyValue => unwrapSecrets(run.result.outputs.records);

/** Runs the fixture with the given members, credentials from stack config. */
function memberStack(emulator: () => import("../emulator").RunningEmulator, workDir: () => string) {
    const stack = new AdminStack(emulator, workDir);
    return {
        stack,
        run: (
            command: "preview" | "up" | "refresh" | "destroy",
            entries: Entry[],
            extra: { config?: Record<string, string>; secrets?: Record<string, string> } = {},
        ) => {
            const { config, secrets } = platformConfig(emulator());
            return stack.run(command, {
                program: "organization-members",
                config: { ...config, members: JSON.stringify(entries), ...extra.config },
                secrets: { ...secrets, ...extra.secrets },
            });
        },
    };
}

describe("OrganizationMember: invite, adopt, change roles, leave the owner alone", function () {
    const emulator = useAdminEmulator({ resetEach: false });
    const workDir = useWorkDir({ perTest: false });
    const { stack, run } = memberStack(emulator, workDir);
    const program = [
        entry("ada@example.com", ["admin"]),
        entry("grace@example.com", ["admin", "operationsengineer"]),
        entry("katherine@example.com", ["analyst"]),
    ];

    before(() => emulator().control.updateSettings({ members: [OWNER, GRACE, ALAN], seats: 10 }));

    it("preview says what happens to each person, from one GET /members and without a write", async () => {
        const preview = await run("preview", program);
        succeeded(preview);
        assert.deepEqual(lines(preview, "ada@example.com"), [
            'OrganizationMember "ada@example.com": ada@example.com is the organization owner: roles are left as they are',
        ]);
        assert.deepEqual(lines(preview, "grace@example.com"), [
            'OrganizationMember "grace@example.com": adopts existing member grace@example.com (roles admin → admin, operationsengineer)',
        ]);
        assert.deepEqual(lines(preview, "katherine@example.com"), ['OrganizationMember "katherine@example.com": invites katherine@example.com (uses a seat)']);
        assert.equal(memberReads(preview).length, 1);
        assert.deepEqual(mutating(preview), []);
    });

    it("up invites the new person, sets the roles of the adopted one, sends nothing for the owner, and records each", async () => {
        const up = await run("up", program);
        succeeded(up);
        assert.deepEqual(mutating(up).sort(), ["POST /members/grace@example.com 204", "POST /members/katherine@example.com 204"]);
        // One list read in the preview pass, one in the update pass; the token of the preview before serves both (disk cache).
        assert.equal(memberReads(up).length, 2);
        assert.equal(up.tokenRequests.length, 0);
        const grace = up.requests.find((r) => r.method === "POST" && r.path.includes("grace"));
        assert.deepEqual(grace?.body, { orgRoles: ["admin", "operationsengineer"] });
        assert.deepEqual(emulator().control.members(), [
            OWNER,
            { ...GRACE, roles: ["admin", "operationsengineer"] },
            ALAN,
            { name: "", email: "katherine@example.com", roles: ["analyst"], invitePending: true },
        ]);
        assert.deepEqual(records(up), [
            { email: "ada@example.com", roles: ["admin"], name: "Ada Lovelace", invitePending: false, owner: true },
            { email: "grace@example.com", roles: ["admin", "operationsengineer"], name: "Grace Hopper", invitePending: false, owner: false },
            { email: "katherine@example.com", roles: ["analyst"], name: "", invitePending: true, owner: false },
        ]);
        assert.ok(
            lines(up, "ada@example.com").includes(
                'OrganizationMember "ada@example.com": ada@example.com is the organization owner: roles are left as they are (recorded: admin); nothing was sent',
            ),
        );
        assert.ok(lines(up, "katherine@example.com").includes('OrganizationMember "katherine@example.com": invited katherine@example.com with roles analyst'));
        stack.assertNoLeaks(up);
    });

    it("a preview right after says nothing changes and sends nothing", async () => {
        const preview = await run("preview", program);
        succeeded(preview);
        assert.deepEqual(
            preview.result.steps.filter((step) => step.type === TYPE).map((step) => step.op),
            ["same", "same", "same"],
        );
        assert.deepEqual(mutating(preview), []);
        assert.equal(memberReads(preview).length, 1);
    });

    it("roles changed in the program: preview says from what to what, up sets them", async () => {
        const changed = [program[0], entry("grace@example.com", ["admin"]), program[2]];
        const preview = await run("preview", changed);
        assert.deepEqual(lines(preview, "grace@example.com"), [
            'OrganizationMember "grace@example.com": changes roles of grace@example.com (admin, operationsengineer → admin)',
        ]);
        const up = await run("up", changed);
        succeeded(up);
        assert.deepEqual(mutating(up), ["POST /members/grace@example.com 204"]);
        assert.deepEqual(emulator().control.members()[1].roles, ["admin"]);
    });

    it("refresh reads the organization back: roles changed elsewhere show as drift, an accepted invitation is recorded, the owner never drifts", async () => {
        emulator().control.updateSettings({
            members: [
                OWNER,
                { ...GRACE, roles: ["admin", "visitor"] },
                ALAN,
                { name: "Katherine Johnson", email: "katherine@example.com", roles: ["analyst"], invitePending: false },
            ],
        });
        const refresh = await run("refresh", [program[0], entry("grace@example.com", ["admin"]), program[2]]);
        succeeded(refresh);
        const op = (name: string) => refresh.result.steps.find((step) => step.name === name)?.op;
        assert.equal(op("grace@example.com"), "update");
        assert.equal(op("ada@example.com"), "same");
        assert.equal(op("katherine@example.com"), "same");
        assert.ok(
            lines(refresh, "grace@example.com").includes(
                'OrganizationMember "grace@example.com": the organization gives grace@example.com roles admin, visitor; the program says admin',
            ),
        );
        const state = (name: string) =>
            unwrapSecrets(refresh.result.state.resources[`urn:pulumi:test::organization-members::${TYPE}::${name}`].outputs) as Record<string, PropertyValue>;
        assert.deepEqual(state("grace@example.com").roles, ["admin", "visitor"]);
        assert.equal(state("katherine@example.com").invitePending, false);
        assert.equal(state("katherine@example.com").name, "Katherine Johnson");
        assert.deepEqual(state("ada@example.com").roles, ["admin"]);
        assert.deepEqual(mutating(refresh), []);
    });

    it("a person taken off the list is removed; the owner taken off only leaves the stack", async () => {
        const up = await run("up", [entry("grace@example.com", ["admin"])]);
        succeeded(up);
        assert.deepEqual(mutating(up), ["POST /members/grace@example.com 204", "DELETE /members/katherine@example.com 204"]);
        assert.ok(
            lines(up, "ada@example.com").includes(
                'OrganizationMember "ada@example.com": ada@example.com is the organization owner: removed from the stack only, the owner stays in the organization',
            ),
        );
        assert.deepEqual(
            emulator()
                .control.members()
                .map((member) => member.email),
            ["ada@example.com", "grace@example.com", "alan@example.com"],
        );
    });

    it("a member removed elsewhere leaves the stack at refresh; destroy removes the rest", async () => {
        emulator().control.updateSettings({ members: [OWNER, ALAN] });
        const refresh = await run("refresh", [entry("grace@example.com", ["admin"])]);
        succeeded(refresh);
        assert.deepEqual(refresh.result.steps.find((step) => step.name === "grace@example.com")?.op, "delete");
        assert.ok(
            lines(refresh, "grace@example.com").some((line) =>
                line.endsWith("grace@example.com is no longer in the organization: refresh removes the resource from the stack"),
            ),
        );
        const up = await run("up", [entry("alan@example.com", ["developer"])]);
        succeeded(up);
        assert.deepEqual(mutating(up), []);
        const destroy = await run("destroy", [entry("alan@example.com", ["developer"])]);
        succeeded(destroy);
        assert.deepEqual(mutating(destroy), ["DELETE /members/alan@example.com 204"]);
        assert.deepEqual(emulator().control.members(), [OWNER]);
    });
});

describe("OrganizationMember: bad inputs are refused at check, before any request", function () {
    const emulator = useAdminEmulator();
    const workDir = useWorkDir();
    const { run } = memberStack(emulator, workDir);
    const cases: { title: string; entries: Entry[]; reason: RegExp }[] = [
        {
            title: "a malformed email",
            entries: [entry("ada.example.com", ["admin"], "ada")],
            reason: /has a problem: email is not an email address \(name@domain\.tld\)/,
        },
        {
            title: "an unknown role",
            entries: [entry("ada@example.com", ["admin", "superuser"], "ada")],
            reason: /has a problem: roles\[1\] \(superuser\) is not a role that can be assigned: use admin, operationsengineer, taskuser, analyst, developer, visitor, modeler/,
        },
        {
            title: "a role in another case",
            entries: [entry("ada@example.com", ["Admin"], "ada")],
            reason: /roles\[0\] \(Admin\) is not a role that can be assigned \(roles are written in lower case\)/,
        },
        {
            title: "owner among the roles",
            entries: [entry("ada@example.com", ["owner"], "ada")],
            reason: /has a problem: roles: owner cannot be assigned: an organization has one owner, and ownership moves only in the web console/,
        },
        {
            title: "member among the roles",
            entries: [entry("ada@example.com", ["member"], "ada")],
            reason: /roles: member cannot be assigned: every member has it/,
        },
        {
            title: "an empty roles list",
            entries: [entry("ada@example.com", [], "ada")],
            reason: /has a problem: roles must list at least one role: admin, operationsengineer/,
        },
        { title: "no email", entries: [{ name: "ada", email: undefined, roles: ["admin"] }], reason: /has a problem: email is required/ },
    ];
    for (const { title, entries, reason } of cases) {
        it(`${title}: refused naming the field, nothing sent`, async () => {
            const preview = await run("preview", entries);
            assert.notEqual(preview.result.exitCode, 0);
            assert.match(preview.result.errors.join("\n"), reason);
            assert.deepEqual(preview.requests, []);
        });
    }

    it("two resources for one email: the second is refused at preview, naming the first", async () => {
        const preview = await run("preview", [entry("ada@example.com", ["admin"], "first"), entry("ADA@example.com", ["developer"], "second")]);
        assert.notEqual(preview.result.exitCode, 0);
        assert.match(
            preview.result.errors.join("\n"),
            /resource 'second' has a problem: email: OrganizationMember "first" already declares ADA@example\.com in this stack: two resources for one person undo each other's roles on every up; declare it once/,
        );
        assert.deepEqual(mutating(preview), []);
    });

    it("the import option fails as Pulumi's engine fails it for any dynamic resource; declaring the member adopts it instead", async () => {
        const imported = await run("preview", [{ ...entry("grace@example.com", ["admin"]), import: "grace@example.com" }]);
        assert.notEqual(imported.result.exitCode, 0);
        // The host's words after "Preview failed:" are its release's (test/cli/imports.spec.ts); the resource and the refusal are what count.
        assert.match(imported.result.errors.join("\n"), /OrganizationMember grace@example\.com: Preview failed: \S/);
        assert.deepEqual(imported.requests, []);
        const declared = await run("preview", [entry("grace@example.com", ["admin"])]);
        succeeded(declared);
        assert.deepEqual(lines(declared, "grace@example.com"), [
            'OrganizationMember "grace@example.com": adopts existing member grace@example.com (roles admin, operationsengineer → admin)',
        ]);
    });

    it("a bad input beside credentials given as inputs: refused, and neither the secret nor a URL's password is printed", async () => {
        const stack = new AdminStack(emulator, workDir);
        const baseUrl = emulator().baseUrl.replace("http://", "http://admin:pa55-in-url@");
        const preview = await stack.run("preview", {
            program: "organization-members",
            config: {
                members: JSON.stringify([entry("not-an-email", ["admin"], "ada")]),
                explicitCredentials: "true",
                clientId: CLIENT.clientId,
                oauthUrl: emulator().authUrl,
                baseUrl,
            },
            secrets: { clientSecret: CLIENT.clientSecret },
        });
        assert.notEqual(preview.result.exitCode, 0);
        const errors = preview.result.errors.join("\n");
        assert.match(errors, /email is not an email address/);
        assert.match(errors, /credentials\.baseUrl must not contain a user name or password/);
        assert.ok(!`${preview.result.stdout}${preview.result.stderr}`.includes("pa55-in-url"), "the URL's password is printed");
        stack.assertNoLeaks(preview);
        assert.deepEqual(preview.requests, []);
    });

    it("missing credentials are named with where each may come from", async () => {
        const preview = await new AdminStack(emulator, workDir).run("preview", {
            program: "organization-members",
            config: { members: JSON.stringify([entry("ada@example.com", ["admin"])]) },
        });
        assert.notEqual(preview.result.exitCode, 0);
        const errors = preview.result.errors.join("\n");
        assert.match(
            errors,
            /credentials\.clientId is required: set the credentials\.clientId input, stack config platform:clientId or environment variable PLATFORM_CONSOLE_CLIENT_ID/,
        );
        assert.match(errors, /credentials\.clientSecret is required/);
        assert.deepEqual(preview.requests, []);
    });
});

describe("OrganizationMember: the administration API's bad days", function () {
    const emulator = useAdminEmulator();
    const workDir = useWorkDir();
    const { stack, run } = memberStack(emulator, workDir);
    beforeEach(() => emulator().control.updateSettings({ members: [OWNER] }));

    it("429 on GET /members during preview and on POST during up: retried after Retry-After, with a line, and the up succeeds", async () => {
        emulator().control.addFault({ interface: "admin", method: "GET", pathPrefix: "/members", status: 429, retryAfter: "1", count: 1 });
        const preview = await run("preview", [entry("grace@example.com", ["admin"])]);
        succeeded(preview);
        assert.deepEqual(
            memberReads(preview).map((r) => r.status),
            [429, 200],
        );
        assert.match(
            lines(preview, "grace@example.com")[0],
            /^OrganizationMember "grace@example\.com": the administration API answered 429 \(rate limited\) to GET \/members: retrying in 1\.\d s$/,
        );

        emulator().control.addFault({
            interface: "admin",
            method: "POST",
            pathPrefix: "/members/",
            status: 429,
            retryAfter: new Date(Date.now() + 1000).toUTCString(),
            count: 1,
        });
        const up = await run("up", [entry("grace@example.com", ["admin"])]);
        succeeded(up);
        assert.deepEqual(mutating(up), ["POST /members/grace@example.com 429", "POST /members/grace@example.com 204"]);
        assert.ok(
            lines(up, "grace@example.com").some((line) =>
                /the administration API answered 429 \(rate limited\) to POST \/members\/grace%40example\.com: retrying in \d\.\d s$/.test(line),
            ),
        );
        assert.equal(emulator().control.members().length, 2);
    });

    it("an invitation refused for lack of seats fails naming the cause; nothing else is sent", async () => {
        emulator().control.updateSettings({ seats: 1 });
        const up = await run("up", [entry("grace@example.com", ["admin"])]);
        assert.notEqual(up.result.exitCode, 0);
        assert.match(
            up.result.errors.join("\n"),
            /OrganizationMember "grace@example\.com": cannot invite grace@example\.com: POST \/members\/grace%40example\.com, status 403: Not authorized for this operation\. Server said: No open seats left in the organization \(an invitation needs an open seat, and the client needs the Members permission\)/,
        );
        assert.deepEqual(mutating(up), ["POST /members/grace@example.com 403"]);
        assert.deepEqual(
            Object.keys(up.result.state.resources).filter((urn) => urn.includes("OrganizationMember")),
            [],
        );
    });

    it("a token that expires during a long up is renewed", async () => {
        emulator().control.updateSettings({ tokenLifetimeSeconds: 2 });
        // The first invitation arrives after the token it carries has expired: answered 401, sent again with a new token.
        emulator().control.addFault({ interface: "admin", method: "POST", pathPrefix: "/members/", delayMs: 2_100, count: 1 });
        const up = await run("up", [entry("grace@example.com", ["admin"]), entry("alan@example.com", ["developer"])]);
        succeeded(up);
        assert.ok(up.tokenRequests.length >= 2, `tokens: ${up.tokenRequests.length}`);
        const invitations = mutating(up);
        assert.equal(invitations.filter((line) => line.endsWith(" 401")).length, 1, invitations.join("\n"));
        assert.deepEqual(invitations.filter((line) => line.endsWith(" 204")).sort(), [
            "POST /members/alan@example.com 204",
            "POST /members/grace@example.com 204",
        ]);
        stack.assertNoLeaks(up);
    });

    it("an email with characters a path must encode reaches the API as that one address", async () => {
        const email = "ops+on-call#1@example.com";
        const up = await run("up", [entry(email, ["developer"], "on-call")]);
        succeeded(up);
        assert.ok(up.requests.some((r) => r.method === "POST" && r.path === `/members/${encodeURIComponent(email)}` && r.status === 204));
        assert.deepEqual(emulator().control.members()[1].email, email);
        const destroy = await run("destroy", [entry(email, ["developer"], "on-call")]);
        succeeded(destroy);
        assert.deepEqual(emulator().control.members(), [OWNER]);
    });

    it("destroy of a member already removed elsewhere succeeds (404 is success)", async () => {
        succeeded(await run("up", [entry("grace@example.com", ["admin"])]));
        emulator().control.updateSettings({ members: [OWNER] });
        const destroy = await run("destroy", [entry("grace@example.com", ["admin"])]);
        succeeded(destroy);
        assert.ok(
            lines(destroy, "grace@example.com").includes('OrganizationMember "grace@example.com": grace@example.com was not in the organization any more'),
        );
    });

    it("a changed email replaces the resource: the new address is invited, then the old one removed", async () => {
        succeeded(await run("up", [entry("grace@example.com", ["admin"], "grace")]));
        const preview = await run("preview", [entry("grace.hopper@example.com", ["admin"], "grace")]);
        succeeded(preview);
        assert.ok(preview.result.steps.some((step) => step.name === "grace" && step.op === "replace"));
        const up = await run("up", [entry("grace.hopper@example.com", ["admin"], "grace")]);
        succeeded(up);
        assert.deepEqual(mutating(up), ["POST /members/grace.hopper@example.com 204", "DELETE /members/grace@example.com 204"]);
    });

    it("credentials given as inputs are kept as a secret for refresh and destroy, and never printed", async () => {
        const settings = {
            config: { explicitCredentials: "true", clientId: CLIENT.clientId, oauthUrl: emulator().authUrl, baseUrl: emulator().baseUrl },
            secrets: { clientSecret: CLIENT.clientSecret },
        };
        const up = await stack.run("up", {
            program: "organization-members",
            config: { members: JSON.stringify([entry("grace@example.com", ["admin"])]), ...settings.config },
            secrets: settings.secrets,
        });
        succeeded(up);
        const resource = up.result.state.resources[`urn:pulumi:test::organization-members::${TYPE}::grace@example.com`];
        assert.ok(isSecret(resource.outputs.credentials), "the credentials are not stored as a secret");
        // Refresh and destroy use what the state kept: no config, no environment.
        const refresh = await stack.run("refresh", { program: "organization-members", config: { members: "[]" } });
        succeeded(refresh);
        const destroy = await stack.run("destroy", { program: "organization-members", config: { members: "[]" } });
        succeeded(destroy);
        assert.deepEqual(emulator().control.members(), [OWNER]);
        for (const run of [up, refresh, destroy]) stack.assertNoLeaks(run);
    });
});

describe("OrganizationMember: 100 members", function () {
    const emulator = useAdminEmulator();
    const workDir = useWorkDir();
    const { run } = memberStack(emulator, workDir);
    const people: Member[] = Array.from({ length: 100 }, (_, i) => ({
        name: `Person ${i}`,
        email: `person${i}@example.com`,
        roles: ["developer"],
        invitePending: false,
    }));
    const program = people.map((person, i) => entry(person.email, [i % 2 === 0 ? "developer" : "analyst"]));

    it("one GET /members per provider host (preview: one; up: one per pass) and one token for all", async () => {
        emulator().control.updateSettings({ members: [OWNER, ...people] });
        const preview = await run("preview", program);
        succeeded(preview);
        assert.equal(memberReads(preview).length, 1);
        assert.equal(preview.tokenRequests.length, 1);
        const up = await run("up", program);
        succeeded(up);
        assert.equal(memberReads(up).length, 2);
        assert.equal(up.tokenRequests.length, 0, "the token of the preview serves the up (disk cache)");
        assert.equal(mutating(up).length, 50);
    });
});
