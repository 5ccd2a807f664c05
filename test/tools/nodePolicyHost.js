// A stand-in for the one job of Pulumi's Node language host (pulumi-language-nodejs) that a policy pack needs: its
// RunPlugin, which runs a `runtime: nodejs` pack with Node. A released CLI ships that host; the CLI the suite builds
// from its Go module has none (the host's module is not served here), and from 3.249 on it has no other way to start a
// pack folder. What it does is what the host does: `node <@pulumi/pulumi/cmd/run-policy-pack> <engine> <pack folder>`,
// in the pack's folder, resolved from there, with the environment the engine gives, its output streamed back.
// Plain JavaScript: it starts with every CLI command that runs a pack, and ts-node would add a second to each.
//
// Usage (as the engine starts a language plugin): node nodePolicyHost.js [engine address]; prints the port it serves on.
"use strict";
const { spawn } = require("child_process");
const grpc = require("@grpc/grpc-js");
const languageRpc = require("@pulumi/pulumi/proto/language_grpc_pb");
const languageProto = require("@pulumi/pulumi/proto/language_pb");
const pluginProto = require("@pulumi/pulumi/proto/plugin_pb");
const { version } = require("@pulumi/pulumi/package.json");

/** The packs running; each is waited for before this host exits, so that its CPU time counts in this host's. */
const running = new Set();

function unimplemented(name) {
    return (_call, callback) => callback({ code: grpc.status.UNIMPLEMENTED, details: `${name} is not served by the suite's policy host` });
}

function runPlugin(call) {
    const request = call.request;
    const packDir = request.getInfo().getProgramDirectory();
    const reply = (set, value) => {
        const response = new languageProto.RunPluginResponse();
        set.call(response, value);
        call.write(response);
    };
    let runPolicyPack;
    try {
        runPolicyPack = require.resolve("@pulumi/pulumi/cmd/run-policy-pack", { paths: [packDir] });
    } catch {
        reply(languageProto.RunPluginResponse.prototype.setStderr, Buffer.from(`cannot find @pulumi/pulumi/cmd/run-policy-pack from ${packDir}\n`));
        reply(languageProto.RunPluginResponse.prototype.setExitcode, 1);
        call.end();
        return;
    }
    const given = request.getEnvList();
    const env =
        given.length === 0 ? process.env : Object.fromEntries(given.map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]));
    const child = spawn(process.execPath, [runPolicyPack, ...request.getArgsList(), packDir], { cwd: packDir, env, stdio: ["ignore", "pipe", "pipe"] });
    const closed = new Promise((resolve) => child.on("close", resolve));
    running.add(closed);
    void closed.then(() => running.delete(closed));
    child.stdout.on("data", (chunk) => reply(languageProto.RunPluginResponse.prototype.setStdout, chunk));
    child.stderr.on("data", (chunk) => reply(languageProto.RunPluginResponse.prototype.setStderr, chunk));
    child.on("close", (code) => {
        reply(languageProto.RunPluginResponse.prototype.setExitcode, code ?? 1);
        call.end();
    });
    call.on("cancelled", () => child.kill("SIGKILL"));
}

function getPluginInfo(_call, callback) {
    const info = new pluginProto.PluginInfo();
    info.setVersion(version);
    callback(null, info);
}

// The engine stops a plugin with SIGINT to its process group (the pack gets it too), then SIGKILL after 5 s.
for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
        void Promise.all(running).then(() => process.exit(0));
    });
}

const served = { runPlugin, getPluginInfo };
const handlers = Object.fromEntries(Object.keys(languageRpc.LanguageRuntimeService).map((name) => [name, served[name] ?? unimplemented(name)]));
const server = new grpc.Server();
server.addService(languageRpc.LanguageRuntimeService, handlers);
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, port) => {
    if (error) {
        process.stderr.write(`${error.message}\n`);
        process.exit(1);
    }
    process.stdout.write(`${port}\n`);
});
