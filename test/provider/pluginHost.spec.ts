// The provider plugin as the engine runs it: plugin/pulumi-resource-platform started as a process, spoken to over the
// engine's provider protocol (gRPC), with an engine of the test's own that records the lines the plugin logs, against
// the emulator. The whole life under the real CLI is the languages tier's (test/languages).
import assert from "node:assert/strict";
import { ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as readline from "node:readline";
import * as grpc from "@grpc/grpc-js";
import { isSecretEnvelope } from "../../provider/plugin/secrets";
import { initFailureOf } from "../engine/dynamicHost";
import { useEmulator } from "../support/emulator";
import { SCHEMA_FILE } from "../tools/writeSchema";
/* eslint-disable @typescript-eslint/no-require-imports -- @pulumi/pulumi's generated gRPC modules have no types */
const providerRpc = require("@pulumi/pulumi/proto/provider_grpc_pb");
const providerProto = require("@pulumi/pulumi/proto/provider_pb");
const engineRpc = require("@pulumi/pulumi/proto/engine_grpc_pb");
const { Struct } = require("google-protobuf/google/protobuf/struct_pb");
const { Empty } = require("google-protobuf/google/protobuf/empty_pb");

const PLUGIN = path.resolve(__dirname, "..", "..", "plugin", "pulumi-resource-platform");
const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
const CLIENT = { clientId: "plugin-client", clientSecret: "plugin-client-secret-4d1f", audience: "127.0.0.1" };
const urn = (type: string, name: string) => `urn:pulumi:dev::project::platform:index:${type}::${name}`;

type Call = (method: string, request: unknown) => Promise<{ toObject(): Record<string, unknown>; getInputs?(): { toJavaScript(): unknown } }>;

/** An engine of our own: records what the plugin logs (`onLine` hears each line as it comes). */
async function startEngine(): Promise<{ address: string; lines: string[]; onLine: (line: string) => void; stop: () => void }> {
    const engine = { address: "", lines: [] as string[], onLine: (_line: string) => undefined as void, stop: () => undefined as void };
    const server = new grpc.Server();
    server.addService(engineRpc.EngineService, {
        log: (call: { request: { getMessage(): string } }, callback: (error: null, response: unknown) => void) => {
            engine.lines.push(call.request.getMessage());
            engine.onLine(call.request.getMessage());
            callback(null, new Empty());
        },
    });
    const port = await new Promise<number>((resolve, reject) =>
        server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
    );
    return Object.assign(engine, { address: `127.0.0.1:${port}`, stop: () => server.forceShutdown() });
}

/** The plugin process as the CLI starts it (its stdin a pipe the engine holds), and a client of its provider service. */
async function startPlugin(engineAddress: string, env: NodeJS.ProcessEnv): Promise<{ call: Call; stop: () => void; child: ChildProcess }> {
    const child: ChildProcess = spawn(PLUGIN, [engineAddress], { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
    // What the plugin prints on stderr (the protocol server's own stack traces of failed calls) is the engine's to hide.
    child.stderr!.resume();
    const port = await new Promise<string>((resolve, reject) => {
        readline.createInterface({ input: child.stdout! }).once("line", resolve);
        child.once("exit", (code) => reject(new Error(`the plugin exited ${code}`)));
    });
    const client = new providerRpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    const call: Call = (method, request) =>
        new Promise((resolve, reject) => client[method](request, (error: Error | null, response: never) => (error ? reject(error) : resolve(response))));
    return { call, child, stop: () => (client.close(), child.kill("SIGKILL")) };
}

/** The engine's Create of a checked resource: a preview's (nothing is created) or an update's. */
function createRequest(type: string, name: string, checked: { getInputs?(): unknown }, preview: boolean) {
    const request = new providerProto.CreateRequest();
    request.setUrn(urn(type, name));
    request.setProperties(checked.getInputs!());
    request.setPreview(preview);
    return request;
}

function checkRequest(type: string, name: string, news: Record<string, unknown>) {
    const request = new providerProto.CheckRequest();
    request.setUrn(urn(type, name));
    request.setOlds(Struct.fromJavaScript({}));
    request.setNews(Struct.fromJavaScript(news));
    return request;
}

describe("the provider plugin process (plugin/pulumi-resource-platform)", function () {
    this.timeout(60_000);
    const emulator = useEmulator({
        clients: [CLIENT],
        members: [{ name: "Grace Hopper", email: "grace@example.com", roles: ["admin"], invitePending: false }],
        brokers: 3,
        partitions: 3,
        replicationFactor: 3,
    });
    let engine: Awaited<ReturnType<typeof startEngine>>;
    let plugin: Awaited<ReturnType<typeof startPlugin>>;
    const credentials = () => ({
        ...SECRET,
        value: { clientId: CLIENT.clientId, clientSecret: CLIENT.clientSecret, oauthUrl: emulator().authUrl, baseUrl: emulator().baseUrl },
    });

    beforeEach(async () => {
        engine = await startEngine();
        plugin = await startPlugin(engine.address, { PLATFORM_TOKEN_CACHE_DIR: fs.mkdtempSync(path.join(require("os").tmpdir(), "plugin-tokens-")) });
    });
    afterEach(() => {
        plugin.stop();
        engine.stop();
    });

    it("answers GetSchema with plugin/schema.json", async () => {
        const response = await plugin.call("getSchema", new providerProto.GetSchemaRequest());
        assert.deepEqual(JSON.parse(response.toObject().schema as string), JSON.parse(fs.readFileSync(SCHEMA_FILE, "utf8")));
    });

    it("check: a bad email is refused naming the field (not its value); a secret input comes back a secret; the plan's line reaches the engine at the preview's create", async () => {
        const bad = await plugin.call(
            "check",
            checkRequest("OrganizationMember", "grace", { email: "not-an-email", roles: ["admin"], credentials: credentials() }),
        );
        // A failure of the resource naming the field first (as a dynamic provider's: the engine would print the value).
        assert.deepEqual(bad.toObject().failuresList, [{ property: "", reason: "email is not an email address (name@domain.tld)" }]);

        const good = await plugin.call(
            "check",
            checkRequest("OrganizationMember", "grace", { email: "grace@example.com", roles: ["admin", "developer"], credentials: credentials() }),
        );
        assert.deepEqual(good.toObject().failuresList, []);
        const inputs = good.getInputs!().toJavaScript() as Record<string, Record<string, unknown>>;
        assert.equal(inputs.credentials["4dabf18193072939515e22adb298388d"], SECRET["4dabf18193072939515e22adb298388d"], "credentials came back in plain text");
        const adopts = () => engine.lines.filter((line) => line.startsWith('OrganizationMember "grace": adopts existing member grace@example.com'));
        assert.deepEqual(adopts(), [], "the plan was shown before the engine said whether it runs a preview");
        const preview = await plugin.call("create", createRequest("OrganizationMember", "grace", good, true));
        assert.equal(adopts().length, 1, engine.lines.join("\n"));
        assert.deepEqual(preview.toObject().id, "", "a preview's create made something");
        assert.deepEqual(emulator().control.members()[0].roles, ["admin"], "a preview's create changed the member");
        assert.ok(!engine.lines.join("\n").includes(CLIENT.clientSecret));
    });

    it("one plan: in an update (a Create without preview) the plan's lines of check are dropped, the update's own shown; then checks know the pass", async () => {
        const news = { email: "grace@example.com", roles: ["admin", "developer"], credentials: credentials() };
        const checked = await plugin.call("check", checkRequest("OrganizationMember", "grace", news));
        await plugin.call("create", createRequest("OrganizationMember", "grace", checked, false));
        assert.deepEqual(
            engine.lines.filter((line) => line.startsWith('OrganizationMember "grace"')),
            ['OrganizationMember "grace": adopted existing member grace@example.com (roles admin → admin, developer)'],
        );
        // The pass is known: a check plans no more (as a TypeScript program's check in an update).
        engine.lines.length = 0;
        const again = await plugin.call("check", checkRequest("OrganizationMember", "ada", { ...news, email: "ada@example.com" }));
        assert.deepEqual(again.toObject().failuresList, []);
        assert.deepEqual(engine.lines, []);
    });

    it("one plan: a check still running when an update's Create tells the pass shows no plan, even as it ends after it", async () => {
        emulator().control.reset({ brokers: 3, partitions: 3, replicationFactor: 3, running: [0, 1, 2, 3, 4], opMs: 10 });
        emulator().control.addFault({ interface: "management", count: 1, delayMs: 1_500 });
        const layout = { managementUrl: emulator().managementUrl, brokerCount: 5, partitionCount: 3, replicationFactor: 3 };
        const scale = plugin.call("check", checkRequest("ClusterScale", "cluster", layout));
        // Its dry run reached the cluster (the fault was taken): the check plans, and waits for the answer.
        const pendingFaults = () => (emulator().control.state() as { faults: unknown[] }).faults.length;
        while (pendingFaults() > 0) await new Promise((resolve) => setTimeout(resolve, 20));
        const member = await plugin.call(
            "check",
            checkRequest("OrganizationMember", "grace", { email: "grace@example.com", roles: ["admin"], credentials: credentials() }),
        );
        await plugin.call("create", createRequest("OrganizationMember", "grace", member, false));
        assert.deepEqual((await scale).toObject().failuresList, []);
        assert.deepEqual(
            engine.lines.filter((line) => line.startsWith('ClusterScale "cluster"')),
            [],
            "the update showed the plan of a check that began before it knew its pass",
        );
    });

    it("its engine gone (the engine's end of stdin closed): it exits within seconds", async () => {
        const exited = new Promise((resolve) => plugin.child.once("exit", resolve));
        plugin.child.stdin!.end();
        const late = new Promise((resolve) => setTimeout(() => resolve("late"), 10_000).unref());
        assert.notEqual(await Promise.race([exited, late]), "late", "the plugin still ran 10 s after its engine went");
    });

    it("Cancel while ClusterScale waits for its change: the create fails at once, the change's id kept (a partial failure); nothing more is sent", async () => {
        emulator().control.reset({ brokers: 3, partitions: 3, replicationFactor: 3, running: [0, 1, 2, 3, 4], opMs: 400 });
        const auth = { ...SECRET, value: { headers: { authorization: "Bearer kept-secret-8c1f" } } };
        const news = { managementUrl: emulator().managementUrl, auth, brokerCount: 5, partitionCount: 3, replicationFactor: 3, timeoutSeconds: 600 };
        const checked = await plugin.call("check", checkRequest("ClusterScale", "cluster", news));
        const request = new providerProto.CreateRequest();
        request.setUrn(urn("ClusterScale", "cluster"));
        request.setProperties(checked.getInputs!());
        const accepted = new Promise<void>((resolve) => (engine.onLine = (line) => line.includes("accepted") && resolve()));
        const create = plugin.call("create", request).then(
            () => assert.fail("the create completed"),
            (error: unknown) => error as Error & { metadata: grpc.Metadata },
        );
        await accepted;
        await plugin.call("cancel", new Empty());
        const error = await create;
        const served = emulator().control.requests().length;
        assert.match(
            error.message,
            /ClusterScale "cluster": the run was cancelled while change \d+ ran: it goes on in the cluster, and the next up waits for it/,
        );
        const kept = initFailureOf(error.metadata)?.properties as { lastChange?: { status: string }; auth?: unknown } | undefined;
        assert.equal(kept?.lastChange?.status, "IN_PROGRESS", "no partial failure keeping the change: its id would be lost");
        assert.ok(!("__provider" in kept), "the plugin's partial failure carries a dynamic provider's shim");
        // The partial failure keeps no credentials (the next up takes them from its inputs); kept ones would be secrets.
        assert.ok(kept.auth === undefined || isSecretEnvelope(kept.auth), "the partial failure keeps the credentials in plain text");
        assert.ok(!JSON.stringify({ ...kept, auth: undefined }).includes("kept-secret-8c1f"), "the partial failure carries the credentials");
        const pending = () => (emulator().control.state() as { pendingChange?: unknown }).pendingChange !== undefined;
        assert.ok(pending(), "the change was no longer running when the create failed");
        while (pending()) await new Promise((resolve) => setTimeout(resolve, 50));
        assert.equal(emulator().control.requests().length, served, "a request reached the cluster after the Cancel");
    });

    /** The emails getMembers lists when invoked with `args`. */
    const listedEmails = async (args: Record<string, unknown>): Promise<string[]> => {
        const request = new providerProto.InvokeRequest();
        request.setTok("platform:index:getMembers");
        request.setArgs(Struct.fromJavaScript(args));
        const response = (await plugin.call("invoke", request)) as unknown as { getReturn(): { toJavaScript(): { members: { email: string }[] } } };
        return response
            .getReturn()
            .toJavaScript()
            .members.map((member) => member.email);
    };

    /** A CheckRequest/DiffRequest of the provider's own settings (CheckConfig and DiffConfig take them). */
    const configRequest = (kind: "CheckRequest" | "DiffRequest", olds: Record<string, unknown>, news: Record<string, unknown>) => {
        const request = new providerProto[kind]();
        request.setUrn("urn:pulumi:dev::project::pulumi:providers:platform::default");
        request.setOlds(Struct.fromJavaScript(olds));
        request.setNews(Struct.fromJavaScript(news));
        return request;
    };

    it("CheckConfig refuses a setting that breaks its rule, naming the key; a secret setting comes back a secret", async () => {
        const bad = await plugin.call("checkConfig", configRequest("CheckRequest", {}, { managementUrl: "gateway:9600/x", baseUrl: "ftp://admin" }));
        assert.deepEqual(bad.toObject().failuresList, [
            {
                property: "managementUrl",
                reason: "platform:managementUrl must be an absolute http(s) origin without path, query or credentials, e.g. http://gateway:9600",
            },
            { property: "baseUrl", reason: "platform:baseUrl must be an absolute http(s) URL without credentials" },
        ]);
        const good = await plugin.call(
            "checkConfig",
            configRequest("CheckRequest", {}, { managementUrl: emulator().managementUrl, clientSecret: CLIENT.clientSecret }),
        );
        assert.deepEqual(good.toObject().failuresList, []);
        const inputs = good.getInputs!().toJavaScript() as Record<string, unknown>;
        assert.equal(inputs.managementUrl, emulator().managementUrl);
        assert.deepEqual(inputs.clientSecret, { ...SECRET, value: CLIENT.clientSecret }, "the client secret came back in plain text");
    });

    it("DiffConfig: a changed setting is an update of the provider that replaces nothing (no resource under it is replaced)", async () => {
        const olds = { managementUrl: "http://old:9600", clientSecret: { ...SECRET, value: "a" } };
        const changed = await plugin.call("diffConfig", configRequest("DiffRequest", olds, { ...olds, managementUrl: "http://new:9600" }));
        assert.equal(changed.toObject().changes, providerProto.DiffResponse.DiffChanges.DIFF_SOME);
        assert.deepEqual(changed.toObject().replacesList, []);
        const same = await plugin.call("diffConfig", configRequest("DiffRequest", olds, { ...olds }));
        assert.equal(same.toObject().changes, providerProto.DiffResponse.DiffChanges.DIFF_NONE);
    });

    it("Configure: the provider's settings are what a resource or a function without its own falls back to, as stack config is from TypeScript", async () => {
        const configure = new providerProto.ConfigureRequest();
        configure.setArgs(
            Struct.fromJavaScript({
                managementUrl: emulator().managementUrl,
                clientId: CLIENT.clientId,
                clientSecret: { ...SECRET, value: CLIENT.clientSecret },
                oauthUrl: emulator().authUrl,
                baseUrl: emulator().baseUrl,
            }),
        );
        await plugin.call("configure", configure);
        const scale = await plugin.call("check", checkRequest("ClusterScale", "cluster", { brokerCount: 3, partitionCount: 3 }));
        assert.deepEqual(scale.toObject().failuresList, []);
        assert.equal((scale.getInputs!().toJavaScript() as { managementUrl: string }).managementUrl, emulator().managementUrl);
        const member = await plugin.call("check", checkRequest("OrganizationMember", "grace", { email: "grace@example.com", roles: ["admin"] }));
        assert.deepEqual(member.toObject().failuresList, []);
        await plugin.call("create", createRequest("OrganizationMember", "grace", member, true));
        assert.ok(
            engine.lines.some((line) => line.startsWith('OrganizationMember "grace": adopts existing member grace@example.com')),
            engine.lines.join("\n"),
        );
        assert.deepEqual(await listedEmails({}), ["grace@example.com"]);
    });

    it("check of an unknown type fails naming it", async () => {
        await assert.rejects(plugin.call("check", checkRequest("Nothing", "x", {})), /unknown resource type Nothing/);
    });

    it("invoke getMembers lists the organization with the credentials given", async () => {
        const args = {
            clientId: CLIENT.clientId,
            clientSecret: { ...SECRET, value: CLIENT.clientSecret },
            oauthUrl: emulator().authUrl,
            baseUrl: emulator().baseUrl,
        };
        assert.deepEqual(await listedEmails(args), ["grace@example.com"]);
    });
});
