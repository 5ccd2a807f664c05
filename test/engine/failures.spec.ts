// Failures through the real host: check failures, a partial failure kept in state and healed by the next up,
// and a failing program that must not delete anything.
import * as assert from "assert";
import { ItemsProgram, ItemsRun, PASSPHRASE } from "./fixtures/itemsProgram";
import { StateFile } from "./stateFile";
import { leftBehind } from "../support/leftProcesses";
import { killAll } from "../support/processTable";

describe("engine: failures", function () {
    const program = new ItemsProgram("in-process");

    before(() => program.start());
    after(() => program.stop());

    const failed = (run: ItemsRun) => assert.strictEqual(run.result.exitCode, 1, `${run.result.stdout}\n${run.result.stderr}`);
    const succeeded = (run: ItemsRun) => assert.strictEqual(run.result.exitCode, 0, `${run.result.stdout}\n${run.result.stderr}`);

    it("check failures fail preview and up with the property and the reason, and create nothing: up stops after its preview", async () => {
        for (const command of ["preview", "up"] as const) {
            const run = await program.run(command, [{ name: "bad", size: -1 }]);
            failed(run);
            assert.deepStrictEqual(run.calls, ["configure", "check bad"]);
            assert.deepStrictEqual(
                run.result.passes.map((pass) => pass.pass),
                ["preview"],
            );
            assert.ok(
                run.result.stderr.includes(
                    "error: pulumi-nodejs:dynamic/fixture:Item resource 'bad': property size value {-1} has a problem: must be a non-negative number",
                ),
                run.result.stderr,
            );
            // The CLI closes a run with "preview failed" or "update failed" only after a step failed, not a check.
            assert.ok(!run.result.stderr.includes("failed\n") && !/error: (preview|update) failed/.test(run.result.stderr), run.result.stderr);
            assert.strictEqual(run.result.state.resources[program.urn("bad")], undefined);
        }
        assert.strictEqual(program.store.items.size, 0);
    });

    it("a check failure prints the property's value as Pulumi's engine does: a secret masked (as the CLI 3.276 does), a failure without a property without any value", async () => {
        const run = await program.run("preview", [{ name: "hidden", size: -7, secretSize: true }]);
        failed(run);
        assert.ok(
            run.result.stderr.includes(
                "error: pulumi-nodejs:dynamic/fixture:Item resource 'hidden': property size value {[secret]} has a problem: must be a non-negative number",
            ),
            run.result.stderr,
        );
        assert.doesNotMatch(run.result.stderr, /-7/, "the secret's plaintext was printed");
        const unnamed = await program.run("preview", [{ name: "nameless", size: 1, kind: "invalid" }]);
        failed(unnamed);
        assert.ok(
            unnamed.result.stderr.includes("error: pulumi-nodejs:dynamic/fixture:Item resource 'nameless' has a problem: kind invalid is not known"),
            unnamed.result.stderr,
        );
    });

    it("a partial failure keeps the resource in state with its init errors and __provider, and fails the run", async () => {
        program.store.failInitialization.add("p");
        const run = await program.run("up", [{ name: "p", size: 1 }], { skipPreview: true });
        failed(run);
        assert.deepStrictEqual(run.calls, ["configure", "check p", "create p"]);
        const kept = run.result.state.resources[program.urn("p")];
        assert.ok(kept, "the partially created resource is not in the state");
        const live = [...program.store.items.values()].find((item) => item.name === "p")!;
        assert.strictEqual(kept.id, live.id);
        assert.deepStrictEqual(kept.initErrors, ["p did not become ready"]);
        assert.strictEqual(kept.outputs.remoteId, live.id);
        assert.strictEqual(typeof kept.outputs.__provider, "string");
        assert.strictEqual(kept.inputs.size, 1);
        // In the engine's words: the init errors as a list, and the run closing with "update failed".
        assert.ok(run.result.stderr.includes("1 error occurred:\n\t* p did not become ready"), run.result.stderr);
        assert.ok(run.result.stderr.includes("error: update failed"), run.result.stderr);
        assert.deepStrictEqual(
            run.result.steps.map((step) => `${step.op} ${step.name}`),
            ["create fixture-items-dev", "create p"],
        );
    });

    it("the next up updates the resource with init errors although its diff reports no change (its preview shows the update)", async () => {
        const run = await program.run("up", [{ name: "p", size: 1 }]);
        succeeded(run);
        assert.deepStrictEqual(run.hostCalls, [
            ["configure", "check p", "diff p"],
            ["configure", "check p", "diff p", "update p"],
        ]);
        assert.deepStrictEqual(
            run.result.passes.map((pass) => pass.steps.filter((step) => step.name === "p").map((step) => step.op)),
            [["update"], ["update"]],
        );
        assert.deepStrictEqual(
            run.result.steps.filter((step) => step.name === "p").map((step) => step.op),
            ["update"],
        );
        assert.strictEqual(run.result.state.resources[program.urn("p")].initErrors, undefined);
    });

    it("a program that throws fails the run and deletes nothing", async () => {
        const before = program.store.items.size;
        const mark = program.store.journal.length;
        const { result } = await program.runWithConfig("up", { items: "not json" });
        assert.strictEqual(result.exitCode, 1, result.stdout);
        assert.ok(result.stderr.includes("error: program failed"), result.stderr);
        assert.deepStrictEqual(program.store.ops(mark), []);
        assert.strictEqual(program.store.items.size, before);
        assert.ok(result.state.resources[program.urn("p")], "the resource left the state");
    });

    it("destroy deletes a resource that was created by a partial failure (its stored __provider works)", async () => {
        const run = await program.run("destroy");
        succeeded(run);
        assert.deepStrictEqual(run.calls, ["configure", "delete p"]);
        assert.strictEqual(program.store.items.size, 0);
    });

    it("a run killed during a create leaves what the engine leaves: earlier steps and a pending operation", async () => {
        program.store.hold("slow");
        const items = [
            { name: "fast", size: 1 },
            { name: "slow", size: 1, dependsOn: ["fast"] },
        ];
        const controller = new AbortController();
        const killed = program.run("up", items, { signal: controller.signal, skipPreview: true });
        try {
            for (let i = 0; i < 600 && !program.store.ops().includes("create slow"); i++) await new Promise((resolve) => setTimeout(resolve, 50));
            assert.ok(program.store.ops().includes("create slow"), "the create never started");
            const state = new StateFile(program.stateFile, PASSPHRASE).load();
            assert.ok(state.resources[program.urn("fast")]?.id, "the finished create is not in the state");
            assert.strictEqual(state.resources[program.urn("slow")], undefined);
            assert.deepStrictEqual(state.pendingOperations, [{ urn: program.urn("slow"), type: "pulumi-nodejs:dynamic/fixture:Item", operation: "creating" }]);
        } finally {
            controller.abort();
            program.store.release("slow");
        }
        assert.strictEqual((await killed).result.exitCode, 128 + 9);
        // The fixture's provider does not watch its engine (the package's do: test/provider/hostLifetime.spec.ts), so
        // its host outlives the killed run, as it would under the real CLI: ended here.
        killAll(leftBehind());
    });

    it("the killed run left the stack locked, as the CLI's backends do: an up or a refresh refuses naming pulumi cancel, a preview does not; cancel lifts the lock", async () => {
        for (const command of ["up", "refresh"] as const) {
            const locked = await program.run(command, [{ name: "fast", size: 1 }]);
            failed(locked);
            assert.ok(
                locked.result.stderr.includes(
                    "error: the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete the lock file with `pulumi cancel`.",
                ),
                locked.result.stderr,
            );
            assert.deepStrictEqual(locked.calls, []);
        }
        succeeded(await program.run("preview", [{ name: "fast", size: 1 }]));
        succeeded(await program.run("cancel"));
    });

    it("the next run warns about the interrupted create in the engine's words, creates the resource again, and keeps the pending create (journal.go)", async () => {
        const run = await program.run(
            "up",
            [
                { name: "fast", size: 1 },
                { name: "slow", size: 1, dependsOn: ["fast"] },
            ],
            { skipPreview: true },
        );
        succeeded(run);
        assert.ok(
            run.result.stderr.includes(
                `warning: Attempting to deploy or update resources with 1 pending operations from previous deployment.\n  * ${program.urn("slow")}, interrupted while creating\n`,
            ),
            run.result.stderr,
        );
        assert.ok(run.result.stderr.includes("Note that `pulumi refresh` will need to be run interactively to clear pending CREATE operations."));
        assert.deepStrictEqual(run.calls, ["configure", "check fast", "diff fast", "check slow", "create slow"]);
        // Only an interactive refresh clears a pending create: it stays, and so does the warning of every up.
        assert.deepStrictEqual(run.result.state.pendingOperations, [
            { urn: program.urn("slow"), type: "pulumi-nodejs:dynamic/fixture:Item", operation: "creating" },
        ]);
        // The item the killed run was creating is unknown to the state: it is left behind.
        assert.strictEqual([...program.store.items.values()].filter((item) => item.name === "slow").length, 2);
        succeeded(await program.run("destroy"));
        assert.strictEqual(program.store.items.size, 1);
    });
});
