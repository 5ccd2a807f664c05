// Which brokers' claims volumesOfRemovedBrokers "delete" deletes: those of the pods this resource stopped, never
// another. Kubernetes' own retention policy (whenScaled: Delete) works the same way: it deletes a claim with the pod it
// scales down, never a claim of a pod it did not have. A claim of an ordinal above them (left by an earlier layout,
// or kept under "retain" on purpose) stays.
//
// The pods this resource ran are those below the StatefulSet's replica count as the last completed up left it (the
// state records it: an up killed between lowering replicas and deleting the claims leaves it unchanged, so the next
// up, even after a refresh, still owes those claims), and those below any count this up saw before it lowered it.

/** The ordinals whose claims are owed: from the layout's replica count up to the most pods this resource ran. */
export function removedOrdinals(needed: number, ranReplicas: number): number[] {
    return Array.from({ length: Math.max(0, ranReplicas - needed) }, (_, i) => needed + i);
}

/** The most pods this resource ran: the count the state records, raised by what the StatefulSet shows now. */
export function ranReplicas(recorded: number | undefined, observed: number): number {
    return Math.max(recorded ?? 0, observed);
}
