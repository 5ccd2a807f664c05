// The one setup of the Kubernetes tier's suites: the emulator (through ClusterScaleFixture, the real provider host in
// processes of its own), a real control plane for the file, and, for each test, a namespace of its own with the chart's
// objects and the test's kubelet. (A control plane takes about 4 s and 5 CPU-seconds to start; a namespace, a moment.)
import { ClusterScaleFixture, type RunOptions, type ScaleArgs } from "../provider/clusterScaleSupport";
import { NAMESPACE, STATEFUL_SET, type WorkloadSpec, deployBrokers } from "./brokerWorkload";
import { type ControlPlane, startControlPlane } from "./controlPlane";
import { FakeKubelet } from "./fakeKubelet";

export interface RealCluster {
    fixture: ClusterScaleFixture;
    plane: ControlPlane;
    /** The test's own namespace, where everything of the chart is. */
    namespace: string;
    kubelet: FakeKubelet;
    /** The ClusterScale `kubernetes` input: the StatefulSet, the pipeline's kubeconfig. */
    route: Record<string, unknown>;
    /** A run of the fixture with the management API and gateway at the emulator's URLs. */
    run(command: "preview" | "up" | "refresh", args: ScaleArgs, options?: RunOptions): ReturnType<ClusterScaleFixture["run"]>;
    replicas(): Promise<number>;
    /** Names of the namespace's pods or claims, those being deleted left out. */
    names(kind: "pods" | "persistentvolumeclaims"): Promise<string[]>;
    waitReady(count: number): Promise<void>;
    /** Until the pods of these ordinals are gone (the kubelet stopped their brokers). */
    waitPodsGone(...ordinals: number[]): Promise<void>;
}

export function useRealCluster(): { start(spec?: Partial<WorkloadSpec>): Promise<RealCluster> } {
    const fixture = new ClusterScaleFixture("process");
    let plane: ControlPlane | undefined;
    let kubelet: FakeKubelet | undefined;
    let namespaces = 0;
    before(() => fixture.start());
    after(async () => {
        await fixture.stop();
        await plane?.stop();
    });
    afterEach(async () => {
        await kubelet?.stop();
        kubelet = undefined;
    });
    return {
        async start(spec: Partial<WorkloadSpec> = {}) {
            fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
            const shared = (plane ??= await startControlPlane());
            const namespace = `${NAMESPACE}-${++namespaces}`;
            const management = new URL(fixture.emulator.managementUrl);
            const gateway = new URL(fixture.emulator.gatewayUrl);
            const testKubelet = new FakeKubelet(shared, namespace, fixture.emulator.control, {
                ports: {
                    management: { host: management.hostname, port: Number(management.port) },
                    gateway: { host: gateway.hostname, port: Number(gateway.port) },
                },
            });
            kubelet = testKubelet;
            const { route } = await deployBrokers(shared, { replicas: 3, ...spec, namespace });
            await testKubelet.start();
            const sts = `/apis/apps/v1/namespaces/${namespace}/statefulsets/${STATEFUL_SET}`;
            const cluster: RealCluster = {
                fixture,
                plane: shared,
                namespace,
                kubelet: testKubelet,
                route,
                run: (command, args, options = {}) =>
                    fixture.run(command, args, { ...options, config: { "platform:gatewayUrl": fixture.emulator.gatewayUrl, ...options.config } }),
                replicas: async () => ((await shared.admin.must("GET", `${sts}/scale`)).spec as { replicas: number }).replicas,
                names: async (kind) =>
                    (
                        (await shared.admin.must("GET", `/api/v1/namespaces/${namespace}/${kind}`)).items as {
                            metadata: { name: string; deletionTimestamp?: string };
                        }[]
                    )
                        .filter((item) => item.metadata.deletionTimestamp === undefined)
                        .map((item) => item.metadata.name)
                        .sort(),
                waitReady: async (count) => {
                    for (let i = 0; i < 300; i++) {
                        const status = (await shared.admin.must("GET", sts)).status as { readyReplicas?: number };
                        if ((status.readyReplicas ?? 0) >= count) return;
                        await new Promise((resolve) => setTimeout(resolve, 100));
                    }
                    throw new Error(`the StatefulSet never had ${count} ready pods:\n${shared.logs()}`);
                },
                waitPodsGone: async (...ordinals) => {
                    const gone = (names: string[]) => ordinals.every((ordinal) => !names.includes(`${STATEFUL_SET}-${ordinal}`));
                    for (let i = 0; i < 300; i++) {
                        const pods = ((await shared.admin.must("GET", `/api/v1/namespaces/${namespace}/pods`)).items as { metadata: { name: string } }[]).map(
                            (pod) => pod.metadata.name,
                        );
                        if (gone(pods)) return;
                        await new Promise((resolve) => setTimeout(resolve, 100));
                    }
                    throw new Error(`the pods of ordinals ${ordinals.join(", ")} never went away`);
                },
            };
            // The emulator starts with brokers 0-2: those pods are Ready; others only once their brokers are members.
            // A StatefulSet the test makes itself (byProgram) is waited for by the test.
            if (spec.firstOrdinal === undefined && !spec.byProgram) await cluster.waitReady(Math.min(3, spec.replicas ?? 3));
            return cluster;
        },
    };
}
