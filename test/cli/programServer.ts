// The language runtime the CLI suite connects the real `pulumi` CLI to (`--client`): @pulumi/pulumi's own
// LanguageServer, the one the Automation API serves inline programs with, running the Pulumi program of the folder it
// is given (Pulumi.yaml's `main`, else index.ts) anew on every Run the engine asks for. The Node language host
// (pulumi-language-nodejs) would run it in a `node` process of its own; its Go module is not served by the module
// proxy here, so this stands in for its one job, and everything else (engine, provider hosts, display, state,
// secrets) is the CLI's own.
//
// Usage: node -r ts-node/register/transpile-only programServer.ts <programDir>; prints the port it serves on.
import * as grpc from "@grpc/grpc-js";
import * as fs from "fs";
import * as path from "path";
/* eslint-disable @typescript-eslint/no-require-imports -- the program and the @pulumi/pulumi it registers with are required from its folder, at run time */

const programDir = fs.realpathSync(path.resolve(process.argv[2] ?? "."));
// The program's own copy of @pulumi/pulumi: the one its resources register with.
const fromProgram = (id: string) => require(require.resolve(id, { paths: [programDir] }));
const { LanguageServer } = fromProgram("@pulumi/pulumi/automation/server");
const languageRpc = fromProgram("@pulumi/pulumi/proto/language_grpc_pb");
const runtime = fromProgram("@pulumi/pulumi/runtime");

const entry = path.resolve(programDir, mainOf(programDir));

/** Runs the program's module again: its own files leave the module cache first (packages stay loaded). */
async function program(): Promise<unknown> {
    for (const loaded of Object.keys(require.cache)) {
        if (loaded.startsWith(programDir + path.sep) && !loaded.includes(`${path.sep}node_modules${path.sep}`)) delete require.cache[loaded];
    }
    return require(entry);
}

function mainOf(dir: string): string {
    const project = fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8");
    const main = /^main:\s*(\S+)\s*$/m.exec(project)?.[1];
    if (main === undefined) return "index.ts";
    return fs.statSync(path.join(dir, main)).isDirectory() ? path.join(main, "index.ts") : main;
}

const server = new grpc.Server({ ...runtime.grpcChannelOptions });
server.addService(languageRpc.LanguageRuntimeService, new LanguageServer(program));
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, port) => {
    if (error) {
        process.stderr.write(`${error.message}\n`);
        process.exit(1);
    }
    process.stdout.write(`${port}\n`);
});
