// What the engine does with each resource registration during `preview` and `up`, and with the resources the
// program no longer declares once it has finished.
//
// Per dynamic resource: Check (olds = old inputs from state, or none for a new resource), then Diff for a
// resource already in state (always). The first dynamic resource registers the default provider of the dynamic
// resources in the state, with this run's stack config as its inputs (refresh and destroy configure from them). In preview nothing else reaches the provider: a resource to create or update
// reports its checked inputs as outputs, so every other output is unknown to the program. In `up`: Create, Update,
// or a replacement (Check again without olds, then create-then-delete, or delete-then-create when the diff or the
// resource option asks for deleteBeforeReplace). A resource left with init errors by a partial failure is updated
// even when its diff reports no change. A partially failed update keeps the old inputs beside the new outputs
// (OnResourceStepPost in pkg/engine/update.go): the resource was not updated to the new ones. Components and other custom resources never reach the provider host:
// components have no outputs of their own, other custom resources echo their inputs.
import { randomUUID } from "crypto";
import { Display, StepOp } from "./display";
import { HostCallError } from "./dynamicHost";
import { Condemned, deleteAll, deleteWithProvider } from "./deletion";
import { LiveState } from "./liveState";
import { ProviderHost } from "./providerHost";
import { annotateSecrets, deepEqual, markSecretOutputs, PropertyMap, unwrapSecretsInMap } from "./propertyValues";
import { ResourceState } from "./stateFile";
import { CheckFailedError, StepError, isStepFailure } from "./stepError";
import { isDynamicType, qualifiedType, STACK_TYPE } from "./urns";

/** The default provider of the dynamic resources: its URN and the inputs this run configures it with. */
export interface DefaultProvider {
    urn: string;
    inputs: PropertyMap;
}

/** A resource registration as the program sent it; property values in engine form. */
export interface Registration {
    urn: string;
    type: string;
    name: string;
    custom: boolean;
    /** Parent URN, "" for the stack resource itself. */
    parent: string;
    inputs: PropertyMap;
    dependencies: string[];
    /** The deleteBeforeReplace resource option, when the program set it. */
    deleteBeforeReplace?: boolean;
    /** The import resource option: the id of an existing resource to adopt into the stack. */
    importId?: string;
    additionalSecretOutputs: string[];
}

/** What the engine answers the program: `id` undefined means unknown (preview of a new resource). */
export interface RegistrationResult {
    id?: string;
    outputs: PropertyMap;
}

type Decision =
    | { kind: "create"; inputs: PropertyMap }
    | { kind: "same" | "update"; inputs: PropertyMap; old: ResourceState }
    | { kind: "replace"; inputs: PropertyMap; old: ResourceState; deleteBeforeReplace: boolean };

interface Applied {
    id?: string;
    outputs: PropertyMap;
    /** A partial failure: the resource exists (and is kept in state) but the step failed. */
    initFailure?: { reasons: string[]; error: HostCallError };
}

/** The steps of a delete-before-replace replacement, in the order the engine begins them. */
const DELETE_BEFORE_REPLACE: StepOp[] = ["delete-replaced", "replace", "create-replacement"];

/** Thrown to registrations once a step has failed: the engine stops processing the program's resources. */
export class DeploymentHalted extends Error {
    constructor() {
        super("the deployment stopped after an earlier error");
        this.name = "DeploymentHalted";
    }
}

export class Deployment {
    private readonly registered = new Set<string>();
    private generating: Promise<unknown> = Promise.resolve();
    private halted = false;
    private stackOutputs: PropertyMap = {};
    /** `<urn>::<id>` of the default provider once a dynamic resource registered it. */
    private providerReference?: string;
    /** In preview: the old instances replacements would delete once the program has finished (create-before-delete). */
    private readonly previewReplaced: Condemned[] = [];

    constructor(
        private readonly preview: boolean,
        private readonly live: LiveState,
        private readonly host: ProviderHost,
        private readonly display: Display,
        private readonly defaultProvider: DefaultProvider,
    ) {}

    get failed(): boolean {
        return this.halted;
    }

