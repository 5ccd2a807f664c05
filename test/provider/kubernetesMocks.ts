// Pulumi mocks for the Kubernetes ordering component: no cluster, no engine. Records what the engine would
// receive for each resource (its dependencies, provider and options come from the request the mock monitor
// is handed, not from the mock arguments), answers the StatefulSet read with a chosen replica count, and can
// hold a resource's registration open to show what waits for it.
import * as pulumi from "@pulumi/pulumi";
import type { ReadResourceRequest, RegisterResourceRequest } from "@pulumi/pulumi/proto/resource_pb";

type Callback = (error: Error | null, response?: unknown) => void;

/** The parts of the runtime's MockMonitor this harness wraps. */
interface MockMonitorHooks {
    registerResource(request: RegisterResourceRequest, callback: Callback): unknown;
    readResource(request: ReadResourceRequest, callback: Callback): unknown;
}

export interface Registration {
    kind: "register" | "read";
    type: string;
    name: string;
    /** URNs of every resource this one waits for, as the engine receives them. */
    dependencies: string[];
    /** Provider reference (`urn::id`), empty for the default provider. */
    provider: string;
    retainOnDelete: boolean;
    /** The inputs as the mock saw them (plain values). */
    inputs: Record<string, unknown>;
}

/** ClusterScale, as a dynamic resource type. */
export const CLUSTER_SCALE = "pulumi-nodejs:dynamic/platform:ClusterScale";
export const STATEFUL_SET = "kubernetes:apps/v1:StatefulSet";
export const STATEFUL_SET_PATCH = "kubernetes:apps/v1:StatefulSetPatch";

export class KubernetesMocks {
    /** Registrations by resource name, in the order the engine received them. */
    readonly registrations = new Map<string, Registration>();
    /** "request:<name>" when the engine receives a resource, "done:<name>" when the engine has finished it. */
    readonly events: string[] = [];
    private readonly liveReplicas = new Map<string, number>();
    private readonly holds = new Map<string, Promise<void>>();

    async install(): Promise<void> {
        await pulumi.runtime.setMocks(
            {
                newResource: (args) => this.newResource(args),
                call: (args) => {
                    throw new Error(`unexpected invoke ${args.token}`);
                },
            },
            "platform",
            "test",
            false,
        );
        const monitor = pulumi.runtime.getMonitor() as unknown as MockMonitorHooks;
        const registerResource = monitor.registerResource.bind(monitor);
        monitor.registerResource = (request, callback) => {
            this.record(
                "register",
                request.getType(),
                request.getName(),
                request.getDependenciesList(),
                request.getProvider(),
                request.getRetainondelete() ?? false,
            );
            return registerResource(request, callback);
        };
        const readResource = monitor.readResource.bind(monitor);
        monitor.readResource = (request, callback) => {
            this.record("read", request.getType(), request.getName(), request.getDependenciesList(), request.getProvider(), false);
            return readResource(request, callback);
        };
    }

    /** The StatefulSet named `statefulSet` (in any namespace) reads as having `replicas`. */
    setLiveReplicas(statefulSet: string, replicas: number): void {
        this.liveReplicas.set(statefulSet, replicas);
    }

    /** Holds the named resource unfinished until the returned function is called. */
    hold(name: string): () => void {
        let release!: () => void;
        this.holds.set(name, new Promise<void>((resolve) => (release = resolve)));
        return release;
    }

    registration(name: string): Registration {
        const found = this.registrations.get(name);
        if (!found) throw new Error(`no resource named ${name} was registered (have: ${[...this.registrations.keys()].join(", ")})`);
        return found;
    }

    /** Resolves once the engine has received the named resource. */
    async requested(name: string): Promise<void> {
        while (!this.events.includes(`request:${name}`)) await nextTurn();
    }

    private record(kind: Registration["kind"], type: string, name: string, dependencies: string[], provider: string, retainOnDelete: boolean): void {
        this.registrations.set(name, { kind, type, name, dependencies, provider, retainOnDelete, inputs: {} });
        this.events.push(`request:${name}`);
    }

    private async newResource(args: pulumi.runtime.MockResourceArgs): Promise<pulumi.runtime.MockResourceResult> {
        const registration = this.registrations.get(args.name);
        if (registration) registration.inputs = args.inputs;
        await this.holds.get(args.name);
        this.events.push(`done:${args.name}`);
        return { id: args.id || `${args.name}-id`, state: this.stateOf(args) };
    }

    private stateOf(args: pulumi.runtime.MockResourceArgs): Record<string, unknown> {
        if (args.type === STATEFUL_SET && args.id) {
            const [namespace, name] = args.id.split("/");
            const replicas = this.liveReplicas.get(name);
            if (replicas === undefined) throw new Error(`StatefulSet ${args.id} does not exist`);
            return { metadata: { namespace, name }, spec: { replicas } };
        }
        if (args.type === CLUSTER_SCALE) {
            // Plausible ClusterScale outputs: the layout reached, as the provider would report it.
            const brokerIds = (args.inputs.brokers as number[] | undefined) ?? Array.from({ length: Number(args.inputs.brokerCount) }, (_, i) => i);
            return {
                ...args.inputs,
                changeId: 7,
                topologyVersion: 12,
                topology: brokerIds.map((id) => ({ id, state: "ACTIVE", partitions: [] })),
                plannedChanges: [],
                partitionCount: args.inputs.partitionCount ?? 3,
                replicationFactor: args.inputs.replicationFactor ?? 3,
            };
        }
        return args.inputs;
    }
}

/** Lets every callback that is ready run: promise jobs first, then one turn of the event loop. */
export function nextTurn(): Promise<void> {
    return new Promise((resolve) => setImmediate(resolve));
}

/** Gives every registration that is not held time to reach the engine: the mocks do no I/O, so whatever can
 *  run gets there within a few turns of the event loop; 50 leaves a wide margin. */
export async function settle(turns = 50): Promise<void> {
    for (let i = 0; i < turns; i++) await nextTurn();
}

/** The value of an output. Rejects as soon as the runtime reports an unhandled rejection (e.g. a failed
 *  closure serialization, which otherwise leaves outputs pending forever). */
export function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
    let onRejection: ((reason: unknown) => void) | undefined;
    const failure = new Promise<never>((_, reject) => {
        onRejection = (reason) => reject(reason instanceof Error ? reason : new Error(String(reason)));
        process.on("unhandledRejection", onRejection);
    });
    const value = new Promise<T>((resolve) => output.apply((v) => resolve(v)));
    return Promise.race([value, failure]).finally(() => {
        if (onRejection) process.off("unhandledRejection", onRejection);
    });
}

/** The resource name in a URN (its last `::` part). */
export function nameOf(urn: string): string {
    return urn.split("::").pop() ?? urn;
}
