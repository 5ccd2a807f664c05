// The brokers' StatefulSet as the Kubernetes stand-in serves it: a pod's life is its broker's. Raising `replicas` creates
// the pods of the new ordinals (and their claims, unless left over), whose containers start and start their brokers;
// lowering it marks the highest ordinals for deletion, stops their brokers and removes the pods after a grace period
// (claims stay unless the retention policy says Delete when scaled). A broker stopped while it still holds replicas is
// recorded as lost replicas, so a test can fail a wrong order. With podManagementPolicy OrderedReady (the API's
// default; the platform's chart sets Parallel) the controller acts on one pod at a time: it creates a pod only once
// every lower ordinal runs and is Ready, and removes the highest pod first, the next once it is gone.
//
// Readiness follows the engine (BrokerHealthCheckService at its latest release): a broker reports ready once every
// partition it was given is installed, and a broker that is not yet a member has none, so its pod runs (container
// started) without becoming Ready until its first partitions are installed. Readiness then stays (it is never reset).
//
// Every change bumps one resourceVersion counter and is kept as a watch event, so a watch from a resourceVersion sees
// exactly what changed after it.

export interface BrokerHost {
    startBroker(id: number): void;
    stopBroker(id: number): void;
    /** The broker's replicas, each installed or not; undefined when it is no member of the cluster. */
    replicasOf(id: number): { partitionId: number; installed: boolean }[] | undefined;
    onChange(listener: () => void): () => void;
}

export interface WorkloadOptions {
    namespace: string;
    /** The StatefulSet's name; pods are `<name>-<ordinal>`, claims `<template>-<name>-<ordinal>`. */
    statefulSet: string;
    /** The volume claim template's name. */
    claimTemplate: string;
    replicas: number;
    /** From a pod's creation to its container running (its broker started). */
    startMs: number;
    /** From a pod marked for deletion to its removal (its broker stopped when the grace period starts). */
    terminationMs: number;
    /** persistentVolumeClaimRetentionPolicy.whenScaled. */
    whenScaled: "Retain" | "Delete";
    /** spec.podManagementPolicy (Parallel unless given, as the platform's chart sets it). */
    podManagementPolicy?: "Parallel" | "OrderedReady";
    /** spec.ordinals.start: the first pod's ordinal (0 unless given; the platform's chart leaves it out). */
    firstOrdinal?: number;
    /**
     * The volume claim template's spec as the API server gives it (ReadWriteOnce, 1Gi unless given; a real API server
     * also fills in volumeMode: Filesystem).
     */
    claimTemplateSpec?: object;
}

export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED";
export type ObjectKind = "Pod" | "PersistentVolumeClaim" | "StatefulSet";

export interface WatchEvent {
    resourceVersion: number;
    kind: ObjectKind;
    type: WatchEventType;
    object: object;
}

interface PodState {
    ordinal: number;
    uid: string;
    createdAt: number;
    resourceVersion: number;
    container: { state: "creating" } | { state: "running"; startedAt: number } | { state: "waiting"; reason: string; message: string };
    readySince?: number;
    deletingSince?: number;
    timer?: NodeJS.Timeout;
}

interface ClaimState {
    name: string;
    uid: string;
    createdAt: number;
    resourceVersion: number;
    deletingSince?: number;
}

/** Another writer of `spec.replicas` (a Helm release, say), as managedFields list it. */
export interface FieldManager {
    manager: string;
    operation: "Apply" | "Update";
}

export interface LostReplicas {
    brokerId: number;
    partitions: number[];
}

const EVENTS_KEPT = 10_000;

