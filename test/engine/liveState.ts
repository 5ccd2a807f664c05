// The stack state while an operation runs: every change is written to the state file at once, so an
// interrupted run leaves what the engine would leave. Without a file (preview) nothing is written.
import { PendingDelete, PendingOperation, ResourceState, StackState, StateFile } from "./stateFile";

export class LiveState {
    constructor(
        private readonly state: StackState,
        private readonly file?: StateFile,
    ) {}

    get(urn: string): ResourceState | undefined {
        return this.state.resources[urn];
    }

    entries(): [string, ResourceState][] {
        return Object.entries(this.state.resources);
    }

    pendingDeletes(): readonly PendingDelete[] {
        return this.state.pendingDeletes;
    }

    set(urn: string, resource: ResourceState): void {
        this.state.resources[urn] = resource;
        this.persist();
    }

    /** A create-before-delete replacement: the new instance takes the URN, the old one waits for deletion. */
    replace(urn: string, resource: ResourceState, old: ResourceState): void {
        this.state.pendingDeletes.push({ urn, ...old });
        this.state.resources[urn] = resource;
        this.persist();
    }

    remove(urn: string): void {
        delete this.state.resources[urn];
        this.persist();
    }

    /**
     * Runs a provider call that changes a resource, listed as a pending operation in the state while it runs, as
     * the engine does: a run killed meanwhile leaves a record that the resource's fate is unknown.
     */
    async track<T>(urn: string, type: string, operation: PendingOperation["operation"], call: () => Promise<T>): Promise<T> {
        const pending: PendingOperation = { urn, type, operation };
        this.state.pendingOperations.push(pending);
        this.persist();
        try {
            return await call();
        } finally {
            this.state.pendingOperations = this.state.pendingOperations.filter((p) => p !== pending);
            this.persist();
        }
    }

    /** Pending operations left by an interrupted run. */
    interruptedOperations(): readonly PendingOperation[] {
        return this.state.pendingOperations;
    }

    /**
     * What the engine's snapshot keeps of the operations an earlier run left pending (pkg/backend/journal.go): the
     * interrupted creates, which only an interactive `pulumi refresh` (or --clear-pending-creates) resolves; every other
     * one is dropped. The resource an interrupted create was making is not in the state, so the next up creates it anew.
     */
    settleInterruptedOperations(): void {
        this.state.pendingOperations = this.state.pendingOperations.filter((pending) => pending.operation === "creating");
        this.persist();
    }

    removePendingDelete(pending: PendingDelete): void {
        this.state.pendingDeletes = this.state.pendingDeletes.filter((p) => p !== pending);
        this.persist();
    }

    private persist(): void {
        this.file?.save(this.state);
    }
}
