// A fixture program through every mode, each run a separate process driving the real dynamic-provider host.
// The `it`s form one story on one stack: each starts from the state the previous one left.
import * as assert from "assert";
import * as fs from "fs";
import { JournalEntry } from "./fixtures/itemStore";
import { ItemSpec, ItemsProgram, ItemsRun, PROJECT, STACK, TOKEN } from "./fixtures/itemsProgram";
import { isSecret, UNKNOWN, unwrapSecrets } from "./propertyValues";

const STACK_URN = `urn:pulumi:${STACK}::${PROJECT}::pulumi:pulumi:Stack::${PROJECT}-${STACK}`;
const GROUP_URN = `urn:pulumi:${STACK}::${PROJECT}::fixture:index:Group::g`;

describe("engine: a dynamic-resource program through preview, up, refresh and destroy", function () {
    const program = new ItemsProgram();
    const a: ItemSpec = { name: "a", size: 1 };
    const b: ItemSpec = { name: "b", size: 2, labelFrom: "a" };
    const c: ItemSpec = { name: "c", size: 3, group: "g", dependsOn: ["b"] };

    before(() => program.start());
    after(() => program.stop());

    function succeeded(run: ItemsRun): void {
        assert.strictEqual(run.result.exitCode, 0, `exit ${run.result.exitCode}\n${run.result.stdout}\n${run.result.stderr}`);
        assert.ok(!run.result.stdout.includes(TOKEN) && !run.result.stderr.includes(TOKEN), "the secret token was printed");
        if (fs.existsSync(program.stateFile)) {
            assert.ok(!fs.readFileSync(program.stateFile, "utf8").includes(TOKEN), "the secret token is in the state file");
        }
        // Every call carried the token the provider's configure() got from the secret stack config.
        assert.ok(
            run.entries.every((entry) => entry.authorized),
            "a call was made without the configured token",
        );
    }

    const steps = (run: ItemsRun) => run.result.steps.map((step) => `${step.op} ${step.name}`);
    // Components complete at once, so their lines interleave with the items' by timing: compare items in order.
    const itemSteps = (run: ItemsRun) =>
        run.result.steps.filter((step) => step.type === "pulumi-nodejs:dynamic/fixture:Item").map((step) => `${step.op} ${step.name}`);
    const entry = (run: ItemsRun, op: string, name: string, nth = 0) => run.entries.filter((e) => e.op === op && e.name === name)[nth];
    const news = (journaled: JournalEntry | undefined) => (journaled?.body?.news ?? {}) as { label?: string };
    const resource = (run: ItemsRun, urn: string) => {
        const found = run.result.state.resources[urn];
        assert.ok(found, `${urn} is not in the state`);
        return found;
    };

    it("previews new resources with Check only, and an input from a resource yet to be created is the unknown sentinel", async () => {
        const run = await program.run("preview", [a, b, c]);
        succeeded(run);
        assert.deepStrictEqual(run.calls, ["configure", "check a", "check b", "check c"]);
        assert.strictEqual(program.store.items.size, 0, "preview created items");
        assert.strictEqual(news(entry(run, "check", "b")).label, UNKNOWN);
        assert.deepStrictEqual(itemSteps(run), ["create a", "create b", "create c"]);
        assert.deepStrictEqual(steps(run).sort(), ["create a", "create b", "create c", `create ${PROJECT}-${STACK}`, "create g"].sort());
        assert.ok(run.result.steps.every((step) => step.preview));
        assert.ok(run.result.lines.includes("+ create pulumi-nodejs:dynamic/fixture:Item a (preview)"), run.result.stdout);
        assert.ok(!fs.existsSync(program.stateFile), "preview wrote the state");
        assert.ok(isSecret(run.result.outputs.token));
        assert.ok(run.result.lines.includes("    token: [secret]"), run.result.stdout);
    });

    it("up previews first in a host of its own, then creates each resource once its inputs are known, and records ids, outputs, dependencies and secrets", async () => {
        const run = await program.run("up", [a, b, c]);
        succeeded(run);
        assert.deepStrictEqual(run.hostCalls, [
            ["configure", "check a", "check b", "check c"],
            ["configure", "check a", "create a", "check b", "create b", "check c", "create c"],
        ]);
        assert.deepStrictEqual(
            run.result.passes.map((pass) => pass.pass),
            ["preview", "up"],
        );
        assert.deepStrictEqual(itemSteps(run), ["create a", "create b", "create c"]);
        assert.deepStrictEqual(steps(run).sort(), ["create a", "create b", "create c", `create ${PROJECT}-${STACK}`, "create g"].sort());
        const itemA = resource(run, program.urn("a"));
        const itemB = resource(run, program.urn("b"));
        const itemC = resource(run, program.urn("c", "g"));
        assert.strictEqual(itemA.id, itemA.outputs.remoteId);
        assert.strictEqual(typeof itemA.inputs.__provider, "string");
        assert.strictEqual(itemB.outputs.label, itemA.id);
        assert.ok(itemB.dependencies.includes(program.urn("a")));
        assert.strictEqual(itemC.parent, GROUP_URN);
        assert.ok(itemC.dependencies.includes(program.urn("b")));
        assert.deepStrictEqual(unwrapSecrets(run.result.outputs.remoteIds), { a: itemA.id, b: itemB.id, c: itemC.id });
        assert.ok(isSecret(resource(run, STACK_URN).outputs.token), "the secret stack output is not kept secret");
        // The provider's console.log lines arrive as host diagnostics.
        assert.ok(run.result.diagnostics.some((d) => d.stream === "stdout" && d.line === `item a: created ${itemA.id}`));
        assert.ok(run.result.lines.includes(`[host:stdout] item a: created ${itemA.id}`), run.result.stdout);
    });

    it("a second preview diffs every resource against the state (olds from state) and changes nothing", async () => {
        const before = fs.readFileSync(program.stateFile, "utf8");
        const run = await program.run("preview", [a, b, c]);
        succeeded(run);
        assert.deepStrictEqual(run.calls, ["configure", "check a", "diff a", "check b", "diff b", "check c", "diff c"]);
        assert.deepStrictEqual(entry(run, "check", "a").body?.olds, { name: "a", size: 1, kind: "plain" });
        assert.ok(
            run.result.steps.every((step) => step.op === "same"),
            steps(run).join(", "),
        );
        assert.strictEqual(fs.readFileSync(program.stateFile, "utf8"), before);
    });

    it("changing an input updates that resource in place", async () => {
        const run = await program.run("up", [{ ...a, size: 5 }, b, c]);
        succeeded(run);
        assert.deepStrictEqual(run.hostCalls, [
            ["configure", "check a", "diff a", "check b", "diff b", "check c", "diff c"],
            ["configure", "check a", "diff a", "update a", "check b", "diff b", "check c", "diff c"],
        ]);
        assert.deepStrictEqual(itemSteps(run), ["update a", "same b", "same c"]);
        assert.strictEqual(resource(run, program.urn("a")).outputs.size, 5);
    });

    it("previewing a replacement: its outputs reach its dependents' Check and Diff as the unknown sentinel", async () => {
        const itemsBefore = JSON.stringify([...program.store.items.values()]);
        const run = await program.run("preview", [{ ...a, size: 5, kind: "special" }, b, c]);
        succeeded(run);
        assert.deepStrictEqual(run.calls, ["configure", "check a", "diff a", "check a", "check b", "diff b", "check c", "diff c"]);
        assert.strictEqual(news(entry(run, "check", "b")).label, UNKNOWN);
        assert.strictEqual(news(entry(run, "diff", "b")).label, UNKNOWN);
        // As the CLI shows a replacement: its create, the replace, and the deletion of the original once the program ran.
        assert.deepStrictEqual(itemSteps(run), ["create-replacement a", "replace a", "update b", "same c", "delete-replaced a"]);
        assert.strictEqual(JSON.stringify([...program.store.items.values()]), itemsBefore);
    });

    it("a replace-triggering change creates the replacement, updates dependents, and deletes the original last", async () => {
        const oldId = [...program.store.items.values()].find((item) => item.name === "a")!.id;
        const run = await program.run("up", [{ ...a, size: 5, kind: "special" }, b, c], { skipPreview: true });
        succeeded(run);
        assert.deepStrictEqual(run.calls, [
            "configure",
            "check a",
            "diff a",
            "check a",
            "create a",
            "check b",
            "diff b",
            "update b",
            "check c",
            "diff c",
            "delete a",
        ]);
        // The replacement is checked again without old inputs.
        assert.deepStrictEqual(entry(run, "check", "a", 1).body?.olds, {});
        assert.strictEqual(run.entries.find((e) => e.op === "delete")?.id, oldId);
        const itemA = resource(run, program.urn("a"));
        assert.notStrictEqual(itemA.id, oldId);
        assert.strictEqual(resource(run, program.urn("b")).outputs.label, itemA.id);
        assert.deepStrictEqual(run.result.state.pendingDeletes, []);
        assert.deepStrictEqual(itemSteps(run), ["create-replacement a", "replace a", "update b", "same c", "delete-replaced a"]);
        assert.ok(run.result.diagnostics.some((d) => d.stream === "stderr" && d.line === `item a: deleted ${oldId}`));
        assert.ok(run.result.stderr.includes(`[host:stderr] item a: deleted ${oldId}`), run.result.stderr);
    });

    it("deleteBeforeReplace (from the diff, or the resource option) deletes the original before creating", async () => {
        const run = await program.run(
            "up",
            [
                { ...a, size: 5, kind: "special" },
                { ...b, kind: "special", deleteBeforeReplace: true },
                { ...c, kind: "special", deleteBeforeReplaceOption: true },
            ],
            { skipPreview: true },
        );
        succeeded(run);
        assert.deepStrictEqual(run.calls, [
            "configure",
            "check a",
            "diff a",
            "check b",
            "diff b",
            "check b",
            "delete b",
            "create b",
            "check c",
            "diff c",
            "check c",
            "delete c",
            "create c",
        ]);
        assert.deepStrictEqual(itemSteps(run), [
            "same a",
            "delete-replaced b",
            "replace b",
            "create-replacement b",
            "delete-replaced c",
            "replace c",
            "create-replacement c",
        ]);
        assert.ok(!resource(run, program.urn("b")).pendingReplacement);
    });

    it("a resource no longer declared is deleted after the program ran, before its parent", async () => {
        const run = await program.run("up", [
            { ...a, size: 5, kind: "special" },
            { ...b, kind: "special", deleteBeforeReplace: true },
        ]);
        succeeded(run);
        // Preview shows the deletion without asking the provider.
        assert.deepStrictEqual(run.hostCalls, [
            ["configure", "check a", "diff a", "check b", "diff b"],
            ["configure", "check a", "diff a", "check b", "diff b", "delete c"],
        ]);
        assert.deepStrictEqual(steps(run).slice(-2), ["delete c", "delete g"]);
        assert.strictEqual(run.result.state.resources[program.urn("c", "g")], undefined);
        assert.strictEqual(run.result.state.resources[GROUP_URN], undefined);
    });

    it("refresh reads and diffs each resource: drift becomes outputs and inputs, a vanished resource leaves the state", async () => {
        const items = [...program.store.items.values()];
        const liveA = items.find((item) => item.name === "a")!;
        const liveB = items.find((item) => item.name === "b")!;
        liveA.size = 42;
        program.store.items.delete(liveB.id);
        const run = await program.run("refresh");
        succeeded(run);
        // A preview pass, then the refresh; each diff compares the old inputs with what was read.
        const pass = ["configure", "read a", "diff a", `read ${liveB.id}`];
        assert.deepStrictEqual(run.hostCalls, [pass, pass]);
        assert.deepStrictEqual(entry(run, "diff", "a").body?.news, { name: "a", size: 5, kind: "special" });
        assert.deepStrictEqual(entry(run, "diff", "a").body?.olds, { name: "a", size: 42, kind: "special", remoteId: liveA.id });
        assert.deepStrictEqual(steps(run), [`same ${PROJECT}-${STACK}`, "update a", "delete b"]);
        const itemA = resource(run, program.urn("a"));
        assert.strictEqual(itemA.outputs.size, 42);
        assert.strictEqual(itemA.inputs.size, 42);
        assert.strictEqual(typeof itemA.outputs.__provider, "string");
        assert.strictEqual(run.result.state.resources[program.urn("b")], undefined);
    });

    it("the next up diffs against the refreshed state: it reverts the drift and recreates what vanished", async () => {
        const run = await program.run(
            "up",
            [
                { ...a, size: 5, kind: "special" },
                { ...b, kind: "special", deleteBeforeReplace: true },
            ],
            { skipPreview: true },
        );
        succeeded(run);
        assert.deepStrictEqual(run.calls, ["configure", "check a", "diff a", "update a", "check b", "create b"]);
        assert.deepStrictEqual(entry(run, "check", "a").body?.olds, { name: "a", size: 42, kind: "special" });
    });

    it("destroy deletes everything in reverse dependency order (its preview asks no provider anything)", async () => {
        const run = await program.run("destroy");
        succeeded(run);
        assert.deepStrictEqual(run.hostCalls, [["configure", "delete b", "delete a"]]);
        assert.deepStrictEqual(
            run.result.passes.map((pass) => pass.steps.map((step) => `${step.op} ${step.name}`)),
            [
                ["delete b", "delete a", `delete ${PROJECT}-${STACK}`],
                ["delete b", "delete a", `delete ${PROJECT}-${STACK}`],
            ],
        );
        assert.deepStrictEqual(steps(run), ["delete b", "delete a", `delete ${PROJECT}-${STACK}`]);
        assert.deepStrictEqual(run.result.state, { resources: {}, pendingDeletes: [], pendingOperations: [] });
        assert.strictEqual(program.store.items.size, 0);
    });
});
