// test/engine answers to the real CLI: every behaviour it claims (lifecycle.spec.ts, pulumiSemantics.spec.ts,
// failures.spec.ts) as the same program and sequence of commands, run by test/engine and by the CLI, each against a
// store of its own, and compared command by command: the exit status, the step of each resource, the provider calls
// (which pass, which method, in which order), the state (resources, inputs, outputs, init errors, pending deletes and
// operations; ids of providers and the serialized provider's text aside), and the engine's own words where
// test/engine claims them. Where they differ, test/engine is wrong.
import assert from "node:assert/strict";
import type { ItemSpec } from "../engine/fixtures/itemsProgram";
import { ItemsProgram, ItemsRun, PASSPHRASE, TOKEN } from "../engine/fixtures/itemsProgram";
import { StateFile } from "../engine/stateFile";
import { leftBehind } from "../support/leftProcesses";
import { killAll } from "../support/processTable";
import type { ItemStore } from "../engine/fixtures/itemStore";
import type { StackState } from "../engine/stateFile";
import { CliItemsRun, ItemsUnderCli } from "./itemsUnderCli";
import { mainVersion } from "./pulumiBin";

type Command = "preview" | "up" | "refresh" | "destroy" | "cancel";

interface Step {
    command: Command;
    items?: ItemSpec[];
    /** Config instead of `items` (a program that throws on bad config). */
    config?: Record<string, string>;
    skipPreview?: boolean;
    token?: string;
    env?: NodeJS.ProcessEnv;
    /** What happens to the store before the command (drift, a failure to come). */
    before?: (store: ItemStore) => void;
    /** Lines of the engine's own words both must print (stdout and stderr together). */
    says?: string[];
    /** The run is killed (SIGKILL) while the provider creates this item; the state left then is compared too. */
    killDuringCreateOf?: string;
}

const a: ItemSpec = { name: "a", size: 1 };
const b: ItemSpec = { name: "b", size: 2, labelFrom: "a" };
const c: ItemSpec = { name: "c", size: 3, group: "g", dependsOn: ["b"] };
const a5: ItemSpec = { ...a, size: 5, kind: "special" };
const bDbr: ItemSpec = { ...b, kind: "special", deleteBeforeReplace: true };
const one: ItemSpec[] = [{ name: "p", size: 1 }];
const item = (store: ItemStore, name: string) => [...store.items.values()].find((candidate) => candidate.name === name)!;

