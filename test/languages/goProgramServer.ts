// The language runtime the CLI suite connects the real `pulumi` CLI to (`--client`) for a Go program: what the Go
// language host (pulumi-language-go) does for a run, which the module proxy here does not serve: build the program
// with `go build` (once) and run the binary with the engine's addresses, the stack's config and the run's settings in
// the environment variables the Go SDK reads (sdk/go/pulumi/run.go). The other calls are @pulumi/pulumi's
// LanguageServer's (the Automation API's: no plugins to report).
//
// Usage: node -r ts-node/register/transpile-only goProgramServer.ts <programDir>; prints the port it serves on.
import * as grpc from "@grpc/grpc-js";
import { execFile } from "child_process";
import * as path from "path";
import { promisify } from "util";
/* eslint-disable @typescript-eslint/no-require-imports -- @pulumi/pulumi's generated gRPC modules have no types */
const { LanguageServer } = require("@pulumi/pulumi/automation/server") as { LanguageServer: new (program: () => unknown) => object };
const languageRpc = require("@pulumi/pulumi/proto/language_grpc_pb");
const languageProto = require("@pulumi/pulumi/proto/language_pb");
const runtime = require("@pulumi/pulumi/runtime");

const run = promisify(execFile);
const programDir = path.resolve(process.argv[2] ?? ".");
const binary = path.join(programDir, ".pulumi-program");
let built: Promise<unknown> | undefined;

interface RunRequest {
    getArgsList(): string[];
    getMonitorAddress(): string;
    getProject(): string;
    getStack(): string;
    getOrganization(): string;
    getParallel(): number;
    getDryrun(): boolean;
    getConfigMap(): { entries(): Iterable<[string, string]> };
    getConfigsecretkeysList(): string[];
}

/** What the run tells the engine: an error to show, or `bail` (the program failed and said why itself). */
interface Outcome {
    error?: string;
    bail?: boolean;
}

async function runProgram(request: RunRequest): Promise<Outcome> {
    built ??= run("go", ["build", "-o", binary, "."], { cwd: programDir, maxBuffer: 16 << 20 });
    try {
        await built;
    } catch (error) {
        built = undefined;
        return { error: `go build failed: ${String((error as { stderr?: string }).stderr ?? error)}` };
    }
    const env = {
        ...process.env,
        PULUMI_MONITOR: request.getMonitorAddress(),
        PULUMI_ENGINE: request.getArgsList()[0] ?? "",
        PULUMI_PROJECT: request.getProject(),
        PULUMI_STACK: request.getStack(),
        PULUMI_ORGANIZATION: request.getOrganization(),
        PULUMI_PARALLEL: String(request.getParallel()),
        PULUMI_DRY_RUN: String(request.getDryrun()),
        PULUMI_ROOT_DIRECTORY: programDir,
        PULUMI_CONFIG: JSON.stringify(Object.fromEntries(request.getConfigMap().entries())),
        PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(request.getConfigsecretkeysList()),
    };
    try {
        await run(binary, [], { cwd: programDir, env, maxBuffer: 64 << 20 });
        return {};
    } catch (error) {
        // A program that exited non-zero reported its failure to the engine already (as the Go host, bail).
        return typeof (error as { code?: unknown }).code === "number" ? { bail: true } : { error: String(error) };
    }
}

class GoLanguageServer extends LanguageServer {
    run(call: { request: RunRequest }, callback: (error: Error | null, response: unknown) => void): void {
        runProgram(call.request).then(
            (outcome) => {
                const response = new languageProto.RunResponse();
                if (outcome.error !== undefined) response.setError(outcome.error);
                response.setBail(outcome.bail === true);
                callback(null, response);
            },
            (error: Error) => callback(error, null),
        );
    }
}

const server = new grpc.Server({ ...runtime.grpcChannelOptions });
server.addService(languageRpc.LanguageRuntimeService, new GoLanguageServer(() => undefined) as unknown as grpc.UntypedServiceImplementation);
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, port) => {
    if (error) {
        process.stderr.write(`${error.message}\n`);
        process.exit(1);
    }
    process.stdout.write(`${port}\n`);
});
