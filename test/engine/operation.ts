// One pass of an operation (the preview of an update, an update, a refresh or a destroy, each also as a preview) on
// one stack, in this process. A pass that runs the program needs a process of its own (cli.ts; runPulumi spawns
// it): the program's modules and the Pulumi runtime state must not leak. Which passes a command makes is cli.ts's
// business (`up` previews first, as the CLI does).
import * as path from "path";
import { Deployment, DeploymentHalted } from "./deployment";
import { destroy } from "./destroy";
import { Diagnostic, Display, StepRecord } from "./display";
import { LiveState } from "./liveState";
import { runProgram } from "./programRunner";
import { loadProject, loadStackConfig } from "./project";
import { PropertyMap } from "./propertyValues";
import { ProviderHost, providerInputsFor } from "./providerHost";
import { refresh } from "./refresh";
import { defaultStateFile, StateFile } from "./stateFile";
import { StepError } from "./stepError";
import { defaultProviderUrn, STACK_TYPE } from "./urns";

/** `cancel` runs no pass: it lifts the lock a killed up, refresh or destroy left (see stackLock.ts). */
export type Command = "preview" | "up" | "refresh" | "destroy" | "cancel";

export const COMMANDS: readonly Command[] = ["preview", "up", "refresh", "destroy", "cancel"];

/** Which operation on which program and stack, with what config: the same for a run in-process or in a child. */
export interface ProgramRun {
    command: Command;
    programDir: string;
    stack: string;
    config?: Record<string, string>;
    secrets?: Record<string, string>;
    /** Defaults to <programDir>/.pulumi-state/<stack>.json. */
    stateFile?: string;
    /** `--skip-preview`: up, refresh and destroy without the preview pass the CLI makes first. */
    skipPreview?: boolean;
}

/** One pass: `preview` is `pulumi preview` or the preview an up, a refresh or a destroy makes first. */
export interface PassOptions {
    command: Command;
    /** A refresh or a destroy that changes nothing (`--preview-only`); `preview` always is. */
    dryRun: boolean;
}

export interface OperationOptions extends ProgramRun {
    /** Encrypts secret values in the state file (PULUMI_CONFIG_PASSPHRASE). */
    passphrase?: string;
    /** The program and the provider in this process (InProcessHost), for the suites' matrices; see runPulumi. */
    inProcess?: boolean;
    writeOut: (line: string) => void;
    writeErr: (line: string) => void;
}

export interface PassResult {
    /** `preview` for a preview pass (of any command), else the command. */
    pass: "preview" | "up" | "refresh" | "destroy";
    ok: boolean;
    steps: StepRecord[];
    diagnostics: Diagnostic[];
    errors: string[];
    /** Stack outputs in engine form: secrets wrapped, unknowns (preview) as the sentinel. */
    outputs: PropertyMap;
}

const TITLES: Record<Command, [preview: string, apply: string]> = {
    preview: ["Previewing update", "Previewing update"],
    up: ["Previewing update", "Updating"],
    refresh: ["Previewing refresh", "Refreshing"],
    destroy: ["Previewing destroy", "Destroying"],
    cancel: ["", ""],
};