export const SCENARIOS: Record<string, Step[]> = {
    "the lifecycle: preview, up, updates, replacements, deletions, drift, refresh, destroy (lifecycle.spec.ts)": [
        { command: "preview", items: [a, b, c] },
        { command: "up", items: [a, b, c] },
        { command: "preview", items: [a, b, c] },
        { command: "up", items: [{ ...a, size: 5 }, b, c] },
        { command: "preview", items: [a5, b, c] },
        { command: "up", items: [a5, b, c], skipPreview: true },
        {
            command: "up",
            items: [a5, bDbr, { ...c, kind: "special", deleteBeforeReplaceOption: true }],
            skipPreview: true,
        },
        { command: "up", items: [a5, bDbr] },
        {
            command: "refresh",
            before: (store) => {
                item(store, "a").size = 42;
                store.items.delete(item(store, "b").id);
            },
        },
        { command: "up", items: [a5, bDbr], skipPreview: true },
        { command: "destroy" },
    ],
    "refresh diffs old inputs against what it read; a failing diff fails it; the legacy switch (pulumiSemantics.spec.ts)": [
        { command: "up", items: one, skipPreview: true },
        { command: "refresh", skipPreview: true, before: (store) => (item(store, "p").size = 7) },
        { command: "refresh", skipPreview: true },
        { command: "refresh", skipPreview: true, before: (store) => (item(store, "p").size = -1), says: ["cannot diff a negative size"] },
        { command: "refresh", skipPreview: true, env: { PULUMI_ENABLE_LEGACY_REFRESH_DIFF: "true" } },
    ],
    "a refresh clears init errors; a partially failed update keeps the old inputs (pulumiSemantics.spec.ts)": [
        { command: "up", items: one, skipPreview: true, before: (store) => store.failInitialization.add("p"), says: ["p did not become ready"] },
        { command: "refresh", skipPreview: true },
        { command: "up", items: one, skipPreview: true },
        { command: "up", items: [{ name: "p", size: 2 }], skipPreview: true, before: (store) => store.failInitialization.add("p") },
        { command: "preview", items: [{ name: "p", size: 3 }] },
    ],
    "refresh and destroy use the provider config of the last up (pulumiSemantics.spec.ts)": [
        { command: "up", items: one, skipPreview: true },
        { command: "refresh", token: `${TOKEN}-rotated` },
        { command: "up", items: one, token: `${TOKEN}-rotated` },
        { command: "refresh", token: `${TOKEN}-later`, skipPreview: true },
        { command: "destroy", token: `${TOKEN}-later` },
    ],
    "the import option fails for a dynamic resource (pulumiSemantics.spec.ts)": [
        {
            command: "preview",
            items: [{ name: "adopted", size: 1, importId: "item-7" }],
            says: ["Preview failed: code must be a string, not undefined", "error: preview failed"],
        },
        {
            command: "up",
            items: [{ name: "adopted", size: 1, importId: "item-7" }],
            says: ["Preview failed: code must be a string, not undefined"],
        },
        { command: "up", items: [{ name: "adopted", size: 1, importId: "item-7" }], skipPreview: true },
    ],
    "check failures, a partial failure on create healed by the next up, a program that throws (failures.spec.ts)": [
        {
            command: "preview",
            items: [{ name: "bad", size: -1 }],
            says: ["error: pulumi-nodejs:dynamic/fixture:Item resource 'bad': property size value {-1} has a problem: must be a non-negative number"],
        },
        { command: "up", items: [{ name: "bad", size: -1 }] },
        {
            command: "preview",
            items: [{ name: "hidden", size: -7, secretSize: true }],
            says: ["error: pulumi-nodejs:dynamic/fixture:Item resource 'hidden': property size value {[secret]} has a problem: must be a non-negative number"],
        },
        {
            command: "preview",
            items: [{ name: "nameless", size: 1, kind: "invalid" }],
            says: ["error: pulumi-nodejs:dynamic/fixture:Item resource 'nameless' has a problem: kind invalid is not known"],
        },
        {
            command: "up",
            items: one,
            skipPreview: true,
            before: (store) => store.failInitialization.add("p"),
            says: ["1 error occurred:", "\t* p did not become ready", "error: update failed"],
        },
        { command: "up", items: one },
        // How a program's own failure is worded is the language host's (not built here: see programServer.ts).
        { command: "up", config: { items: "not json" } },
        { command: "destroy" },
    ],
    "a run killed during a create: the pending operation, the lock, the warning of the next up (failures.spec.ts)": [
        {
            command: "up",
            items: [
                { name: "fast", size: 1 },
                { name: "slow", size: 1, dependsOn: ["fast"] },
            ],
            skipPreview: true,
            killDuringCreateOf: "slow",
        },
        {
            command: "up",
            items: [
                { name: "fast", size: 1 },
                { name: "slow", size: 1, dependsOn: ["fast"] },
            ],
            says: ["the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete the lock file with `pulumi cancel`."],
        },
        {
            command: "preview",
            items: [
                { name: "fast", size: 1 },
                { name: "slow", size: 1, dependsOn: ["fast"] },
            ],
        },
        { command: "cancel" },
        {
            command: "up",
            items: [
                { name: "fast", size: 1 },
                { name: "slow", size: 1, dependsOn: ["fast"] },
            ],
            skipPreview: true,
            says: ["warning: Attempting to deploy or update resources with 1 pending operations from previous deployment.", "interrupted while creating"],
        },
        { command: "destroy" },
    ],
};

/** Both engines' runs of one command, in a comparable form. */
interface Seen {
    exitCode: number;
    steps: string[];
    calls: string[];
    hostCalls: string[][];
    state: unknown;
    text: string;
}

function fromEngine(run: ItemsRun): Seen {
    const steps = run.result.steps.filter((step) => !step.type.startsWith("pulumi:")).map((step) => `${step.op} ${step.name}`);
    return {
        exitCode: run.result.exitCode,
        steps,
        calls: run.calls,
        hostCalls: run.hostCalls,
        state: comparable(run.result.state),
        text: `${run.result.stdout}\n${run.result.stderr}`,
    };
}

function fromCli(run: CliItemsRun): Seen {
    return {
        exitCode: run.exitCode,
        steps: run.steps,
        calls: run.calls,
        hostCalls: run.hostCalls,
        state: comparable(run.state),
        text: `${run.stdout}\n${run.stderr}`,
    };
}

