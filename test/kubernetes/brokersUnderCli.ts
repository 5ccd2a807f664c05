// The brokers' StatefulSet among its other managers, for real: a stack of programs/brokers under the real CLI, its
// StatefulSet applied by Pulumi's Kubernetes provider plugin (built by `npm run tools:kubernetes`, found on PATH as the
// CLI finds a plugin there) to a real control plane whose kubelet the test plays, and ClusterScale keeping the count
// against the emulator behind the pods. What each step is checked by: the pods (by uid: none stopped or started but
// those the count asks for), `spec.replicas`, who owns it in `managedFields`, and the brokers stopped while they held
// replicas (none may be).
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { type RunningEmulator, startEmulator } from "../emulator";
import { type CliResult, CliStack } from "../cli/cliStack";
import { PULUMI_SDK_MATCH } from "../tools/pulumi";
import { KUBERNETES_PROVIDER_VERSION } from "../tools/kubernetesProvider";
import { toolDir } from "../tools/toolsDir";
import { CHART, NAMESPACE, STATEFUL_SET, deployBrokers } from "./brokerWorkload";
import { type ControlPlane, startControlPlane } from "./controlPlane";
import { FakeKubelet } from "./fakeKubelet";

const PROGRAM = path.join(__dirname, "programs", "brokers");
const STS = `/apis/apps/v1/namespaces/${NAMESPACE}/statefulsets/${STATEFUL_SET}`;

export type Deployer = "chart" | "statefulSet";

export interface BrokersStack {
    stack: CliStack;
    plane: ControlPlane;
    kubelet: FakeKubelet;
    emulator: RunningEmulator;
    /** The chart folder the program deploys (a copy of the test chart the test may bump). */
    chartPath: string;
    run(command: "preview" | "up" | "refresh", config?: Record<string, string>, ...extra: string[]): Promise<CliResult>;
    replicas(): Promise<number>;
    /** The broker pods by name, each with its uid (a pod stopped and started again has another). */
    pods(): Promise<Record<string, string>>;
    /** Who owns spec.replicas: `manager (subresource)` per managedFields entry that holds it. */
    replicaOwners(): Promise<string[]>;
}

/**
 * An emulator of a 3-broker cluster, a real control plane, and its kubelet (not yet started) running the namespace's
 * broker pods as the emulator's brokers.
 */
export async function startBrokerPlatform(): Promise<{ emulator: RunningEmulator; plane: ControlPlane; kubelet: FakeKubelet }> {
    const emulator = await startEmulator({ brokers: 3, partitions: 3, replicationFactor: 3, opMs: 10 });
    const plane = await startControlPlane();
    const management = new URL(emulator.managementUrl);
    const gateway = new URL(emulator.gatewayUrl);
    const kubelet = new FakeKubelet(plane, NAMESPACE, emulator.control, {
        ports: {
            management: { host: management.hostname, port: Number(management.port) },
            gateway: { host: gateway.hostname, port: Number(gateway.port) },
        },
    });
    return { emulator, plane, kubelet };
}

/** The folder holding Pulumi's Kubernetes provider plugin, to put first on a stack's PATH. */
export function kubernetesPluginBin(): string {
    const bin = path.join(toolDir("pulumi-kubernetes", `v${KUBERNETES_PROVIDER_VERSION}`), "bin");
    if (!fs.existsSync(path.join(bin, "pulumi-resource-kubernetes"))) {
        throw new Error(`no pulumi-resource-kubernetes in ${bin}: run \`npm run tools:kubernetes\` (needs Go)`);
    }
    return bin;
}

