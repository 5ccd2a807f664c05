// `npm run demo`: the root Pulumi program (examples/local) previewed and applied against the local emulator, its
// brokers the pods of a StatefulSet behind a Kubernetes API server stand-in (its own CA, a kubeconfig for it), the
// management API reached directly, as a pipeline inside the cluster (or behind a port-forward) reaches a real one. A cluster of 3 brokers, 6 partitions and replication factor 3
// grows to 5 brokers and 8 partitions: the preview shows the cluster's own plan and the StatefulSet's replica move, up
// starts the new pods before the change names them and shows progress, the gateway then reports the new topology, and
// a second preview shows nothing left to do. Then it shrinks back to 3 brokers: the change first, the pods stop after
// it. Everything started here is stopped.
//
// Where the real `pulumi` CLI is on PATH (or PLATFORM_PULUMI_CLI names one) it runs the same steps instead of
// test/engine (examples/local, the root project's program, as test/cli runs programs).
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { GatewayClient } from "../../sdk";
import { RunningEmulator, startEmulator } from "../emulator";
import { Command, runPulumi } from ".";
import { PulumiCliStack, findPulumiCli } from "./pulumiCli";
import { BROKER_STATEFUL_SET, BrokerPods, OPERATOR_RULES, startBrokerPods } from "../support/brokerPods";

const ROOT = path.resolve(__dirname, "..", "..");
const STACK = "demo";
const TARGET = { brokerCount: 5, partitionCount: 8, replicationFactor: 3 };

/** One Pulumi command of the demo; `skipPreview`: `pulumi up --skip-preview` (right after a preview of its own). */
type Step = (command: Command, options?: { config?: Record<string, string>; skipPreview?: boolean }) => Promise<number>;

async function main(): Promise<number> {
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "platform-demo-"));
    const emulator = await startEmulator({ brokers: 3, partitions: 6, replicationFactor: 3, partitionScaling: true, opMs: 150 });
    const pods = await startBrokerPods(emulator.control, {
        replicas: 3,
        startMs: 300,
        terminationMs: 300,
        proxy: { managementUrl: emulator.managementUrl, gatewayUrl: emulator.gatewayUrl },
    });
    const cleanups: (() => void)[] = [];
    try {
        const kubernetes = pods.route(pods.user(OPERATOR_RULES, "demo").kubeconfig);
        const config = {
            kubernetes: JSON.stringify(kubernetes),
            // The management API reached directly, as a pipeline inside the cluster (or behind a port-forward) reaches it.
            "platform:managementUrl": emulator.managementUrl,
            "platform:gatewayUrl": emulator.gatewayUrl,
            brokerCount: String(TARGET.brokerCount),
            partitionCount: String(TARGET.partitionCount),
            replicationFactor: String(TARGET.replicationFactor),
        };
        const env = { PULUMI_CONFIG_PASSPHRASE: "demo", PLATFORM_TOKEN_CACHE_DIR: path.join(workDir, "tokens") };
        const cli = findPulumiCli();
        const cliStack = cli === undefined ? undefined : await PulumiCliStack.create(cli, path.join(ROOT, "examples", "local"), STACK, env);
        cleanups.push(() => cliStack?.dispose());
        const run: Step = cliStack
            ? (command, { config: given = config, skipPreview } = {}) => cliStack.run(command, given, skipPreview === true, print)
            : (command, { config: given = config, skipPreview } = {}) => runThroughEngine(command, given, env, path.join(workDir, "state.json"), skipPreview);
        print(cli === undefined ? "(test/engine: no pulumi CLI on PATH)" : `(the pulumi CLI at ${cli})`);

        heading("Local platform: 3 brokers, 6 partitions, replication factor 3, run as the pods of StatefulSet platform-zeebe");
        print(
            `Kubernetes API server stand-in ${pods.server.url}: namespace ${kubernetes.namespace}, StatefulSet ${kubernetes.statefulSet}, kubeconfig ${kubernetes.kubeconfig}; management API ${emulator.managementUrl}`,
        );
        printPods(pods);
        heading(`pulumi preview: the plan for ${TARGET.brokerCount} brokers and ${TARGET.partitionCount} partitions`);
        if ((await run("preview")) !== 0) return 1;

        heading("pulumi up --skip-preview (the preview above showed the plan): the new pods first, then the change, with progress");
        if ((await run("up", { skipPreview: true })) !== 0) return 1;

        heading("Topology reported by the gateway");
        await printTopology(emulator);
        printPods(pods);

        heading("pulumi preview again: nothing left to do");
        if ((await run("preview")) !== 0) return 1;

        heading("Back to 3 brokers: pulumi up (its preview, then the update): the change first, the pods stop once it completed");
        if ((await run("up", { config: { ...config, brokerCount: "3" } })) !== 0) return 1;
        printPods(pods);
        if (pods.workloads.lost.length > 0) throw new Error(`replicas were lost: ${JSON.stringify(pods.workloads.lost)}`);
        return 0;
    } finally {
        for (const cleanup of cleanups) cleanup();
        await pods.stop();
        await emulator.close();
        fs.rmSync(workDir, { recursive: true, force: true });
    }
}

async function runThroughEngine(
    command: Command,
    config: Record<string, string>,
    env: NodeJS.ProcessEnv,
    stateFile: string,
    skipPreview: boolean | undefined,
): Promise<number> {
    const result = await runPulumi({
        command,
        programDir: ROOT,
        stack: STACK,
        config,
        env,
        stateFile,
        skipPreview,
        timeoutMs: 600_000,
        onLine: (_stream, line) => print(line.replace(/^\[host:(stdout|stderr)\] /, "    ")),
    });
    return result.exitCode;
}

async function printTopology(emulator: RunningEmulator): Promise<void> {
    const topology = await new GatewayClient({ gatewayUrl: emulator.gatewayUrl }).getTopology();
    print(
        `clusterSize ${topology.clusterSize}, partitionsCount ${topology.partitionsCount}, replicationFactor ${topology.replicationFactor}, lastCompletedChangeId ${topology.lastCompletedChangeId ?? "none"}`,
    );
    for (const broker of [...topology.brokers].sort((a, b) => a.nodeId - b.nodeId)) {
        const partitions = [...broker.partitions].sort((a, b) => a.partitionId - b.partitionId).map((p) => `${p.partitionId}${p.role === "leader" ? "*" : ""}`);
        print(`  broker ${broker.nodeId}: partitions ${partitions.join(" ")}`);
    }
    print("  (* = leader)");
}

function printPods(pods: BrokerPods): void {
    const names = (pods.workloads.podList() as { metadata: { name: string } }[]).map((pod) => pod.metadata.name);
    print(`pods of StatefulSet ${BROKER_STATEFUL_SET}: ${names.join(", ")}`);
}

function heading(text: string): void {
    print("");
    print(`=== ${text}`);
}

function print(line: string): void {
    process.stdout.write(`${line}\n`);
}

main().then(
    (code) => process.exit(code),
    (error) => {
        process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
    },
);
