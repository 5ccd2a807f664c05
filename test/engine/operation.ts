// One operation (preview, up, refresh or destroy) on one stack, in this process. Run each operation in a process
// of its own (cli.ts; runPulumi spawns it): the program's modules and the Pulumi runtime state must not leak.
import * as path from "path";
import { Deployment, DeploymentHalted } from "./deployment";
import { destroy } from "./destroy";
import { Diagnostic, Display, StepRecord } from "./display";
import { LiveState } from "./liveState";
import { runProgram } from "./programRunner";
import { loadProject, loadStackConfig } from "./project";
import { PropertyMap } from "./propertyValues";
import { ProviderHost } from "./providerHost";
import { refresh } from "./refresh";
import { defaultStateFile, StateFile } from "./stateFile";
import { StepError } from "./stepError";
import { STACK_TYPE, urnName } from "./urns";

export type Command = "preview" | "up" | "refresh" | "destroy";

export const COMMANDS: readonly Command[] = ["preview", "up", "refresh", "destroy"];

/** Which operation on which program and stack, with what config: the same for a run in-process or in a child. */
export interface ProgramRun {
    command: Command;
    programDir: string;
    stack: string;
    config?: Record<string, string>;
    secrets?: Record<string, string>;
    /** Defaults to <programDir>/.pulumi-state/<stack>.json. */
    stateFile?: string;
}

export interface OperationOptions extends ProgramRun {
    /** Encrypts secret values in the state file (PULUMI_CONFIG_PASSPHRASE). */
    passphrase?: string;
    writeOut: (line: string) => void;
    writeErr: (line: string) => void;
}

export interface OperationResult {
    ok: boolean;
    steps: StepRecord[];
    diagnostics: Diagnostic[];
    errors: string[];
    /** Stack outputs in engine form: secrets wrapped, unknowns (preview) as the sentinel. */
    outputs: PropertyMap;
}

const TITLES: Record<Command, string> = {
    preview: "Previewing update",
    up: "Updating",
    refresh: "Refreshing",
    destroy: "Destroying",
};

export async function runOperation(options: OperationOptions): Promise<OperationResult> {
    const { command, stack } = options;
    const preview = command === "preview";
    const display = new Display(options.writeOut, options.writeErr, preview);
    let outputs: PropertyMap = {};
    let ok = false;
    let host: ProviderHost | undefined;
    try {
        const project = loadProject(options.programDir);
        const config = loadStackConfig(project, stack, options.config ?? {}, options.secrets ?? {});
        // Absolute: the program runs with the program directory as its working directory.
        const stateFile = new StateFile(path.resolve(options.stateFile ?? defaultStateFile(project.dir, stack)), options.passphrase);
        const state = stateFile.load();
        // Preview never writes the state.
        const live = new LiveState(state, preview ? undefined : stateFile);
        const providerHost = new ProviderHost(project, config, display);
        host = providerHost;
        providerHost.prestart();
        display.header(`${TITLES[command]} (${stack}):`);
        // As the engine: operations cut short by an interrupted run are reported, then dropped from the state.
        for (const { urn, type, operation } of live.takeInterruptedOperations()) {
            display.warning(
                `${type} ${urnName(urn)} was interrupted while ${operation}: it is in an unknown state; ` +
                    "check it with the provider (refresh) before relying on it",
            );
        }
        switch (command) {
            case "preview":
            case "up": {
                const deployment = new Deployment(preview, live, providerHost, display);
                const program = await runProgram({ project, stack, config, preview, handler: deployment });
                // Once a step has failed, the program's own errors are consequences of it.
                if (!deployment.failed) {
                    // One error often rejects several of the runtime's promises: show each once.
                    for (const message of new Set(program.errors.map(programErrorText))) display.error(`program failed: ${message}`);
                }
                if (!deployment.failed && program.errors.length === 0) await deployment.finish();
                ok = !deployment.failed && program.errors.length === 0;
                outputs = deployment.outputs;
                break;
            }
            case "refresh":
                await refresh(live, () => providerHost.get(), display);
                outputs = live.entries().find(([, resource]) => resource.type === STACK_TYPE)?.[1].outputs ?? {};
                ok = true;
                break;
            case "destroy":
                await destroy(live, () => providerHost.get(), display);
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
    if (!ok) options.writeErr(`error: ${command} failed`);
    return { ok, steps: display.steps, diagnostics: display.diagnostics, errors: display.errors, outputs };
}

/** The program's own errors come with their stack, as the language host shows them. */
function programErrorText(error: unknown): string {
    if (error instanceof DeploymentHalted) return error.message;
    if (error instanceof Error) return error.stack ?? error.message;
    return String(error);
}