    /** A step failed (not a check, not the program): the CLI closes the run with `preview failed` or `update failed`. */
    stepFailed = false;

    get outputs(): PropertyMap {
        return this.stackOutputs;
    }

    async register(registration: Registration): Promise<RegistrationResult> {
        if (this.halted) throw new DeploymentHalted();
        try {
            if (this.registered.has(registration.urn)) throw new Error(`duplicate resource URN ${registration.urn}`);
            this.registered.add(registration.urn);
            const old = this.live.get(registration.urn);
            // The engine's step generator checks and diffs one registration at a time, in arrival order.
            const decision = await this.serially(() => this.decide(registration, old));
            return this.preview ? this.previewResult(registration, decision) : await this.apply(registration, decision);
        } catch (error) {
            throw this.fail(error instanceof StepError ? error : new StepError(registration.type, registration.urn, error));
        }
    }

    /**
     * RegisterResourceOutputs: a component's (and the stack's) outputs. Once a step has failed the engine applies no
     * more of the program's events, so the outputs the runtime still registers (the stack's, empty, as its outputs
     * could not resolve) never reach the state: the stack keeps the outputs its same step carried over.
     */
    registerOutputs(urn: string, outputs: PropertyMap): void {
        if (qualifiedType(urn) === STACK_TYPE) this.stackOutputs = outputs;
        const existing = this.live.get(urn);
        if (this.preview || this.halted || !existing || !this.registered.has(urn)) return;
        try {
            this.live.set(urn, { ...existing, outputs });
        } catch (error) {
            this.fail(new StepError(existing.type, urn, error));
        }
    }

    /** After the program has finished: delete what it no longer declares, and old instances of replacements. */
    async finish(): Promise<void> {
        if (this.halted) return;
        const condemned: Condemned[] = [
            ...this.live
                .entries()
                .filter(([urn]) => !this.registered.has(urn))
                .map(([urn, resource]) => ({ urn, resource, replaced: false })),
            ...this.live.pendingDeletes().map((pending) => ({ urn: pending.urn, resource: pending, replaced: true })),
            ...this.previewReplaced,
        ];
        try {
            await deleteAll(condemned, { host: () => this.host.get(), live: this.live, display: this.display, preview: this.preview });
        } catch (error) {
            this.fail(error);
        }
    }

    private async decide(registration: Registration, old: ResourceState | undefined): Promise<Decision> {
        const { urn, custom, type, inputs } = registration;
        if (!custom || !isDynamicType(type)) {
            if (!old) return { kind: "create", inputs };
            return { kind: deepEqual(old.inputs, inputs) ? "same" : "update", inputs, old };
        }
        this.registerDefaultProvider();
        const host = await this.host.get();
        if (registration.importId !== undefined && old?.id !== registration.importId) await this.importStep(registration, registration.importId);
        const checked = await this.check(registration, old?.inputs ?? {});
        if (!old) return { kind: "create", inputs: checked };
        if (!old.id) throw new Error(`${urn} is in the state without an id`);
        const diff = await host.diff(urn, old.id, unwrapSecretsInMap(old.outputs), unwrapSecretsInMap(checked), unwrapSecretsInMap(old.inputs));
        // DIFF_UNKNOWN (no diff() in the provider): the engine compares old and new inputs itself.
        const changed = diff.changes === "unknown" ? !deepEqual(old.inputs, checked) : diff.changes === "some";
        if (changed || old.pendingReplacement) {
            if (diff.replaces.length > 0 || old.pendingReplacement) {
                // A replacement is a new resource: the engine checks the inputs again, without the old ones.
                const replacement = await this.check(registration, {});
                const deleteBeforeReplace = registration.deleteBeforeReplace ?? diff.deleteBeforeReplace;
                return { kind: "replace", inputs: replacement, old, deleteBeforeReplace };
            }
            return { kind: "update", inputs: checked, old };
        }
        if (old.initErrors?.length) return { kind: "update", inputs: checked, old };
        return { kind: "same", inputs: checked, old };
    }

