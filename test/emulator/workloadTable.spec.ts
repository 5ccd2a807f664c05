// The stand-in's server-side printing: which requests get a Table, the pod's STATUS as kubectl shows it, and ages.
import { strict as assert } from "node:assert";
import { humanDuration, table, wantsTable } from "./workloadTable";

const KUBECTL_ACCEPT = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";
const CREATED = "2026-11-25T10:00:00Z";

function pod(state: object, extra: { deletionTimestamp?: string; ready?: boolean; phase?: string } = {}) {
    return {
        metadata: { name: "platform-zeebe-3", creationTimestamp: CREATED, ...(extra.deletionTimestamp ? { deletionTimestamp: extra.deletionTimestamp } : {}) },
        spec: { containers: [{ name: "zeebe" }] },
        status: { phase: extra.phase ?? "Pending", containerStatuses: [{ ready: extra.ready ?? false, restartCount: 2, state }] },
    };
}

function row(object: object, kind = "Pod"): string[] {
    const printed = table(kind, [object], "7", Date.parse(CREATED) + 75_000) as { rows: { cells: string[] }[] };
    return printed.rows[0].cells;
}

describe("emulator: the Kubernetes stand-in's Tables for kubectl", () => {
    it("answers a Table only when the Accept header asks for meta.k8s.io/v1 Tables", () => {
        assert.equal(wantsTable(KUBECTL_ACCEPT), true);
        assert.equal(wantsTable("application/json"), false);
        assert.equal(wantsTable("application/json;as=Table;v=v1beta1;g=meta.k8s.io"), false);
        assert.equal(wantsTable(undefined), false);
    });

    it("prints a pod's STATUS as kubectl shows it: the waiting reason, the phase, Terminating while deleted", () => {
        assert.deepEqual(row(pod({ waiting: { reason: "ImagePullBackOff" } })), ["platform-zeebe-3", "0/1", "ImagePullBackOff", "2", "75s"]);
        assert.deepEqual(row(pod({ waiting: { reason: "ContainerCreating" } })).slice(1, 3), ["0/1", "ContainerCreating"]);
        assert.deepEqual(row(pod({ running: {} }, { phase: "Running", ready: true })).slice(1, 3), ["1/1", "Running"]);
        assert.deepEqual(row(pod({ running: {} }, { phase: "Running", deletionTimestamp: CREATED })).slice(1, 3), ["0/1", "Terminating"]);
    });

    it("prints a StatefulSet's ready replicas against its desired count, and a claim's binding", () => {
        const statefulSet = { metadata: { name: "platform-zeebe", creationTimestamp: CREATED }, spec: { replicas: 4 }, status: { readyReplicas: 3 } };
        assert.deepEqual(row(statefulSet, "StatefulSet"), ["platform-zeebe", "3/4", "75s"]);
        const claim = {
            metadata: { name: "data-platform-zeebe-3", creationTimestamp: CREATED },
            spec: { accessModes: ["ReadWriteOnce"], volumeName: "pv-1" },
            status: { phase: "Bound", capacity: { storage: "1Gi" } },
        };
        assert.deepEqual(row(claim, "PersistentVolumeClaim"), ["data-platform-zeebe-3", "Bound", "pv-1", "1Gi", "RWO", "<unset>", "75s"]);
    });

    it("prints ages as the API server does", () => {
        const cases: [number, string][] = [
            [0, "0s"],
            [119, "119s"],
            [120, "2m"],
            [187, "3m7s"],
            [25 * 60 + 30, "25m"],
            [5 * 3600 + 12 * 60, "5h12m"],
            [30 * 3600, "30h"],
            [4 * 86_400 + 60, "4d"],
            [4 * 86_400 + 6 * 3600, "4d6h"],
            [12 * 86_400 + 6 * 3600, "12d"],
        ];
        for (const [seconds, printed] of cases) assert.equal(humanDuration(seconds * 1000), printed, `${seconds} s`);
    });
});
