// `npm run demo`: the root Pulumi program (examples/local) previewed and applied against the local emulator.
// A cluster of 3 brokers, 6 partitions and replication factor 3 grows to 5 brokers and 8 partitions: the
// preview shows the cluster's own plan, up shows progress while the change runs, the gateway then reports
// the new topology, and a second preview shows nothing left to do. Then the same cluster is reached through a
// Kubernetes API server (a stand-in with its own CA and a kubeconfig), as a pipeline outside the cluster would:
// switching the route sends nothing to the cluster. Everything started here is stopped.
//
// Where the real `pulumi` CLI is on PATH it runs the same steps instead of test/engine.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { GatewayClient } from "../../sdk";
import { RunningEmulator, startEmulator } from "../emulator";
import { Command, runPulumi } from ".";
import { findPulumiCli, runWithPulumiCli } from "./pulumiCli";
import { startKubernetesRoute } from "../support/kubeconfig";

const ROOT = path.resolve(__dirname, "..", "..");
const STACK = "demo";
const TARGET = { brokerCount: 5, partitionCount: 8, replicationFactor: 3 };
const NEW_BROKERS = [3, 4];

/** One Pulumi command of the demo; `skipPreview`: `pulumi up --skip-preview` (right after a preview of its own). */
type Step = (command: Command, options?: { config?: Record<string, string>; skipPreview?: boolean }) => Promise<number>;

async function main(): Promise<number> {
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "platform-demo-"));
    const emulator = await startEmulator({ brokers: 3, partitions: 6, replicationFactor: 3, partitionScaling: true, opMs: 150 });
    try {
        const config = {
            "platform:managementUrl": emulator.managementUrl,
            "platform:gatewayUrl": emulator.gatewayUrl,
            brokerCount: String(TARGET.brokerCount),
            partitionCount: String(TARGET.partitionCount),
            replicationFactor: String(TARGET.replicationFactor),
        };
        const env = { PULUMI_CONFIG_PASSPHRASE: "demo", PLATFORM_TOKEN_CACHE_DIR: path.join(workDir, "tokens") };
        const cli = findPulumiCli();
        const run: Step = cli
            ? (command, { config: given = config, skipPreview } = {}) =>
                  runWithPulumiCli({ cli, command, skipPreview, programDir: ROOT, stack: STACK, config: given, env, workDir, print })
            : (command, { config: given = config, skipPreview } = {}) => runThroughEngine(command, given, env, path.join(workDir, "state.json"), skipPreview);

        heading(`Local platform: 3 brokers, 6 partitions, replication factor 3 (management API ${emulator.managementUrl})`);
        heading(`pulumi preview: the plan for ${TARGET.brokerCount} brokers and ${TARGET.partitionCount} partitions`);
        if ((await run("preview")) !== 0) return 1;

        heading(`Starting brokers ${NEW_BROKERS.join(", ")}, as a StatefulSet scale-up would, so they run before they are named`);
        for (const id of NEW_BROKERS) await emulator.control.startBroker(id);

        heading("pulumi up --skip-preview (the preview above showed the plan): apply the change and wait for it to complete");
        if ((await run("up", { skipPreview: true })) !== 0) return 1;

        heading("Topology reported by the gateway");
        await printTopology(emulator);

        heading("pulumi preview again: nothing left to do");
        if ((await run("preview")) !== 0) return 1;

        heading("The same cluster through a Kubernetes API server (a stand-in with its own CA), as a pipeline outside the cluster reaches it");
        const route = await startKubernetesRoute(emulator.managementUrl, emulator.gatewayUrl);
        try {
            print(`kubernetes: namespace ${route.input.namespace}, service ${route.input.service}, kubeconfig ${route.input.kubeconfig}`);
            const throughKubernetes = { ...config, kubernetes: JSON.stringify(route.input) };
            heading("pulumi up through the Kubernetes route (its preview, then the update): a settings update, nothing sent to the cluster");
            if ((await run("up", { config: throughKubernetes })) !== 0) return 1;
            heading("pulumi preview through the Kubernetes route: nothing left to do");
            return await run("preview", { config: throughKubernetes });
        } finally {
            await route.stop();
        }
    } finally {
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