    /**
     * The import option, as ImportStep.Apply does it (pkg/resource/deploy/step.go), in preview and up alike: an `import`
     * step, whose read of the resource by the given id carries no properties at all. The dynamic-provider host reads
     * them as none and fails to load a provider (it has no `__provider`; pulumi/pulumi#3550, #16175), and the CLI
     * reports `Preview failed: code must be a string, not undefined`: a dynamic
     * resource cannot be imported. A resource already in the state with that id keeps its state (the option is
     * ignored), as the engine does.
     */
    private async importStep(registration: Registration, id: string): Promise<never> {
        const host = await this.host.get();
        this.display.step("import", registration.urn, registration.type);
        let read;
        try {
            read = await host.read(registration.urn, id, undefined);
        } catch (error) {
            throw new Error(`${this.preview ? "Preview" : "Read"} failed: ${error instanceof Error ? error.message : String(error)}`);
        }
        // Only a provider that finds its code without the serialized text could get here; no dynamic provider does.
        throw new Error(`import of ${id} read ${Object.keys(read.properties).length} properties, but this engine does not adopt imported resources`);
    }

    /**
     * The default provider is a resource of its own: created with a new id the first time, kept (same id, this run's
     * inputs) after that. Preview records nothing.
     */
    private registerDefaultProvider(): void {
        if (this.providerReference !== undefined) return;
        const { urn, inputs } = this.defaultProvider;
        this.registered.add(urn);
        const id = this.live.get(urn)?.id ?? randomUUID();
        if (!this.preview) this.live.set(urn, { type: qualifiedType(urn), custom: true, id, inputs, outputs: inputs, dependencies: [] });
        this.providerReference = `${urn}::${id}`;
    }

    private async check(registration: Registration, olds: PropertyMap): Promise<PropertyMap> {
        const host = await this.host.get();
        const result = await host.check(registration.urn, unwrapSecretsInMap(olds), unwrapSecretsInMap(registration.inputs));
        if (result.failures.length > 0) throw new CheckFailedError(result.failures, registration.inputs);
        // The host cannot take secrets, so the engine restores the secret bit by property name.
        return annotateSecrets(result.inputs, registration.inputs);
    }

    /** Preview never creates or updates: the engine hands back the checked inputs as the outputs. */
    private previewResult(registration: Registration, decision: Decision): RegistrationResult {
        const { urn, type } = registration;
        if (decision.kind !== "replace") this.display.step(decision.kind, urn, type);
        else if (decision.deleteBeforeReplace) for (const op of DELETE_BEFORE_REPLACE) this.display.step(op, urn, type);
        else {
            this.display.step("create-replacement", urn, type);
            this.display.step("replace", urn, type);
            this.previewReplaced.push({ urn, resource: decision.old, replaced: true });
        }
        switch (decision.kind) {
            case "same":
                return { id: decision.old.id, outputs: decision.old.outputs };
            case "update":
                return { id: decision.old.id, outputs: decision.inputs };
            default:
                return { outputs: decision.inputs };
        }
    }

