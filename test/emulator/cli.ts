// npm run emulator -- [--brokers N] [--partitions N] [--replication-factor N] [--partition-scaling]
//                     [--op-ms N] [--port N] [--release 8.9|8.8] [--kubernetes]
// Starts the emulator, prints one JSON line with its URLs, and serves until SIGTERM or SIGINT (or
// until its parent process exits). With --kubernetes, also a Kubernetes API server stand-in in front of it (HTTPS,
// its own CA) whose StatefulSet runs the brokers as pods, and a kubeconfig for a user with the rules ClusterScale
// needs in a temporary file (0600): the JSON line's `kubernetes` is a ClusterScale `kubernetes` input that reaches the
// emulator the way a cluster-internal service is reached and starts and stops the broker pods itself.

import { startEmulator } from "./index";
import { EmulatorOptions } from "./emulator";
import { RELEASES, Release } from "./settings";
import { OPERATOR_RULES, startBrokerPods } from "../support/brokerPods";

const USAGE =
    "usage: npm run emulator -- [--brokers N] [--partitions N] [--replication-factor N] [--partition-scaling] [--op-ms N] [--port N] [--release 8.9|8.8] [--kubernetes]";

const NUMERIC_FLAGS: Record<string, "brokers" | "partitions" | "replicationFactor" | "opMs" | "port"> = {
    "--brokers": "brokers",
    "--partitions": "partitions",
    "--replication-factor": "replicationFactor",
    "--op-ms": "opMs",
    "--port": "port",
};

export function parseArguments(args: string[]): EmulatorOptions & { kubernetes: boolean } {
    const options: EmulatorOptions & { kubernetes: boolean } = {
        brokers: 3,
        partitions: 3,
        replicationFactor: 3,
        partitionScaling: false,
        opMs: 200,
        port: 0,
        kubernetes: false,
    };
    for (let i = 0; i < args.length; i++) {
        const [flag, inline] = args[i].split(/=(.*)/s, 2);
        if (flag === "--partition-scaling" && inline === undefined) {
            options.partitionScaling = true;
            continue;
        }
        if (flag === "--kubernetes" && inline === undefined) {
            options.kubernetes = true;
            continue;
        }
        if (flag === "--release") {
            const release = inline ?? args[++i];
            if (!RELEASES.includes(release as Release)) throw new Error(`--release takes one of ${RELEASES.join(", ")}`);
            options.release = release as Release;
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
    let options: ReturnType<typeof parseArguments>;
    try {
        options = parseArguments(process.argv.slice(2));
    } catch (error) {
        process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
        process.exit(2);
    }
    const { kubernetes, ...settings } = options;
    const emulator = await startEmulator(settings);
    const { authUrl, baseUrl, managementUrl, gatewayUrl, controlUrl } = emulator;
    const pods = kubernetes
        ? await startBrokerPods(emulator.control, { replicas: settings.brokers ?? 3, startMs: 1000, terminationMs: 1000, proxy: { managementUrl, gatewayUrl } })
        : undefined;
    const route = pods?.route(pods.user(OPERATOR_RULES, "operator").kubeconfig);
    process.stdout.write(`${JSON.stringify({ authUrl, baseUrl, managementUrl, gatewayUrl, controlUrl, ...(route ? { kubernetes: route } : {}) })}\n`);

    let stopping = false;
    const stop = (): void => {
        if (stopping) return;
        stopping = true;
        Promise.all([emulator.close(), pods?.stop()]).then(
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
