// The world a soak runs in: the emulator with partition scaling on, the Kubernetes stand-in whose StatefulSet runs the
// brokers as pods (reached through its service proxy, as a pipeline outside the cluster would), one stack of the
// ClusterScale fixture program, and what the soak reads back to check its invariants.

import { ClusterClient } from "../../sdk/cluster/clusterClient";
import type { ClusterState } from "../../sdk/schemas";
import { BrokerPods, OPERATOR_RULES, startBrokerPods } from "../support/brokerPods";
import { ClusterScaleFixture, RunOptions, ScaleArgs, ScaleRun } from "../provider/clusterScaleSupport";
import type { SoakLayout } from "./steps";

/** Where the soak starts: three brokers, three partitions, three replicas each. */
export const START = { brokers: 3, partitions: 3, replicationFactor: 3 };

export interface WorkloadView {
    replicas: number;
    /** Ordinals of pods whose containers run and that are not being deleted. */
    running: number[];
    claims: string[];
}

export class SoakWorld {
    private readonly fixture = new ClusterScaleFixture("in-process");
    private pods: BrokerPods | undefined;
    private kubeconfig = "";

    async start(): Promise<void> {
        await this.fixture.start();
        this.fixture.reset({ ...START, partitionScaling: true });
        this.pods = await startBrokerPods(this.fixture.emulator.control, {
            replicas: START.brokers,
            proxy: { managementUrl: this.fixture.emulator.managementUrl, gatewayUrl: this.fixture.emulator.gatewayUrl },
        });
        this.kubeconfig = this.pods.user(OPERATOR_RULES, "soak").kubeconfig;
    }

    async stop(): Promise<void> {
        await this.pods?.stop();
        await this.fixture.stop();
    }

    get control() {
        return this.fixture.emulator.control;
    }

    get workloads() {
        return this.stand().workloads;
    }

    get workloadApi() {
        const api = this.stand().server.workloadApi;
        if (api === undefined) throw new Error("the stand-in serves no workloads");
        return api;
    }

    /** One operation of the stack with this layout (in this process, or in processes of their own when it may be killed). */
    run(command: "preview" | "up" | "refresh", layout: SoakLayout, options: RunOptions & { timeoutSeconds?: number } = {}): Promise<ScaleRun> {
        const args: ScaleArgs = {
            brokerCount: layout.brokerCount,
            partitionCount: layout.partitionCount,
            // A force removal names no replication factor (the README: it cannot change one).
            ...(layout.force ? { force: true } : { replicationFactor: layout.replicationFactor }),
            ...(options.timeoutSeconds !== undefined ? { timeoutSeconds: options.timeoutSeconds } : {}),
            gatewayUrl: this.fixture.emulator.gatewayUrl,
            kubernetes: { namespace: "camunda", statefulSet: "platform-zeebe", volumesOfRemovedBrokers: layout.volumes, kubeconfig: this.kubeconfig },
        };
        return this.fixture.run(command, args, options);
    }

    cluster(): Promise<ClusterState> {
        return new ClusterClient({ managementUrl: this.fixture.emulator.managementUrl }).getCluster();
    }

    acceptedChanges(): number {
        return (this.control.state() as { acceptedChanges: number }).acceptedChanges;
    }

    workloadView(): WorkloadView {
        const workloads = this.workloads;
        const replicas = (workloads.scale() as { spec: { replicas: number } }).spec.replicas;
        const pods = workloads.podList() as {
            metadata: { name: string; deletionTimestamp?: string };
            status: { containerStatuses?: { started?: boolean }[] };
        }[];
        const running = pods
            .filter((pod) => pod.metadata.deletionTimestamp === undefined && pod.status.containerStatuses?.[0]?.started === true)
            .map((pod) => Number(/-(\d+)$/.exec(pod.metadata.name)![1]))
            .sort((a, b) => a - b);
        const claims = (workloads.claimList() as { metadata: { name: string } }[]).map((claim) => claim.metadata.name).sort();
        return { replicas, running, claims };
    }

    claimName(ordinal: number): string {
        return this.workloads.claimName(ordinal);
    }

    private stand(): BrokerPods {
        if (this.pods === undefined) throw new Error("the soak's world is not started");
        return this.pods;
    }
}