export class BrokerWorkloads {
    private resourceVersion = 1;
    private replicas: number;
    private generation = 1;
    private statefulSetVersion = 1;
    private readonly pods = new Map<number, PodState>();
    private readonly claims = new Map<string, ClaimState>();
    private readonly events: WatchEvent[] = [];
    private readonly watchers = new Set<(event: WatchEvent) => void>();
    private readonly unsubscribe: () => void;
    private uidCounter = 0;
    /** The StatefulSet's identity: another after recreateStatefulSet. */
    private statefulSetUid: string;
    private createdAt = Date.now();
    /** The StatefulSet leaves out metadata.uid and creationTimestamp (an answer the client must bear). */
    leaveOutIdentity = false;
    private readonly firstOrdinal: number;
    /** Replicas of brokers that were stopped while they still held them. */
    readonly lost: LostReplicas[] = [];
    /** Ordinals whose containers never start (the image cannot be pulled): the pod waits forever. */
    readonly neverStarting = new Map<number, { reason: string; message: string }>();
    /** Ordinals whose pods the controller cannot create (a ResourceQuota on pods is exhausted, say). */
    readonly neverCreated = new Set<number>();
    /** Ordinals whose containers crashed for good (CrashLoopBackOff): their brokers are down until the pod is removed. */
    private readonly crashed = new Set<number>();
    /** Labels and annotations besides the stand-in's own (a GitOps controller's tracking marks). */
    readonly extraLabels: Record<string, string> = {};
    readonly extraAnnotations: Record<string, string> = {};
    /** Managers in managedFields that own other fields than spec.replicas (a controller that applied the StatefulSet). */
    readonly otherManagers: FieldManager[] = [];
    /** Other managers that also own `spec.replicas` (shown in managedFields) until a write through /scale takes it over. */
    readonly otherReplicaManagers: FieldManager[] = [];
    /** The field managers of the replica writes through /scale. */
    private readonly replicaWriters = new Set<string>();
    /** When each ordinal's container last started (epoch ms), and every replica write: what the bench times. */
    readonly containerStarts = new Map<number, number>();
    readonly replicaWrites: { at: number; replicas: number }[] = [];

    constructor(
        private readonly host: BrokerHost,
        readonly options: WorkloadOptions,
    ) {
        this.replicas = options.replicas;
        this.statefulSetUid = `sts-${options.statefulSet}`;
        this.firstOrdinal = options.firstOrdinal ?? 0;
        const now = Date.now();
        for (let ordinal = this.firstOrdinal; ordinal < this.firstOrdinal + options.replicas; ordinal++) {
            this.claims.set(this.claimName(ordinal), { name: this.claimName(ordinal), uid: this.uid(), createdAt: now, resourceVersion: this.resourceVersion });
            const pod: PodState = {
                ordinal,
                uid: this.uid(),
                createdAt: now,
                resourceVersion: this.resourceVersion,
                container: { state: "running", startedAt: now },
            };
            this.pods.set(ordinal, pod);
            if (this.installedAll(ordinal)) pod.readySince = now;
        }
        this.unsubscribe = host.onChange(() => this.refreshReadiness());
    }

    close(): void {
        this.unsubscribe();
        for (const pod of this.pods.values()) clearTimeout(pod.timer);
        this.watchers.clear();
    }

    get currentVersion(): number {
        return this.resourceVersion;
    }

    podName(ordinal: number): string {
        return `${this.options.statefulSet}-${ordinal}`;
    }

    claimName(ordinal: number): string {
        return `${this.options.claimTemplate}-${this.options.statefulSet}-${ordinal}`;
    }

    // ---- the StatefulSet and its scale ----