/** The state without what legitimately differs: provider ids, the serialized provider's text, the store's address. */
function comparable(state: StackState): unknown {
    const providerIds = new Map<string, string>();
    const text = JSON.stringify(state, (key, value: unknown) => {
        if (key === "__provider" && typeof value === "string") return "<serialized provider>";
        return value;
    });
    return JSON.parse(
        text
            .replace(/(urn:pulumi:[^"]*pulumi:providers:pulumi-nodejs::default)::([0-9a-f-]{36})/g, (_, urn: string, id: string) => {
                if (!providerIds.has(id)) providerIds.set(id, `<provider ${providerIds.size + 1}>`);
                return `${urn}::${providerIds.get(id)}`;
            })
            .replace(/"id":"([0-9a-f-]{36})"/g, (_, id: string) => `"id":"${providerIds.get(id) ?? "<provider id>"}"`)
            .replace(/http:\/\/127\.0\.0\.1:\d+/g, "<items store>"),
    );
}

/** Runs a command, holds the provider's create of `name`, reads the state then, kills the run, and releases the create. */
async function killedDuringCreate(
    store: ItemStore,
    name: string,
    run: (signal: AbortSignal) => Promise<number>,
    state: () => StackState | Promise<StackState>,
): Promise<{ exitCode: number; during: StackState }> {
    store.hold(name);
    const kill = new AbortController();
    const running = run(kill.signal);
    try {
        for (let i = 0; i < 600 && !store.ops().includes(`create ${name}`); i++) await new Promise((resolve) => setTimeout(resolve, 50));
        assert.ok(store.ops().includes(`create ${name}`), `the create of ${name} never started`);
        const during = await state();
        kill.abort();
        const exitCode = await running;
        // The fixture's provider does not watch its engine (the package's do: test/provider/hostLifetime.spec.ts), so
        // its host outlives the killed run, under the CLI as under test/engine: ended here.
        killAll(leftBehind());
        return { exitCode, during };
    } finally {
        kill.abort();
        store.release(name);
    }
}

/**
 * The scenarios whose names start with one of `prefixes`, each an `it` of its own: the CLI suite spreads them over a
 * few files so that they run in parallel.
 */
export function describeParity(title: string, prefixes: string[]): void {
    describe(`test/engine answers to the real CLI (pulumi ${mainVersion()}): ${title}`, function () {
        this.timeout(600_000);

        for (const [scenario, steps] of Object.entries(SCENARIOS).filter(([name]) => prefixes.some((prefix) => name.startsWith(prefix)))) {
            it(scenario, () => runScenario(steps));
        }
    });
}

async function runScenario(steps: Step[]): Promise<void> {
    const engine = new ItemsProgram("in-process");
    const cli = new ItemsUnderCli(mainVersion());
    await Promise.all([engine.start(), cli.start()]);
    try {
        for (const [index, step] of steps.entries()) {
            const where = `step ${index + 1} (${step.command}${step.skipPreview ? " --skip-preview" : ""})`;
            step.before?.(engine.store);
            step.before?.(cli.store);
            const options = { skipPreview: step.skipPreview, token: step.token, env: step.env };
            if (step.killDuringCreateOf !== undefined) {
                const held = step.killDuringCreateOf;
                const killedEngine = await killedDuringCreate(
                    engine.store,
                    held,
                    (signal) => engine.run(step.command, step.items ?? [], { ...options, signal }).then((run) => run.result.exitCode),
                    () => new StateFile(engine.stateFile, PASSPHRASE).load(),
                );
                const killedCli = await killedDuringCreate(
                    cli.store,
                    held,
                    (signal) => cli.run(step.command, step.items ?? [], { ...options, signal }).then((run) => run.exitCode),
                    () => cli.state(),
                );
                assert.equal(killedEngine.exitCode, 128 + 9, `${where}: test/engine's run was not killed`);
                assert.equal(killedCli.exitCode, 128 + 9, `${where}: the CLI was not killed`);
                assert.deepEqual(comparable(killedEngine.during), comparable(killedCli.during), `${where}: the state while the create was held`);
                continue;
            }
            // Each against a store of its own: both at once.
            const [byEngine, byCli] = step.config
                ? await Promise.all([engine.runWithConfig(step.command, step.config, options), cli.runWithConfig(step.command, step.config, options)])
                : await Promise.all([engine.run(step.command, step.items ?? [], options), cli.run(step.command, step.items ?? [], options)]);
            const [ours, theirs] = [fromEngine(byEngine), fromCli(byCli)];
            assert.equal(ours.exitCode, theirs.exitCode, `${where}: exit status\n--- CLI:\n${theirs.text}\n--- test/engine:\n${ours.text}`);
            // A refresh reads its resources in parallel: its steps and calls come in the order the reads finish.
            if (step.command === "refresh") {
                assert.deepEqual([...ours.steps].sort(), [...theirs.steps].sort(), `${where}: steps\n--- CLI:\n${theirs.text}`);
                assert.deepEqual([...ours.calls].sort(), [...theirs.calls].sort(), `${where}: provider calls`);
            } else {
                assert.deepEqual(ours.steps, theirs.steps, `${where}: steps\n--- CLI:\n${theirs.text}`);
                assert.deepEqual(ours.hostCalls, theirs.hostCalls, `${where}: provider calls`);
            }
            assert.deepEqual(ours.state, theirs.state, `${where}: state`);
            for (const words of step.says ?? []) {
                assert.ok(theirs.text.includes(words), `${where}: the CLI does not say ${JSON.stringify(words)}:\n${theirs.text}`);
                assert.ok(ours.text.includes(words), `${where}: test/engine does not say ${JSON.stringify(words)}:\n${ours.text}`);
            }
        }
        // The states compared above were read from the backend's file: they are what the CLI exports.
        assert.deepEqual(await cli.state(), await cli.exportedState(), "the state read from the backend's file is not what stack export --show-secrets prints");
    } finally {
        await Promise.all([engine.stop(), cli.stop()]);
    }
}
