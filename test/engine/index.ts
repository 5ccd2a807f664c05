// Test equipment: runs Pulumi programs through the real dynamic-provider host, without the Pulumi CLI.
export { runPulumi } from "./runPulumi";
export type { RunPulumiOptions, RunPulumiResult } from "./runPulumi";
export { COMMANDS, runPass } from "./operation";
export type { Command, OperationOptions, PassResult, ProgramRun } from "./operation";
export { cliArguments, parseArguments, runCommand, USAGE } from "./cli";
export type { CliArguments, OperationResult } from "./cli";
export { DynamicHost, HostCallError } from "./dynamicHost";
export type { CheckFailure, CheckResult, DiffResult, DynamicHostOptions, HostStream, InitFailure, ReadResult } from "./dynamicHost";
export type { Diagnostic, StepOp, StepRecord } from "./display";
export { StateFile, defaultStateFile, emptyState } from "./stateFile";
export type { PendingDelete, PendingOperation, ResourceState, StackState } from "./stateFile";
export { SECRET_SIG, SECRET_SIG_KEY, UNKNOWN, isSecret, makeSecret, maskSecrets, unwrapSecrets, unwrapSecretsInMap } from "./propertyValues";
export type { PropertyMap, PropertyValue } from "./propertyValues";
