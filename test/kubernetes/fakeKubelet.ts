// The kubelet of the real control plane's one Node, played by the test: it binds the namespace's pending pods to that
// Node, and runs each pod as one of the emulator's brokers (the pod's ordinal is the broker id). A pod's container
// "starts" by starting its broker and listening on the pod's address (its ports forward to the emulator's management
// API and gateway), then its status says Running as a kubelet writes it (phase, podIPs, conditions, container
// statuses); it is Ready once its broker reports ready (every partition it was given installed: a broker that is not
// yet a member never is). A pod being deleted stops its broker (a broker stopped while it still holds replicas is
// recorded as lost) and is removed. A pod can be held waiting (ImagePullBackOff) or crashed.
import * as net from "net";
import type { EmulatorControl } from "../emulator";
import type { ControlPlane } from "./controlPlane";
import type { KubeClient, WatchEvent } from "./kubeClient";

export const NODE_NAME = "platform-node";

interface PodObject {
    metadata: { name: string; uid: string; labels?: Record<string, string>; deletionTimestamp?: string };
    spec: { nodeName?: string; containers: { name: string; image?: string; ports?: { name?: string; containerPort: number }[] }[] };
}

interface RunningPod {
    uid: string;
    ordinal: number;
    ip: string;
    servers: net.Server[];
    startedAt: string;
    ready?: boolean;
    crashed?: boolean;
}

export interface KubeletTargets {
    /** Where a container port of this name forwards to (the emulator's management API and gateway). */
    ports: Record<string, { host: string; port: number }>;
}

export class FakeKubelet {
    /** Brokers stopped while they still held replicas. */
    readonly lost: { brokerId: number; partitions: number[] }[] = [];
    /** Ordinals whose containers never start: the reason and message their status gives. */
    readonly neverStarting = new Map<number, { reason: string; message: string }>();
    private readonly pods = new Map<string, RunningPod>();
    private readonly handled = new Set<string>();
    private readonly stops: (() => void)[] = [];
    private readonly api: KubeClient;
    private work: Promise<unknown> = Promise.resolve();

    constructor(
        private readonly plane: ControlPlane,
        private readonly namespace: string,
        private readonly emulator: EmulatorControl,
        private readonly targets: KubeletTargets,
        private readonly startMs = 50,
    ) {
        this.api = plane.admin;
    }

    async start(): Promise<void> {
        const node = await this.api.get(`/api/v1/nodes/${NODE_NAME}`);
        if (node.status === 404) {
            await this.api.must("POST", "/api/v1/nodes", { apiVersion: "v1", kind: "Node", metadata: { name: NODE_NAME } });
            await this.api.must("PATCH", `/api/v1/nodes/${NODE_NAME}/status`, {
                status: {
                    conditions: [{ type: "Ready", status: "True", reason: "KubeletReady", lastHeartbeatTime: now(), lastTransitionTime: now() }],
                    addresses: [{ type: "InternalIP", address: `${this.plane.podNetwork}.1` }],
                },
            });
        }
        this.stops.push(this.api.watch(`/api/v1/namespaces/${this.namespace}/pods`, (event) => this.serially(() => this.onPod(event))));
        this.stops.push(this.emulator.onChange(() => this.serially(() => this.refreshReadiness())));
    }

    /** The container of this ordinal's pod crashes for good: its broker stops, the pod waits in CrashLoopBackOff. */
    crash(ordinal: number): Promise<void> {
        return this.serially(async () => {
            const pod = [...this.pods.entries()].find(([, running]) => running.ordinal === ordinal);
            if (pod === undefined) return;
            const [name, running] = pod;
            running.crashed = true;
            this.stopBroker(running);
            await this.patchStatus(name, running, { waiting: { reason: "CrashLoopBackOff", message: "back-off restarting failed container" } });
        });
    }

    async stop(): Promise<void> {
        for (const stop of this.stops) stop();
        await this.work.catch(() => undefined);
        for (const running of this.pods.values()) for (const server of running.servers) server.close();
    }

    private serially(step: () => Promise<void>): Promise<void> {
        const next = this.work.then(step, step);
        this.work = next.catch(() => undefined);
        return next;
    }