/** A story's clusters and stacks, each torn down after its test. */
export function useBrokersUnderCli(): { start(deployer: Deployer, config?: Record<string, string>): Promise<BrokersStack> } {
    const started: { stack: CliStack; plane: ControlPlane; kubelet: FakeKubelet; emulator: RunningEmulator }[] = [];
    afterEach(async () => {
        for (const { stack, kubelet, plane, emulator } of started.splice(0)) {
            stack.dispose();
            await kubelet.stop();
            await plane.stop();
            await emulator.close();
        }
    });
    return {
        async start(deployer, config = {}) {
            const { emulator, plane, kubelet } = await startBrokerPlatform();
            const { route } = await deployBrokers(plane, { replicas: 3, byProgram: true });
            await kubelet.start();
            const stack = await CliStack.create({
                example: PROGRAM,
                version: PULUMI_SDK_MATCH,
                config: {
                    deployer,
                    kubeconfig: plane.adminKubeconfigFile,
                    managementUrl: emulator.managementUrl,
                    gatewayUrl: emulator.gatewayUrl,
                    brokerCount: "3",
                    ...config,
                },
                secrets: { route: JSON.stringify(route) },
            });
            started.push({ stack, plane, kubelet, emulator });
            const chartPath = path.join(stack.workDir, "chart");
            fs.cpSync(CHART, chartPath, { recursive: true });
            await stack.setConfig({ chartPath });
            stack.addEnv({ PATH: `${kubernetesPluginBin()}${path.delimiter}${process.env.PATH ?? ""}` });
            return brokersStack(stack, { plane, kubelet, emulator }, chartPath);
        },
    };
}

/** A stack of a broker program on the platform, with the readings the stories check. */
export function brokersStack(
    stack: CliStack,
    platform: { plane: ControlPlane; kubelet: FakeKubelet; emulator: RunningEmulator },
    chartPath: string,
): BrokersStack {
    const { plane } = platform;
    return {
        stack,
        ...platform,
        chartPath,
        async run(command, change = {}, ...extra) {
            await stack.setConfig(change);
            return stack.run(command === "preview" ? ["preview", ...extra] : [command, "--yes", ...extra]);
        },
        replicas: async () => ((await plane.admin.must("GET", `${STS}/scale`)).spec as { replicas: number }).replicas,
        pods: async () => {
            const list = (await plane.admin.must("GET", `/api/v1/namespaces/${NAMESPACE}/pods`)).items as {
                metadata: { name: string; uid: string; deletionTimestamp?: string };
            }[];
            return Object.fromEntries(list.filter((pod) => !pod.metadata.deletionTimestamp).map((pod) => [pod.metadata.name, pod.metadata.uid]));
        },
        replicaOwners: async () => {
            const sts = await plane.admin.must("GET", STS);
            const fields = (sts.metadata as { managedFields: { manager: string; subresource?: string; fieldsV1?: { "f:spec"?: Record<string, unknown> } }[] })
                .managedFields;
            return fields
                .filter((entry) => entry.fieldsV1?.["f:spec"]?.["f:replicas"] !== undefined)
                .map((entry) => `${entry.manager}${entry.subresource ? ` (${entry.subresource})` : ""}`);
        },
    };
}

/** Until `count` broker pods run and are Ready (the kubelet's doing, a moment after the controller's). */
export async function readyPods(cluster: BrokersStack, count: number): Promise<void> {
    for (let i = 0; i < 300; i++) {
        const status = (await cluster.plane.admin.must("GET", STS)).status as { readyReplicas?: number };
        if ((status.readyReplicas ?? 0) >= count) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.fail(`the StatefulSet never had ${count} ready pods`);
}

/** An up of `config` preceded by its preview, both passing; then the count, the pods (by uid) and no broker lost. */
export async function step(
    cluster: BrokersStack,
    what: string,
    config: Record<string, string>,
    brokers: number,
): Promise<{ preview: CliResult; up: CliResult }> {
    const before = await cluster.pods();
    const preview = await cluster.run("preview", config);
    assert.equal(preview.exitCode, 0, `${what}: the preview failed:\n${preview.lines.join("\n")}`);
    // The preview just passed with this very config: up applies it without a preview pass of its own.
    const up = await cluster.run("up", {}, "--skip-preview");
    assert.equal(up.exitCode, 0, `${what}: the up failed:\n${up.lines.join("\n")}`);
    await readyPods(cluster, brokers);
    assert.equal(await cluster.replicas(), brokers, `${what}: spec.replicas`);
    const after = await cluster.pods();
    const ordinals = Array.from({ length: brokers }, (_, ordinal) => ordinal);
    assert.deepEqual(
        Object.keys(after).sort(),
        ordinals.map((ordinal) => `camunda-zeebe-${ordinal}`),
        `${what}: the broker pods`,
    );
    for (const [name, uid] of Object.entries(before)) {
        if (name in after) assert.equal(after[name], uid, `${what}: pod ${name} was stopped and started again`);
    }
    assert.deepEqual(cluster.kubelet.lost, [], `${what}: a broker was stopped while it held replicas`);
    return { preview, up };
}