export async function runPass(options: OperationOptions & PassOptions): Promise<PassResult> {
    const { command, stack } = options;
    const dryRun = options.dryRun || command === "preview";
    const display = new Display(options.writeOut, options.writeErr, dryRun);
    let outputs: PropertyMap = {};
    let ok = false;
    let host: ProviderHost | undefined;
    /** The line the run closes with when it fails (the CLI's: after a failed step only; none for a failed refresh). */
    let closing: string | undefined;
    try {
        const project = loadProject(options.programDir);
        const config = loadStackConfig(project, stack, options.config ?? {}, options.secrets ?? {});
        // Absolute: the program runs with the program directory as its working directory.
        const stateFile = new StateFile(path.resolve(options.stateFile ?? defaultStateFile(project.dir, stack)), options.passphrase);
        const state = stateFile.load();
        // A preview never writes the state.
        const live = new LiveState(state, dryRun ? undefined : stateFile);
        const providerUrn = defaultProviderUrn(stack, project.name);
        // An update configures the provider with this run's config; refresh and destroy with what the last up
        // recorded (a state without it, written before providers were recorded: this run's config, as the engine does).
        const currentInputs = providerInputsFor(config);
        const providerInputs = command === "preview" || command === "up" ? currentInputs : (live.get(providerUrn)?.inputs ?? currentInputs);
        const providerHost = new ProviderHost(project, providerInputs, display, options.inProcess ? "in-process" : "process");
        host = providerHost;
        // A destroy's preview asks no provider anything.
        if (!(command === "destroy" && dryRun)) providerHost.prestart();
        display.header(`${TITLES[command][dryRun ? 0 : 1]} (${stack}):`);
        // Operations cut short by an interrupted run: an up or a destroy warns of them (not a preview, not a refresh), and
        // whatever the pass, only the interrupted creates stay in the state (see LiveState.settleInterruptedOperations).
        const interrupted = live.interruptedOperations();
        if (interrupted.length > 0 && !dryRun && command !== "refresh") display.warning(pendingOperationsWarning(interrupted));
        if (!dryRun) live.settleInterruptedOperations();
        switch (command) {
            case "preview":
            case "up": {
                const deployment = new Deployment(dryRun, live, providerHost, display, { urn: providerUrn, inputs: currentInputs });
                const print = (stream: "stdout" | "stderr", text: string) =>
                    text.split("\n").forEach(stream === "stdout" ? options.writeOut : options.writeErr);
                const program = await runProgram({ project, stack, config, preview: dryRun, handler: deployment, inProcess: options.inProcess, print });
                // Once a step has failed, the program's own errors are consequences of it.
                if (!deployment.failed) {
                    // One error often rejects several of the runtime's promises: show each once.
                    for (const message of new Set(program.errors.map(programErrorText))) display.error(`program failed: ${message}`);
                }
                if (!deployment.failed && program.errors.length === 0) await deployment.finish();
                ok = !deployment.failed && program.errors.length === 0;
                outputs = deployment.outputs;
                if (deployment.stepFailed) closing = `${dryRun ? "preview" : "update"} failed`;
                break;
            }
            case "refresh":
                await refresh(live, () => providerHost.get(), display);
                outputs = live.entries().find(([, resource]) => resource.type === STACK_TYPE)?.[1].outputs ?? {};
                ok = true;
                break;
            case "cancel":
                throw new Error("cancel runs no pass");
            case "destroy":
                closing = "destroy failed";
                await destroy(live, () => providerHost.get(), display, dryRun);
                ok = true;
                break;
        }
    } catch (error) {
        if (error instanceof StepError) error.lines.forEach((line) => display.error(line));
        else display.error(error instanceof Error ? error.message : String(error));
        ok = false;
    } finally {
        await host?.stop();
    }
    display.summary();
    display.outputs(outputs);
    if (!ok && closing !== undefined) options.writeErr(`error: ${closing}`);
    return {
        pass: dryRun || command === "cancel" ? "preview" : command,
        ok,
        steps: display.steps,
        diagnostics: display.diagnostics,
        errors: display.errors,
        outputs,
    };
}

/** What the engine prints of pending operations (printPendingOperationsWarning, pkg/resource/deploy/deployment_executor.go). */
function pendingOperationsWarning(operations: readonly { urn: string; operation: string }[]): string {
    return [
        `Attempting to deploy or update resources with ${operations.length} pending operations from previous deployment.`,
        ...operations.map(({ urn, operation }) => `  * ${urn}, interrupted while ${operation}`),
        "These resources are in an unknown state because the Pulumi CLI was interrupted while waiting for changes to these resources to complete. " +
            "You should confirm whether or not the operations listed completed successfully by checking the state of the appropriate provider. " +
            "For example, if you are using AWS, you can confirm using the AWS Console.",
        "",
        "Once you have confirmed the status of the interrupted operations, you can repair your stack using `pulumi refresh` which will refresh " +
            "the state from the provider you are using and clear the pending operations if there are any.",
        "",
        "Note that `pulumi refresh` will need to be run interactively to clear pending CREATE operations.",
    ].join("\n");
}

/** The program's own errors come with their stack, as the language host shows them. */
function programErrorText(error: unknown): string {
    if (error instanceof DeploymentHalted) return error.message;
    if (error instanceof Error) return error.stack ?? error.message;
    return String(error);
}