    private async onPod(event: WatchEvent): Promise<void> {
        const pod = event.object as unknown as PodObject;
        const name = pod.metadata.name;
        const running = this.pods.get(name);
        if (event.type === "DELETED") {
            if (running?.uid === pod.metadata.uid) this.forget(name, running);
            return;
        }
        if (pod.metadata.deletionTimestamp !== undefined) {
            if (running?.uid === pod.metadata.uid) this.forget(name, running);
            if (this.handled.has(`delete ${pod.metadata.uid}`)) return;
            this.handled.add(`delete ${pod.metadata.uid}`);
            // As a kubelet does once the container stopped: a terminal phase, then the deletion at once (a bound pod
            // in a running phase would stay Terminating).
            await this.api.request("PATCH", `/api/v1/namespaces/${this.namespace}/pods/${name}/status`, { status: { phase: "Succeeded" } });
            await this.api.request("DELETE", `/api/v1/namespaces/${this.namespace}/pods/${name}?gracePeriodSeconds=0`);
            return;
        }
        if (pod.spec.nodeName === undefined) {
            if (this.handled.has(`bind ${pod.metadata.uid}`)) return;
            this.handled.add(`bind ${pod.metadata.uid}`);
            await this.api.must("POST", `/api/v1/namespaces/${this.namespace}/pods/${name}/binding`, {
                apiVersion: "v1",
                kind: "Binding",
                metadata: { name },
                target: { apiVersion: "v1", kind: "Node", name: NODE_NAME },
            });
            return;
        }
        if (running?.uid === pod.metadata.uid || this.handled.has(`start ${pod.metadata.uid}`)) return;
        this.handled.add(`start ${pod.metadata.uid}`);
        const ordinal = ordinalOf(pod);
        const held = this.neverStarting.get(ordinal);
        const ip = `${this.plane.podNetwork}.${10 + ordinal}`;
        if (held !== undefined) {
            await this.patchStatus(name, { uid: pod.metadata.uid, ordinal, ip, servers: [], startedAt: now() }, { waiting: held });
            return;
        }
        await new Promise((resolve) => setTimeout(resolve, this.startMs));
        const servers = await Promise.all(
            pod.spec.containers
                .flatMap((container) => container.ports ?? [])
                .flatMap((port) => {
                    const target = port.name === undefined ? undefined : this.targets.ports[port.name];
                    return target === undefined ? [] : [forward(ip, port.containerPort, target)];
                }),
        );
        const started: RunningPod = { uid: pod.metadata.uid, ordinal, ip, servers, startedAt: now() };
        this.pods.set(name, started);
        this.emulator.startBroker(ordinal);
        started.ready = this.brokerReady(ordinal);
        await this.patchStatus(name, started, {});
    }

    private async refreshReadiness(): Promise<void> {
        for (const [name, running] of this.pods) {
            if (running.crashed) continue;
            const ready = this.brokerReady(running.ordinal);
            if (ready === running.ready) continue;
            running.ready = ready;
            await this.patchStatus(name, running, {});
        }
    }

    private brokerReady(ordinal: number): boolean {
        const replicas = this.emulator.replicasOf(ordinal);
        return replicas !== undefined && replicas.length > 0 && replicas.every((replica) => replica.installed);
    }

    private forget(name: string, running: RunningPod): void {
        this.pods.delete(name);
        if (!running.crashed) this.stopBroker(running);
        for (const server of running.servers) server.close();
    }

    private stopBroker(running: RunningPod): void {
        const held = this.emulator.replicasOf(running.ordinal) ?? [];
        if (held.length > 0) this.lost.push({ brokerId: running.ordinal, partitions: held.map((replica) => replica.partitionId).sort((a, b) => a - b) });
        this.emulator.stopBroker(running.ordinal);
    }

    /** The status a kubelet writes: Running (Ready or not), or a container that waits. */
    private async patchStatus(name: string, pod: RunningPod, how: { waiting?: { reason: string; message: string } }): Promise<void> {
        const waiting = how.waiting;
        const ready = waiting === undefined && pod.ready === true;
        const condition = (type: string, status: boolean) => ({ type, status: status ? "True" : "False", lastTransitionTime: now() });
        await this.api.request("PATCH", `/api/v1/namespaces/${this.namespace}/pods/${name}/status`, {
            status: {
                phase: waiting?.reason === "ImagePullBackOff" ? "Pending" : "Running",
                hostIP: `${this.plane.podNetwork}.1`,
                podIP: pod.ip,
                podIPs: [{ ip: pod.ip }],
                startTime: pod.startedAt,
                conditions: [condition("PodScheduled", true), condition("Initialized", true), condition("ContainersReady", ready), condition("Ready", ready)],
                containerStatuses: [
                    {
                        name: "broker",
                        image: "camunda/camunda:8.9.16",
                        imageID: "",
                        ready,
                        started: waiting === undefined,
                        restartCount: waiting?.reason === "CrashLoopBackOff" ? 1 : 0,
                        state: waiting === undefined ? { running: { startedAt: pod.startedAt } } : { waiting },
                    },
                ],
            },
        });
    }
}

function ordinalOf(pod: PodObject): number {
    const index = pod.metadata.labels?.["apps.kubernetes.io/pod-index"] ?? /-(\d+)$/.exec(pod.metadata.name)?.[1];
    return Number(index);
}

/** Listens on ip:port and forwards each connection to the target (the emulator on loopback). */
function forward(ip: string, port: number, target: { host: string; port: number }): Promise<net.Server> {
    const server = net.createServer((socket) => {
        const upstream = net.connect(target.port, target.host);
        socket.pipe(upstream).pipe(socket);
        const close = () => {
            socket.destroy();
            upstream.destroy();
        };
        socket.on("error", close);
        upstream.on("error", close);
    });
    return new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, ip, () => resolve(server));
    });
}

function now(): string {
    return new Date().toISOString().replace(/\.\d+Z$/, "Z");
}
