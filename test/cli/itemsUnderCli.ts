// test/engine's items fixture program (test/engine/fixtures/items) under the real CLI, against an ItemStore of its
// own: what engineParity.spec.ts compares with test/engine's run of the same program and sequence. A run answers what
// a user sees (exit status, steps, the CLI's lines) and what the engine leaves (the state, as stack export has it),
// with the provider calls the store journaled.
import { ItemStore, JournalEntry } from "../engine/fixtures/itemStore";
import { ITEMS_PROGRAM, ItemSpec, TOKEN, byHost } from "../engine/fixtures/itemsProgram";
import type { StackState } from "../engine/stateFile";
import { CliStack, stepsOf } from "./cliStack";
import { stackStateOf } from "./cliState";

export interface CliItemsRun {
    exitCode: number;
    stdout: string;
    stderr: string;
    /** `op name` of every resource step the CLI reported, the stack's and the default provider's left out. */
    steps: string[];
    calls: string[];
    hostCalls: string[][];
    entries: JournalEntry[];
    state: StackState;
}

export type ItemsCommand = "preview" | "up" | "refresh" | "destroy" | "cancel";

export interface CliItemsRunOptions {
    skipPreview?: boolean;
    token?: string;
    env?: NodeJS.ProcessEnv;
    signal?: AbortSignal;
}

export class ItemsUnderCli {
    readonly store = new ItemStore(TOKEN);
    private stack?: CliStack;
    private config: Record<string, string> = {};

    constructor(private readonly version: string) {}

    async start(): Promise<void> {
        const url = await this.store.start();
        this.config = { itemsUrl: url };
        this.stack = await CliStack.create({ example: ITEMS_PROGRAM, version: this.version, config: this.config, secrets: { apiToken: TOKEN } });
        this.config.apiToken = TOKEN;
    }

    async stop(): Promise<void> {
        await this.store.stop();
        this.stack?.dispose();
    }

    run(command: ItemsCommand, items: ItemSpec[] = [], options: CliItemsRunOptions = {}): Promise<CliItemsRun> {
        return this.runWithConfig(command, { items: JSON.stringify(items) }, options);
    }

    async runWithConfig(command: ItemsCommand, config: Record<string, string>, options: CliItemsRunOptions = {}): Promise<CliItemsRun> {
        const stack = this.stack!;
        const token = options.token ?? TOKEN;
        const changed = Object.fromEntries(Object.entries(config).filter(([key, value]) => this.config[key] !== value));
        await stack.setConfig(changed, this.config.apiToken !== token ? { apiToken: token } : {});
        Object.assign(this.config, config, { apiToken: token });
        const mark = this.store.journal.length;
        const args = [command, ...(command === "preview" ? [] : ["--yes"]), ...(options.skipPreview && command !== "preview" ? ["--skip-preview"] : [])];
        const result = await stack.run(args, { env: options.env, signal: options.signal });
        const calls = this.store.ops(mark);
        return {
            exitCode: result.exitCode,
            stdout: result.stdout,
            stderr: result.stderr,
            steps: stepsOf(result),
            calls,
            hostCalls: byHost(calls),
            entries: this.store.journal.slice(mark),
            state: await this.state(),
        };
    }

    /** The state as the backend holds it now (a run may still be under way), read from its file. */
    state(): Promise<StackState> {
        return Promise.resolve(stackStateOf(this.stack!.savedState()));
    }

    /** The state as `pulumi stack export --show-secrets` prints it. */
    async exportedState(): Promise<StackState> {
        return stackStateOf(await this.stack!.exportState(true));
    }
}
