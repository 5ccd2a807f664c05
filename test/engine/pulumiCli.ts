// The demo's path when the real `pulumi` CLI is on PATH (or PLATFORM_PULUMI_CLI names one): the same steps through
// the CLI, as test/cli runs it (CliStack: a file backend and the stack's config in a folder of its own, a passphrase,
// the program under @pulumi/pulumi's own language runtime server).
import * as fs from "fs";
import * as path from "path";
import { CliStack } from "../cli/cliStack";
import type { Command } from "./operation";

export function findPulumiCli(): string | undefined {
    if (process.env.PLATFORM_PULUMI_CLI) return path.resolve(process.env.PLATFORM_PULUMI_CLI);
    for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
        const candidate = path.join(dir, "pulumi");
        if (dir && fs.existsSync(candidate)) return candidate;
    }
    return undefined;
}

const COMMAND_ARGS: Record<Command, string[]> = {
    preview: ["preview"],
    up: ["up", "--yes"],
    refresh: ["refresh", "--yes"],
    destroy: ["destroy", "--yes"],
    cancel: ["cancel", "--yes"],
};

/** One stack of `programDir` under the CLI at `cli`, for a sequence of commands; dispose() removes it. */
export class PulumiCliStack {
    private constructor(private readonly stack: CliStack) {}

    static async create(cli: string, programDir: string, stack: string, env: NodeJS.ProcessEnv): Promise<PulumiCliStack> {
        return new PulumiCliStack(await CliStack.create({ example: programDir, bin: path.dirname(cli), stack, env }));
    }

    /** Sets the config given (what changed since the last run) and runs the command; its lines go to `print`. */
    async run(command: Command, config: Record<string, string>, skipPreview: boolean, print: (line: string) => void): Promise<number> {
        await this.stack.setConfig(config);
        const skip = skipPreview && command !== "preview" ? ["--skip-preview"] : [];
        const result = await this.stack.run([...COMMAND_ARGS[command], ...skip], { onLine: print });
        return result.exitCode;
    }

    dispose(): void {
        this.stack.dispose();
    }
}
