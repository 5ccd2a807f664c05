// npm run emulator -- [--brokers N] [--partitions N] [--replication-factor N] [--partition-scaling]
//                     [--op-ms N] [--port N]
// Starts the emulator, prints one JSON line with its URLs, and serves until SIGTERM or SIGINT (or
// until its parent process exits).

import { startEmulator } from "./index";
import { EmulatorOptions } from "./emulator";

const USAGE = "usage: npm run emulator -- [--brokers N] [--partitions N] [--replication-factor N] [--partition-scaling] [--op-ms N] [--port N]";

const NUMERIC_FLAGS: Record<string, "brokers" | "partitions" | "replicationFactor" | "opMs" | "port"> = {
    "--brokers": "brokers",
    "--partitions": "partitions",
    "--replication-factor": "replicationFactor",
    "--op-ms": "opMs",
    "--port": "port",
};

export function parseArguments(args: string[]): EmulatorOptions {
    const options: EmulatorOptions = { brokers: 3, partitions: 3, replicationFactor: 3, partitionScaling: false, opMs: 200, port: 0 };
    for (let i = 0; i < args.length; i++) {
        const [flag, inline] = args[i].split(/=(.*)/s, 2);
        if (flag === "--partition-scaling" && inline === undefined) {
            options.partitionScaling = true;
            continue;
        }
        const key = NUMERIC_FLAGS[flag];
        if (!key) throw new Error(`unknown argument ${args[i]}`);
        const text = inline ?? args[++i];
        if (text === undefined || !/^\d+$/.test(text)) throw new Error(`${flag} needs a non-negative integer`);
        options[key] = Number(text);
    }
    return options;
}

async function main(): Promise<void> {
    let options: EmulatorOptions;
    try {
        options = parseArguments(process.argv.slice(2));
    } catch (error) {
        process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
        process.exit(2);
    }
    const emulator = await startEmulator(options);
    const { authUrl, baseUrl, managementUrl, gatewayUrl, controlUrl } = emulator;
    process.stdout.write(`${JSON.stringify({ authUrl, baseUrl, managementUrl, gatewayUrl, controlUrl })}\n`);

    let stopping = false;
    const stop = (): void => {
        if (stopping) return;
        stopping = true;
        emulator.close().then(
            () => process.exit(0),
            () => process.exit(1),
        );
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);

    // `npm run` puts a shell between npm and this process and does not pass SIGTERM on to it; stop
    // when the parent goes away instead of lingering as an orphan that holds the ports.
    const parent = process.ppid;
    setInterval(() => {
        if (process.ppid !== parent) stop();
    }, 500).unref();
}

if (require.main === module) {
    main().catch((error: unknown) => {
        process.stderr.write(`emulator failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
    });
}
