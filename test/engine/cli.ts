// Runs one Pulumi operation on a program through the real dynamic-provider host, without the Pulumi CLI:
//
//   npx ts-node test/engine/cli.ts <preview|up|refresh|destroy> <programDir> --stack NAME
//       [--config key=value ...] [--secret key=value ...] [--state FILE]
//
// Secret values in the state file are encrypted with PULUMI_CONFIG_PASSPHRASE. Exit code 0 on success, 1 when the
// operation failed, 2 for a usage error. When started by runPulumi (with an IPC channel), the result is also sent
// to the parent.
import { COMMANDS, Command, OperationResult, runOperation } from "./operation";

export interface CliArguments {
    command: Command;
    programDir: string;
    stack: string;
    config: Record<string, string>;
    secrets: Record<string, string>;
    stateFile?: string;
}

export const USAGE = "usage: cli.ts <preview|up|refresh|destroy> <programDir> --stack NAME [--config key=value ...] [--secret key=value ...] [--state FILE]";

export function parseArguments(argv: readonly string[]): CliArguments {
    const positional: string[] = [];
    const config: Record<string, string> = {};
    const secrets: Record<string, string> = {};
    let stack: string | undefined;
    let stateFile: string | undefined;
    for (let i = 0; i < argv.length; i++) {
        const arg = argv[i];
        const value = () => {
            const next = argv[++i];
            if (next === undefined) throw new Error(`${arg} needs a value`);
            return next;
        };
        switch (arg) {
            case "--stack":
                stack = value();
                break;
            case "--state":
                stateFile = value();
                break;
            case "--config":
            case "--secret": {
                const pair = value();
                const at = pair.indexOf("=");
                if (at <= 0) throw new Error(`${arg} takes key=value`);
                (arg === "--config" ? config : secrets)[pair.slice(0, at)] = pair.slice(at + 1);
                break;
            }
            default:
                if (arg.startsWith("--")) throw new Error(`unknown option ${arg}`);
                positional.push(arg);
        }
    }
    const [command, programDir, ...extra] = positional;
    if (!COMMANDS.includes(command as Command)) throw new Error(`unknown command ${JSON.stringify(command ?? "")}`);
    if (!programDir) throw new Error("the program directory is required");
    if (extra.length > 0) throw new Error(`unexpected arguments: ${extra.join(" ")}`);
    if (!stack) throw new Error("--stack is required");
    return { command: command as Command, programDir, stack, config, secrets, ...(stateFile ? { stateFile } : {}) };
}

/** The message runPulumi receives over IPC. */
export interface CliResultMessage {
    kind: "pulumi-engine-result";
    result: OperationResult;
}

async function main(): Promise<number> {
    let args: CliArguments;
    try {
        args = parseArguments(process.argv.slice(2));
    } catch (error) {
        process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
        return 2;
    }
    const result = await runOperation({
        ...args,
        passphrase: process.env.PULUMI_CONFIG_PASSPHRASE,
        writeOut: (line) => process.stdout.write(`${line}\n`),
        writeErr: (line) => process.stderr.write(`${line}\n`),
    });
    if (process.send) {
        const message: CliResultMessage = { kind: "pulumi-engine-result", result };
        await new Promise<void>((resolve) => process.send!(message, undefined, {}, () => resolve()));
    }
    return result.ok ? 0 : 1;
}

if (require.main === module) {
    void main().then((code) => {
        // The program may leave timers or handles behind; the operation is over once the output is flushed.
        process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
    });
}
