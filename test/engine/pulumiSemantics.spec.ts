// What Pulumi's own engine (v3.248.0) does with a dynamic provider, pinned with the trivial items provider the way
// Pulumi's lifecycle tests pin it (pkg/engine/lifecycletest/). Each `describe` names the Go source it follows.
// That `up`, `refresh` and `destroy` make a preview pass first is pinned in lifecycle.spec.ts and failures.spec.ts.
import * as assert from "assert";
import { ItemSpec, ItemsProgram, ItemsRun, TOKEN } from "./fixtures/itemsProgram";

const succeeded = (run: ItemsRun) => assert.strictEqual(run.result.exitCode, 0, `${run.result.stdout}\n${run.result.stderr}`);
const failed = (run: ItemsRun) => assert.strictEqual(run.result.exitCode, 1, `${run.result.stdout}\n${run.result.stderr}`);
const opOf = (run: ItemsRun, name: string) => run.result.steps.find((step) => step.name === name)?.op;
const one: ItemSpec[] = [{ name: "p", size: 1 }];

describe("engine: Pulumi's semantics for dynamic providers", function () {
    describe("refresh diffs each resource read, old inputs against the refreshed state (RefreshStep.Apply, pkg/resource/deploy/step.go)", function () {
        const program = new ItemsProgram("in-process");
        const live = () => [...program.store.items.values()].find((item) => item.name === "p")!;
        before(async () => {
            await program.start();
            succeeded(await program.run("up", one, { skipPreview: true }));
        });
        after(() => program.stop());

        it("the provider's diff gets the refreshed outputs as olds and the old inputs as news; a difference makes the step an update", async () => {
            live().size = 7;
            const run = await program.run("refresh", [], { skipPreview: true });
            succeeded(run);
            assert.deepStrictEqual(run.calls, ["configure", "read p", "diff p"]);
            const diff = run.entries.find((entry) => entry.op === "diff")!;
            assert.strictEqual((diff.body?.olds as { size: number }).size, 7);
            assert.strictEqual((diff.body?.news as { size: number }).size, 1);
            assert.strictEqual(opOf(run, "p"), "update");
            assert.strictEqual(run.result.state.resources[program.urn("p")].inputs.size, 7);
        });

        it("when the diff finds nothing, the step is the same", async () => {
            const run = await program.run("refresh", [], { skipPreview: true });
            succeeded(run);
            assert.strictEqual(opOf(run, "p"), "same");
        });

        it("a diff that fails fails the refresh, but the state keeps what the read found (as the CLI's does)", async () => {
            live().size = -1;
            const run = await program.run("refresh", [], { skipPreview: true });
            failed(run);
            assert.ok(run.result.stderr.includes("Diff failed: item p: cannot diff a negative size"), run.result.stderr);
            assert.strictEqual(opOf(run, "p"), "refresh");
            assert.strictEqual(run.result.state.resources[program.urn("p")].outputs.size, -1);
            assert.strictEqual(run.result.state.resources[program.urn("p")].inputs.size, -1);
        });

        it("PULUMI_ENABLE_LEGACY_REFRESH_DIFF: no diff; the step is an update because the outputs changed", async () => {
            live().size = 9;
            const run = await program.run("refresh", [], { skipPreview: true, env: { PULUMI_ENABLE_LEGACY_REFRESH_DIFF: "true" } });
            succeeded(run);
            assert.deepStrictEqual(run.calls, ["configure", "read p"]);
            assert.strictEqual(opOf(run, "p"), "update");
            assert.strictEqual(run.result.state.resources[program.urn("p")].outputs.size, 9);
        });
    });

    describe("a successful refresh clears init errors (lifecycletest/refresh_test.go: the initialization error disappears)", function () {
        const program = new ItemsProgram("in-process");
        before(() => program.start());
        after(() => program.stop());

        it("a partial failure leaves init errors; after a refresh, an up of the unchanged program is a same step", async () => {
            program.store.failInitialization.add("p");
            failed(await program.run("up", one, { skipPreview: true }));
            assert.deepStrictEqual(program.store.items.size, 1);
            const refreshed = await program.run("refresh", [], { skipPreview: true });
            succeeded(refreshed);
            assert.strictEqual(refreshed.result.state.resources[program.urn("p")].initErrors, undefined);
            const run = await program.run("up", one, { skipPreview: true });
            succeeded(run);
            assert.deepStrictEqual(run.calls, ["configure", "check p", "diff p"]);
            assert.strictEqual(opOf(run, "p"), "same");
        });
    });

    describe("a partially failed update keeps the old inputs with the new outputs (OnResourceStepPost, pkg/engine/update.go)", function () {
        const program = new ItemsProgram("in-process");
        before(() => program.start());
        after(() => program.stop());

        it("the state keeps size 1 as the input and size 2 as the output, and the next check gets the old input", async () => {
            succeeded(await program.run("up", one, { skipPreview: true }));
            program.store.failInitialization.add("p");
            const run = await program.run("up", [{ name: "p", size: 2 }], { skipPreview: true });
            failed(run);
            const kept = run.result.state.resources[program.urn("p")];
            assert.strictEqual(kept.inputs.size, 1);
            assert.strictEqual(kept.outputs.size, 2);
            assert.deepStrictEqual(kept.initErrors, ["p did not become ready"]);
            const next = await program.run("preview", [{ name: "p", size: 3 }]);
            succeeded(next);
            const check = next.entries.find((entry) => entry.op === "check")!;
            assert.strictEqual((check.body?.olds as { size: number }).size, 1);
        });
    });

    describe("refresh and destroy configure the provider with the config of the last up (providers/registry.go, Same)", function () {
        const program = new ItemsProgram("in-process");
        const rotated = `${TOKEN}-rotated`;
        const later = `${TOKEN}-later`;
        const tokens = (run: ItemsRun) => [...new Set(run.entries.map((entry) => entry.token))];
        before(async () => {
            await program.start();
            program.store.otherTokens.add(rotated).add(later);
        });
        after(() => program.stop());

        it("the state records the default provider with its config, its secrets encrypted", async () => {
            const run = await program.run("up", one, { skipPreview: true });
            succeeded(run);
            const provider = run.result.state.resources[program.providerUrn()];
            assert.ok(provider?.id, "the default provider is not in the state");
            assert.strictEqual(run.result.state.resources[program.urn("p")].provider, `${program.providerUrn()}::${provider.id}`);
            assert.deepStrictEqual(tokens(run), [TOKEN]);
            assert.ok(!program.stateText().includes(TOKEN), "the token is in the state file unencrypted");
        });

        it("a refresh with a rotated secret in the stack config still uses the recorded one", async () => {
            const run = await program.run("refresh", [], { token: rotated });
            succeeded(run);
            assert.deepStrictEqual(tokens(run), [TOKEN]);
        });

        it("the next up uses and records the rotated secret; refresh and destroy use it from then on", async () => {
            const up = await program.run("up", one, { token: rotated });
            succeeded(up);
            assert.deepStrictEqual(tokens(up), [rotated]);
            const refresh = await program.run("refresh", [], { token: later, skipPreview: true });
            succeeded(refresh);
            assert.deepStrictEqual(tokens(refresh), [rotated]);
            const destroy = await program.run("destroy", [], { token: later });
            succeeded(destroy);
            assert.deepStrictEqual(tokens(destroy), [rotated]);
            assert.deepStrictEqual(destroy.result.state.resources, {});
        });
    });

    describe("the import option fails for a dynamic resource (ImportStep.Apply, pkg/resource/deploy/step.go; pulumi/pulumi#3550, #16175)", function () {
        // The engine reads the resource to import by its id with no properties at all, so the dynamic-provider host fails
        // on the request before it could load a provider (it has no serialized one anyway): in preview and in up alike.
        for (const engine of ["process", "in-process"] as const) {
            const program = new ItemsProgram(engine);
            before(() => program.start());
            after(() => program.stop());

            it(`${engine === "process" ? "the host in its own process" : "in-process"}: preview fails at the read, the provider is never called, the state is unchanged`, async () => {
                const preview = await program.run("preview", [{ name: "adopted", size: 1, importId: "item-7" }]);
                failed(preview);
                assert.match(preview.result.stderr, /pulumi-nodejs:dynamic\/fixture:Item adopted: Preview failed: code must be a string, not undefined/);
                assert.strictEqual(opOf(preview, "adopted"), "import");
                assert.deepStrictEqual(preview.calls, []);
                // An up does the same as its preview pass; once is enough to show it, in this process.
                if (engine === "process") return;
                const up = await program.run("up", [{ name: "adopted", size: 1, importId: "item-7" }]);
                failed(up);
                assert.match(up.result.stderr, /Preview failed: code must be a string, not undefined/);
                assert.deepStrictEqual(Object.keys(up.result.state.resources), []);
            });
        }
    });
});
