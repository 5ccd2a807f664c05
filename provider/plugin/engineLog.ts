// The lines a provider prints, sent to the engine as it shows them. The engine hides what a resource plugin writes
// to stdout (it shows it only when the plugin crashes), where a dynamic provider's lines are shown: so the plugin
// turns each console.log line into an info message of the engine's Log call, at stack level as a dynamic provider's
// lines are, one after another in the order printed.
import type * as grpcTypes from "@grpc/grpc-js";
import * as path from "path";
import { format } from "util";
import * as engineRpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engineProto from "@pulumi/pulumi/proto/engine_pb";

// The gRPC library @pulumi/pulumi's generated client is made with (a dependency of that package, not of this one).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const grpc = require(require.resolve("@grpc/grpc-js", { paths: [path.dirname(require.resolve("@pulumi/pulumi/package.json"))] })) as typeof grpcTypes;

export class EngineLog {
    private readonly client: engineRpc.EngineClient;
    private last: Promise<void> = Promise.resolve();

    constructor(engineAddress: string) {
        this.client = new engineRpc.EngineClient(engineAddress, grpc.credentials.createInsecure());
    }

    line(message: string): void {
        const request = new engineProto.LogRequest();
        request.setSeverity(engineProto.LogSeverity.INFO);
        request.setMessage(message);
        request.setUrn("");
        this.last = this.last.then(() => new Promise<void>((resolve) => this.client.log(request, () => resolve())));
    }

    /** Settles once every line printed so far reached the engine (or failed to). */
    flushed(): Promise<void> {
        return this.last;
    }

    /** console.log (and console.info) from now on: each line to `route` (by default to the engine). */
    capture(route: (line: string) => void = (line) => this.line(line)): void {
        console.log = (...args: unknown[]) => route(format(...args));
        console.info = console.log;
    }
}

/** The engine's address among the plugin's arguments: the first that is not a flag. */
export function engineAddressOf(args: string[]): string | undefined {
    return args.find((arg) => !arg.startsWith("-"));
}
