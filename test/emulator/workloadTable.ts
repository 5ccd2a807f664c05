// The API server's server-side printing: kubectl asks for a `meta.k8s.io/v1` Table (Accept `application/json;as=Table;
// v=v1;g=meta.k8s.io`) and prints its columns as they come, so `kubectl get pods` shows READY and STATUS only when the
// server fills them. The columns are those the API server prints for pods, StatefulSets and claims (priority 0 only),
// computed from the objects' JSON the way its printers compute them.

/** The fields of a pod, StatefulSet or claim that the columns read. */
interface PrintedObject {
    metadata: { name: string; creationTimestamp?: string; deletionTimestamp?: string };
    spec: { containers?: object[]; replicas?: number; volumeName?: string; accessModes?: string[]; storageClassName?: string };
    status?: {
        phase?: string;
        readyReplicas?: number;
        capacity?: { storage?: string };
        containerStatuses?: ContainerStatus[];
    };
}

interface ContainerStatus {
    ready: boolean;
    restartCount?: number;
    state?: { waiting?: { reason?: string }; terminated?: { reason?: string } };
}

interface Column {
    name: string;
    type: "string" | "integer";
    format?: "name";
    description: string;
}

const NAME: Column = { name: "Name", type: "string", format: "name", description: "Name must be unique within a namespace." };
const AGE: Column = { name: "Age", type: "string", description: "The time since the object was created." };

const COLUMNS: Record<string, Column[]> = {
    Pod: [
        NAME,
        { name: "Ready", type: "string", description: "The aggregate readiness state of this pod for accepting traffic." },
        { name: "Status", type: "string", description: "The aggregate status of the containers in this pod." },
        { name: "Restarts", type: "string", description: "The number of times the containers in this pod have been restarted." },
        AGE,
    ],
    StatefulSet: [NAME, { name: "Ready", type: "string", description: "Number of the pod with ready state" }, AGE],
    PersistentVolumeClaim: [
        NAME,
        { name: "Status", type: "string", description: "The phase of the claim." },
        { name: "Volume", type: "string", description: "The volume bound to the claim." },
        { name: "Capacity", type: "string", description: "The capacity of the bound volume." },
        { name: "Access Modes", type: "string", description: "The access modes of the claim." },
        { name: "StorageClass", type: "string", description: "The storage class of the claim." },
        AGE,
    ],
};

/** Whether the request's Accept header asks for a Table (kubectl's `get`, with or without `-w`). */
export function wantsTable(accept: string | undefined): boolean {
    return (accept ?? "").split(",").some((type) => {
        const parameters = type.split(";").map((part) => part.trim());
        return parameters.includes("as=Table") && parameters.includes("g=meta.k8s.io") && parameters.includes("v=v1");
    });
}

/** The Table of `objects` of one kind, each row with the object's metadata (kubectl's default `includeObject`). */
export function table(kind: string, objects: object[], resourceVersion: string, now = Date.now()): object {
    return {
        kind: "Table",
        apiVersion: "meta.k8s.io/v1",
        metadata: { resourceVersion },
        columnDefinitions: COLUMNS[kind].map((column) => ({ ...column, format: column.format ?? "", priority: 0 })),
        rows: (objects as PrintedObject[]).map((object) => ({
            cells: cells(kind, object, now),
            object: { kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata: object.metadata },
        })),
    };
}

function cells(kind: string, object: PrintedObject, now: number): string[] {
    const { name, creationTimestamp } = object.metadata;
    const age = creationTimestamp === undefined ? "<unknown>" : humanDuration(now - Date.parse(creationTimestamp));
    if (kind === "Pod") {
        const containers = object.status?.containerStatuses ?? [];
        const ready = containers.filter((container) => container.ready).length;
        const restarts = containers.reduce((sum, container) => sum + (container.restartCount ?? 0), 0);
        return [name, `${ready}/${object.spec.containers?.length ?? 0}`, podStatus(object, containers), String(restarts), age];
    }
    if (kind === "StatefulSet") return [name, `${object.status?.readyReplicas ?? 0}/${object.spec.replicas ?? 0}`, age];
    const { spec, status } = object;
    const phase = object.metadata.deletionTimestamp !== undefined ? "Terminating" : (status?.phase ?? "Pending");
    return [name, phase, spec.volumeName ?? "", status?.capacity?.storage ?? "", accessModes(spec.accessModes), spec.storageClassName ?? "<unset>", age];
}

/** The pod's phase, or the reason its container waits or ended, or Terminating while it is deleted (as kubectl shows). */
function podStatus(pod: PrintedObject, containers: ContainerStatus[]): string {
    let reason = pod.status?.phase ?? "Unknown";
    for (const container of containers) {
        const waiting = container.state?.waiting?.reason;
        const terminated = container.state?.terminated?.reason;
        if (waiting) reason = waiting;
        else if (terminated) reason = terminated;
    }
    return pod.metadata.deletionTimestamp !== undefined ? "Terminating" : reason;
}

function accessModes(modes: string[] | undefined): string {
    const short: Record<string, string> = { ReadWriteOnce: "RWO", ReadOnlyMany: "ROX", ReadWriteMany: "RWX", ReadWriteOncePod: "RWOP" };
    return (modes ?? []).map((mode) => short[mode] ?? mode).join(",");
}

/** An age as the API server prints it: 42s, 3m7s, 25m, 5h12m, 30h, 4d6h, 12d. */
export function humanDuration(milliseconds: number): string {
    const seconds = Math.max(0, Math.floor(milliseconds / 1000));
    const minutes = Math.floor(seconds / 60);
    const hours = Math.floor(minutes / 60);
    if (seconds < 120) return `${seconds}s`;
    if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
    if (minutes < 180) return `${minutes}m`;
    if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
    if (hours < 48) return `${hours}h`;
    const days = Math.floor(hours / 24);
    if (hours < 8 * 24 && hours % 24 !== 0) return `${days}d${hours % 24}h`;
    return `${days}d`;
}
