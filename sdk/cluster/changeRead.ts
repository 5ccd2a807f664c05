// What a wait for a change reads from GET {basePath}: while that change runs, its progress alone; once it is not the
// one running (ended, superseded, not visible yet), the whole cluster state. A running change's poll decodes neither
// the brokers nor the operations but the running one, so a change of thousands of operations costs each poll little;
// an answer that fails the light reading is decoded whole, whose error names the field.

import type { DecodeResult } from "../http/request";
import { ClusterState, Operation, changeProgressSchema, clusterStateSchema, decoder, epochMsOf, operationSchema } from "../schemas";

export type ChangeRead = { running: RunningChange } | { cluster: ClusterState };

/** The change waited for, as one poll saw it running. */
export interface RunningChange {
    /** completedAt of each completed operation in order of completion (epoch ms; null when absent or not recognised). */
    completedAt: (number | null)[];
    /** Operations not completed yet, the running one included. */
    pendingCount: number;
    /** The running operation: the first pending one. */
    current?: Operation;
}

const decodeClusterState = decoder("cluster state", clusterStateSchema);

export function changeReadDecoder(changeId: number): (data: unknown) => DecodeResult<ChangeRead> {
    return (data) => {
        const progress = changeProgressSchema.safeParse(data);
        const pending = progress.success ? progress.data.pendingChange : undefined;
        const current = pending !== undefined && pending.pending.length > 0 ? operationSchema.safeParse(pending.pending[0]) : undefined;
        if (pending?.id === changeId && current?.success !== false) {
            const completedAt = pending.completed.map((operation) => epochMsOf(operation.completedAt));
            return { ok: true, value: { running: { completedAt, pendingCount: pending.pending.length, current: current?.data } } };
        }
        const whole = decodeClusterState(data);
        return whole.ok ? { ok: true, value: { cluster: whole.value } } : whole;
    };
}