    private async apply(registration: Registration, decision: Decision): Promise<RegistrationResult> {
        const { urn, type } = registration;
        const record = (applied: Applied, inputs: PropertyMap): ResourceState => ({
            type,
            custom: registration.custom,
            ...(applied.id !== undefined ? { id: applied.id } : {}),
            ...(registration.parent ? { parent: registration.parent } : {}),
            inputs,
            outputs: applied.outputs,
            dependencies: registration.dependencies,
            ...(applied.initFailure ? { initErrors: applied.initFailure.reasons } : {}),
            ...(this.providerReference !== undefined && isDynamicType(type) && registration.custom ? { provider: this.providerReference } : {}),
        });
        // A step shows when it begins (a failed one too, as the CLI shows it failing).
        const begin = (op: StepOp) => this.display.step(op, urn, type);
        const finish = (applied: Applied): RegistrationResult => {
            if (applied.initFailure) throw new StepError(type, urn, applied.initFailure.error);
            return { id: applied.id, outputs: applied.outputs };
        };

        switch (decision.kind) {
            case "same": {
                begin("same");
                // The engine keeps the old id and outputs, and records the new inputs.
                const applied = { id: decision.old.id, outputs: decision.old.outputs };
                this.live.set(urn, record(applied, decision.inputs));
                return finish(applied);
            }
            case "create": {
                begin("create");
                const applied = await this.create(registration, decision.inputs);
                this.live.set(urn, record(applied, decision.inputs));
                return finish(applied);
            }
            case "update": {
                begin("update");
                const applied = await this.update(registration, decision.old, decision.inputs);
                this.live.set(urn, record(applied, applied.initFailure ? decision.old.inputs : decision.inputs));
                return finish(applied);
            }
            case "replace": {
                const { old, inputs } = decision;
                if (decision.deleteBeforeReplace) {
                    begin("delete-replaced");
                    if (!old.pendingReplacement) {
                        await this.deleteReplaced(urn, old);
                        // Kept in state until its replacement exists, so an interrupted run still replaces it.
                        this.live.set(urn, { ...old, pendingReplacement: true });
                    }
                    begin("replace");
                    begin("create-replacement");
                    const applied = await this.create(registration, inputs);
                    this.live.set(urn, record(applied, inputs));
                    return finish(applied);
                }
                begin("create-replacement");
                const applied = await this.create(registration, inputs);
                this.live.replace(urn, record(applied, inputs), old);
                begin("replace");
                return finish(applied);
            }
        }
    }

    private async create(registration: Registration, inputs: PropertyMap): Promise<Applied> {
        if (!registration.custom) return { outputs: {} };
        if (!isDynamicType(registration.type)) return { id: `${registration.name}-id`, outputs: inputs };
        const host = await this.host.get();
        try {
            const created = await this.live.track(registration.urn, registration.type, "creating", () =>
                host.create(registration.urn, unwrapSecretsInMap(inputs)),
            );
            if (!created.id) throw new Error("provider did not return an ID from Create");
            return { id: created.id, outputs: this.outputsOf(registration, created.properties, inputs) };
        } catch (error) {
            return this.partialFailure(registration, inputs, error);
        }
    }

    private async update(registration: Registration, old: ResourceState, inputs: PropertyMap): Promise<Applied> {
        if (!registration.custom) return { outputs: old.outputs };
        if (!isDynamicType(registration.type)) return { id: old.id, outputs: inputs };
        const host = await this.host.get();
        try {
            const updated = await this.live.track(registration.urn, registration.type, "updating", () =>
                host.update(registration.urn, old.id ?? "", unwrapSecretsInMap(old.outputs), unwrapSecretsInMap(inputs), unwrapSecretsInMap(old.inputs)),
            );
            return { id: old.id, outputs: this.outputsOf(registration, updated.properties, inputs) };
        } catch (error) {
            const applied = this.partialFailure(registration, inputs, error);
            return { ...applied, id: old.id };
        }
    }

    /** ErrorResourceInitFailed: the resource exists; its id and properties are kept with the reasons. */
    private partialFailure(registration: Registration, inputs: PropertyMap, error: unknown): Applied {
        if (!(error instanceof HostCallError) || !error.initFailure) throw error;
        const { id, properties, reasons } = error.initFailure;
        return { id, outputs: this.outputsOf(registration, properties, inputs), initFailure: { reasons, error } };
    }

    private outputsOf(registration: Registration, properties: PropertyMap, inputs: PropertyMap): PropertyMap {
        return markSecretOutputs(annotateSecrets(properties, inputs), registration.additionalSecretOutputs);
    }

    private async deleteReplaced(urn: string, old: ResourceState): Promise<void> {
        if (!old.custom || !isDynamicType(old.type)) return;
        await deleteWithProvider(await this.host.get(), urn, old, this.live);
    }

    private serially<T>(work: () => Promise<T>): Promise<T> {
        const result = this.generating.then(work);
        this.generating = result.catch(() => undefined);
        return result;
    }

    private fail(error: unknown): Error {
        if (error instanceof DeploymentHalted) return error;
        this.halted = true;
        if (isStepFailure(error)) this.stepFailed = true;
        for (const line of error instanceof StepError ? error.lines : [String(error)]) this.display.error(line);
        return error instanceof Error ? error : new Error(String(error));
    }
}
