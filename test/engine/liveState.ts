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

    /** Pending operations left by an interrupted run; they are dropped from the state (shown by the caller). */
    takeInterruptedOperations(): PendingOperation[] {
        const interrupted = this.state.pendingOperations;
        this.state.pendingOperations = [];
        return interrupted;
    }

    removePendingDelete(pending: PendingDelete): void {
        this.state.pendingDeletes = this.state.pendingDeletes.filter((p) => p !== pending);
        this.persist();
    }

    private persist(): void {
        this.file?.save(this.state);
    }
}