    statefulSet(): object {
        const { namespace, statefulSet, claimTemplate, whenScaled } = this.options;
        const ready = [...this.pods.values()].filter((pod) => pod.readySince !== undefined && pod.deletingSince === undefined).length;
        const writers = [...this.replicaWriters].map((manager): FieldManager => ({ manager, operation: "Update" }));
        const managers = [...this.otherReplicaManagers, ...writers].map(({ manager, operation }) => ({
            manager,
            operation,
            apiVersion: "apps/v1",
            fieldsType: "FieldsV1",
            fieldsV1: { "f:spec": { "f:replicas": {} } },
        }));
        return {
            apiVersion: "apps/v1",
            kind: "StatefulSet",
            metadata: {
                name: statefulSet,
                namespace,
                ...(this.leaveOutIdentity ? {} : { uid: this.statefulSetUid, creationTimestamp: iso(this.createdAt) }),
                resourceVersion: String(this.statefulSetVersion),
                generation: this.generation,
                labels: { "app.kubernetes.io/component": "zeebe-broker", ...this.extraLabels },
                ...(Object.keys(this.extraAnnotations).length > 0 ? { annotations: { ...this.extraAnnotations } } : {}),
                managedFields: [
                    ...this.otherManagers.map(({ manager, operation }) => ({
                        manager,
                        operation,
                        apiVersion: "apps/v1",
                        fieldsType: "FieldsV1",
                        fieldsV1: { "f:metadata": { "f:labels": {} }, "f:spec": { "f:template": {} } },
                    })),
                    ...managers,
                ],
            },
            spec: {
                replicas: this.replicas,
                serviceName: `${statefulSet}-headless`,
                podManagementPolicy: this.options.podManagementPolicy ?? "Parallel",
                ...(this.options.firstOrdinal !== undefined ? { ordinals: { start: this.options.firstOrdinal } } : {}),
                selector: { matchLabels: { "app.kubernetes.io/component": "zeebe-broker" } },
                template: {
                    metadata: { labels: { "app.kubernetes.io/component": "zeebe-broker" } },
                    spec: { containers: [{ name: "zeebe", image: "camunda/camunda:8.9.16" }] },
                },
                volumeClaimTemplates: [
                    {
                        metadata: { name: claimTemplate },
                        spec: this.options.claimTemplateSpec ?? { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
                    },
                ],
                persistentVolumeClaimRetentionPolicy: { whenDeleted: "Retain", whenScaled },
            },
            status: {
                observedGeneration: this.generation,
                replicas: this.pods.size,
                readyReplicas: ready,
                currentReplicas: this.pods.size,
                availableReplicas: ready,
            },
        };
    }

    scale(): object {
        const { namespace, statefulSet } = this.options;
        return {
            apiVersion: "autoscaling/v1",
            kind: "Scale",
            metadata: { name: statefulSet, namespace, uid: this.statefulSetUid, resourceVersion: String(this.statefulSetVersion) },
            spec: { replicas: this.replicas },
            status: { replicas: this.pods.size, selector: "app.kubernetes.io/component=zeebe-broker" },
        };
    }

    /** Another writer touched the StatefulSet: its resourceVersion moves on (a Helm upgrade, the controller's status). */
    touch(): void {
        this.statefulSetVersion = this.bump();
        this.emit("StatefulSet", "MODIFIED", this.statefulSet());
    }

    /** Sets `spec.replicas`; `expectedVersion` (the caller's resourceVersion) must be current when given. */
    setReplicas(replicas: number, expectedVersion?: string, fieldManager?: string): "conflict" | "ok" {
        if (expectedVersion !== undefined && expectedVersion !== String(this.statefulSetVersion)) return "conflict";
        if (fieldManager) {
            // An Update takes the field over: every other manager loses spec.replicas (seen with kube-apiserver 1.36,
            // helm's ownership gone after a /scale write: test/kubernetes/helm.spec.ts).
            this.otherReplicaManagers.length = 0;
            this.replicaWriters.clear();
            this.replicaWriters.add(fieldManager);
        }
        this.replicaWrites.push({ at: Date.now(), replicas });
        if (replicas !== this.replicas) this.generation++;
        this.replicas = replicas;
        this.statefulSetVersion = this.bump();
        this.emit("StatefulSet", "MODIFIED", this.statefulSet());
        this.reconcile();
        return "ok";
    }

    /**
     * The StatefulSet deleted with --cascade=orphan (its pods keep running) and created again by `creator` at `replicas`:
     * another uid, only the creator in managedFields, and the controller adopts the pods and stops those above the count.
     */
    recreateStatefulSet(replicas: number, creator: FieldManager): void {
        this.statefulSetUid = `sts-${this.options.statefulSet}-${this.uid()}`;
        this.createdAt = Date.now();
        this.replicaWriters.clear();
        this.otherReplicaManagers.splice(0, this.otherReplicaManagers.length, creator);
        this.generation = 1;
        this.replicas = replicas;
        this.statefulSetVersion = this.bump();
        this.emit("StatefulSet", "ADDED", this.statefulSet());
        this.reconcile();
    }

    // ---- what happens to pods from outside (a user, a node, the application) ----

    /** A pod deleted by someone (kubectl delete pod): its broker stops; the controller creates the pod again. */
    deletePod(ordinal: number): boolean {
        const pod = this.pods.get(ordinal);
        if (pod === undefined || pod.deletingSince !== undefined) return false;
        clearTimeout(pod.timer);
        pod.deletingSince = Date.now();
        this.host.stopBroker(ordinal);
        this.changed(pod);
        pod.timer = setTimeout(() => this.removePod(pod), this.options.terminationMs);
        return true;
    }

    /** The container restarts: its broker stops at once and starts again after the start time. */
    restartContainer(ordinal: number): boolean {
        const pod = this.pods.get(ordinal);
        if (pod === undefined || pod.deletingSince !== undefined || pod.container.state !== "running") return false;
        clearTimeout(pod.timer);
        this.host.stopBroker(ordinal);
        pod.container = { state: "creating" };
        this.changed(pod);
        pod.timer = setTimeout(() => this.startContainer(pod), this.options.startMs);
        return true;
    }

    /** The image can be pulled now: a container that waited for it (neverStarting) starts after the start time. */
    letStart(ordinal: number): void {
        this.neverStarting.delete(ordinal);
        const pod = this.pods.get(ordinal);
        if (pod === undefined || pod.deletingSince !== undefined || pod.container.state !== "waiting") return;
        pod.timer = setTimeout(() => this.startContainer(pod), this.options.startMs);
    }

    /** The container crashes for good (CrashLoopBackOff): its broker stays down until its pod is removed. */
    crash(ordinal: number): boolean {
        const pod = this.pods.get(ordinal);
        if (pod === undefined || pod.deletingSince !== undefined) return false;
        clearTimeout(pod.timer);
        this.crashed.add(ordinal);
        this.host.stopBroker(ordinal);
        pod.container = { state: "waiting", reason: "CrashLoopBackOff", message: "back-off 5m0s restarting failed container=zeebe" };
        this.changed(pod);
        return true;
    }

    // ---- pods ----

    podList(): object[] {
        return [...this.pods.values()].sort((a, b) => a.ordinal - b.ordinal).map((pod) => this.podJson(pod));
    }

    pod(name: string): object | undefined {
        const pod = [...this.pods.values()].find((candidate) => this.podName(candidate.ordinal) === name);
        return pod && this.podJson(pod);
    }

    // ---- claims ----

    claimList(): object[] {
        return [...this.claims.values()].sort((a, b) => a.name.localeCompare(b.name)).map((claim) => this.claimJson(claim));
    }

    claim(name: string): object | undefined {
        const claim = this.claims.get(name);
        return claim && this.claimJson(claim);
    }

    /** A claim of an ordinal with no pod, as an earlier layout or a restored backup leaves one. */
    leaveClaim(ordinal: number): void {
        const name = this.claimName(ordinal);
        if (this.claims.has(name)) return;
        const claim = { name, uid: this.uid(), createdAt: Date.now(), resourceVersion: this.bump() };
        this.claims.set(name, claim);
        this.emit("PersistentVolumeClaim", "ADDED", this.claimJson(claim));
    }

    /** Deletes a claim; a claim in use by a pod stays until the pod is gone (the pvc-protection finalizer). */
    deleteClaim(name: string): object | undefined {
        const claim = this.claims.get(name);
        if (!claim) return undefined;
        const inUse = [...this.pods.values()].some((pod) => this.claimName(pod.ordinal) === name);
        if (inUse) {
            claim.deletingSince ??= Date.now();
            claim.resourceVersion = this.bump();
            const json = this.claimJson(claim);
            this.emit("PersistentVolumeClaim", "MODIFIED", json);
            return json;
        }
        this.claims.delete(name);
        claim.resourceVersion = this.bump();
        const json = this.claimJson(claim);
        this.emit("PersistentVolumeClaim", "DELETED", json);
        return json;
    }

    // ---- watches ----

    /** Events of `kind` after `resourceVersion` (undefined: none, the caller lists first), then every new one. */
    watch(kind: ObjectKind, resourceVersion: number | undefined, listener: (event: WatchEvent) => void): () => void {
        if (resourceVersion !== undefined) for (const event of this.events) if (event.kind === kind && event.resourceVersion > resourceVersion) listener(event);
        const forward = (event: WatchEvent) => {
            if (event.kind === kind) listener(event);
        };
        this.watchers.add(forward);
        return () => this.watchers.delete(forward);
    }

    /** Whether a watch may start from this resourceVersion (older ones have been compacted away). */
    canWatchFrom(resourceVersion: number): boolean {
        return this.events.length < EVENTS_KEPT || this.events[0].resourceVersion <= resourceVersion + 1;
    }

    // ---- the controller ----

    /**
     * Creates the pods below `replicas` and marks those above it for deletion, as the StatefulSet controller does: all at
     * once (Parallel), or one at a time (OrderedReady).
     */
    private reconcile(): void {
        const ordered = this.options.podManagementPolicy === "OrderedReady";
        const now = Date.now();
        for (let ordinal = this.firstOrdinal; ordinal < this.firstOrdinal + this.replicas; ordinal++) {
            const existing = this.pods.get(ordinal);
            if (existing) {
                if (ordered && !this.runningAndReady(existing)) return; // the next ordinals wait for this one
                continue;
            }
            if (this.neverCreated.has(ordinal)) {
                if (ordered) return;
                continue;
            }
            if (!this.claims.has(this.claimName(ordinal))) {
                const claim = { name: this.claimName(ordinal), uid: this.uid(), createdAt: now, resourceVersion: this.bump() };
                this.claims.set(claim.name, claim);
                this.emit("PersistentVolumeClaim", "ADDED", this.claimJson(claim));
            }
            const pod: PodState = { ordinal, uid: this.uid(), createdAt: now, resourceVersion: this.bump(), container: { state: "creating" } };
            this.pods.set(ordinal, pod);
            this.emit("Pod", "ADDED", this.podJson(pod));
            pod.timer = setTimeout(() => this.startContainer(pod), this.options.startMs);
            if (ordered) return;
        }
        const excess = [...this.pods.values()].filter((pod) => pod.ordinal >= this.firstOrdinal + this.replicas).sort((a, b) => b.ordinal - a.ordinal);
        if (ordered && excess.some((pod) => pod.deletingSince !== undefined)) return; // one removal at a time
        for (const pod of ordered ? excess.slice(0, 1) : excess) {
            if (pod.deletingSince !== undefined) continue;
            clearTimeout(pod.timer);
            pod.deletingSince = now;
            this.stopBroker(pod.ordinal);
            this.changed(pod);
            pod.timer = setTimeout(() => this.removePod(pod), this.options.terminationMs);
        }
    }

    private runningAndReady(pod: PodState): boolean {
        return pod.container.state === "running" && pod.readySince !== undefined && pod.deletingSince === undefined;
    }

    private startContainer(pod: PodState): void {
        if (this.pods.get(pod.ordinal) !== pod || pod.deletingSince !== undefined || this.crashed.has(pod.ordinal)) return;
        const failure = this.neverStarting.get(pod.ordinal);
        if (failure) {
            pod.container = { state: "waiting", ...failure };
            this.changed(pod);
            return;
        }
        pod.container = { state: "running", startedAt: Date.now() };
        this.containerStarts.set(pod.ordinal, pod.container.startedAt);
        this.host.startBroker(pod.ordinal);
        if (this.installedAll(pod.ordinal)) pod.readySince = Date.now();
        this.changed(pod);
        if (pod.readySince !== undefined) this.reconcile(); // OrderedReady: the next ordinal may start
    }

    private stopBroker(ordinal: number): void {
        const held = this.host.replicasOf(ordinal) ?? [];
        if (held.length > 0) this.lost.push({ brokerId: ordinal, partitions: held.map((replica) => replica.partitionId).sort((a, b) => a - b) });
        this.host.stopBroker(ordinal);
    }

    private removePod(pod: PodState): void {
        if (this.pods.get(pod.ordinal) !== pod) return;
        this.pods.delete(pod.ordinal);
        this.crashed.delete(pod.ordinal);
        pod.resourceVersion = this.bump();
        this.emit("Pod", "DELETED", this.podJson(pod));
        const claim = this.claims.get(this.claimName(pod.ordinal));
        if (claim && (claim.deletingSince !== undefined || this.options.whenScaled === "Delete")) this.deleteClaim(claim.name);
        this.reconcile(); // scaled up again meanwhile: a new pod; or (OrderedReady) the next pod to remove
    }

    private refreshReadiness(): void {
        let becameReady = false;
        for (const pod of this.pods.values()) {
            if (pod.readySince !== undefined || pod.deletingSince !== undefined || pod.container.state !== "running") continue;
            if (!this.installedAll(pod.ordinal)) continue;
            pod.readySince = Date.now();
            this.changed(pod);
            becameReady = true;
        }
        if (becameReady) this.reconcile(); // OrderedReady: the next ordinal may start
    }

    /** A broker reports ready once it has partitions and every one of them is installed. */
    private installedAll(ordinal: number): boolean {
        const replicas = this.host.replicasOf(ordinal);
        return replicas !== undefined && replicas.length > 0 && replicas.every((replica) => replica.installed);
    }

    private changed(pod: PodState): void {
        pod.resourceVersion = this.bump();
        this.emit("Pod", "MODIFIED", this.podJson(pod));
    }

    private emit(kind: ObjectKind, type: WatchEventType, object: object): void {
        const event = { resourceVersion: this.resourceVersion, kind, type, object };
        this.events.push(event);
        if (this.events.length > EVENTS_KEPT) this.events.shift();
        for (const watcher of this.watchers) watcher(event);
    }

    private bump(): number {
        return ++this.resourceVersion;
    }

    private uid(): string {
        return `00000000-0000-4000-8000-${String(++this.uidCounter).padStart(12, "0")}`;
    }

    private podJson(pod: PodState): object {
        const { namespace, statefulSet } = this.options;
        const name = this.podName(pod.ordinal);
        const ready = pod.readySince !== undefined && pod.deletingSince === undefined;
        const started = pod.container.state === "running";
        const condition = (type: string, status: boolean) => ({
            type,
            status: status ? "True" : "False",
            lastTransitionTime: iso(pod.readySince ?? pod.createdAt),
        });
        const state =
            pod.container.state === "running"
                ? { running: { startedAt: iso(pod.container.startedAt) } }
                : {
                      waiting:
                          pod.container.state === "creating"
                              ? { reason: "ContainerCreating" }
                              : { reason: pod.container.reason, message: pod.container.message },
                  };
        return {
            apiVersion: "v1",
            kind: "Pod",
            metadata: {
                name,
                namespace,
                uid: pod.uid,
                resourceVersion: String(pod.resourceVersion),
                creationTimestamp: iso(pod.createdAt),
                ...(pod.deletingSince !== undefined
                    ? { deletionTimestamp: iso(pod.deletingSince), deletionGracePeriodSeconds: Math.ceil(this.options.terminationMs / 1000) }
                    : {}),
                labels: {
                    "app.kubernetes.io/component": "zeebe-broker",
                    "statefulset.kubernetes.io/pod-name": name,
                    "apps.kubernetes.io/pod-index": String(pod.ordinal),
                },
                ownerReferences: [{ apiVersion: "apps/v1", kind: "StatefulSet", name: statefulSet, uid: `sts-${statefulSet}`, controller: true }],
            },
            spec: {
                containers: [{ name: "zeebe", image: "camunda/camunda:8.9.16" }],
                volumes: [{ name: this.options.claimTemplate, persistentVolumeClaim: { claimName: this.claimName(pod.ordinal) } }],
            },
            status: {
                phase: started ? "Running" : "Pending",
                conditions: [condition("PodScheduled", true), condition("ContainersReady", ready), condition("Ready", ready)],
                containerStatuses: [{ name: "zeebe", image: "camunda/camunda:8.9.16", ready, started, restartCount: 0, state }],
            },
        };
    }

    private claimJson(claim: ClaimState): object {
        return {
            apiVersion: "v1",
            kind: "PersistentVolumeClaim",
            metadata: {
                name: claim.name,
                namespace: this.options.namespace,
                uid: claim.uid,
                resourceVersion: String(claim.resourceVersion),
                creationTimestamp: iso(claim.createdAt),
                ...(claim.deletingSince !== undefined ? { deletionTimestamp: iso(claim.deletingSince) } : {}),
                finalizers: ["kubernetes.io/pvc-protection"],
                labels: { "app.kubernetes.io/component": "zeebe-broker" },
            },
            spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } }, volumeName: `pv-${claim.uid.slice(-12)}` },
            status: { phase: "Bound", capacity: { storage: "1Gi" } },
        };
    }
}

function iso(epochMs: number): string {
    return new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, "Z");
}
