// The package as users get it: `npm pack`, installed from the tarball into a fresh project outside this
// repository, whose program (a ClusterScale and an AdminClient, imported from "pulumi-platform") runs through
// the real dynamic-provider host against the emulator: preview, up, refresh, destroy.
//
// Inside this repository the closure serializer embeds the package's own code by value (it is not under
// node_modules); installed from npm, the serialized providers `require` the package's files instead. Only a
// consumer project shows that those paths resolve, in the program and in the provider host.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { ClusterClient } from "../../sdk/cluster/clusterClient";
import { RequestLogEntry, RunningEmulator, startEmulator } from "../emulator";
import { Command, runPulumi, RunPulumiResult, unwrapSecrets } from "../engine";
import type { PropertyValue } from "../engine";

const run = promisify(execFile);
const REPOSITORY = resolve(__dirname, "..", "..");
const CLIENT = { clientId: "consumer-client", clientSecret: `consumer-secret-${randomBytes(12).toString("hex")}`, audience: "127.0.0.1" };
const MEMBERS = [
    { name: "Grace Hopper", email: "grace@example.com", roles: ["owner"], invitePending: false },
    { name: "Alan Turing", email: "alan@example.com", roles: ["developer"], invitePending: true },
];
const PROJECT = "platform-consumer";
const PLUGIN_FILES = ["plugin/PulumiPlugin.yaml", "plugin/package.json", "plugin/schema.json", "plugin/pulumi-resource-platform"];
// policy/package.json makes `pulumi-platform/policy` resolve; policy-pack/ is the ready pack `--policy-pack` runs as it is.
const POLICY_FILES = [
    "policy/package.json",
    "policy-pack/PulumiPolicy.yaml",
    "policy-pack/package.json",
    "policy-pack/index.js",
    "policy-pack/config.example.json",
];
const STACK = "dev";
const URN = (type: string, name: string) => `urn:pulumi:${STACK}::${PROJECT}::pulumi-nodejs:dynamic/platform:${type}::${name}`;

/** The consumer's program, as a user would write it. */
const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import { AdminClient, ClusterScale, OrganizationMember } from "pulumi-platform";
import type { ClusterScaleArgs } from "pulumi-platform";

const config = new pulumi.Config();
const layout: ClusterScaleArgs = { brokerCount: config.requireNumber("brokerCount"), timeoutSeconds: 120 };
const cluster = new ClusterScale("cluster", layout);
const admin = new AdminClient("admin");
const alan = new OrganizationMember("alan", { email: "alan@example.com", roles: ["developer"] });

export const changeId = cluster.changeId;
export const brokerIds = cluster.topology.apply((brokers) => brokers.map((broker) => broker.id));
export const partitionCount = cluster.partitionCount;
export const memberEmails = admin.members.apply((members) => members.map((member) => member.email).sort());
export const alanPending = alan.invitePending;
`;

/** A script of the same project that uses the SDK directly (type-checked only). */
const SCRIPT = `import { sdk } from "pulumi-platform";

export async function brokerIds(managementUrl: string): Promise<number[]> {
    const state: sdk.ClusterState = await new sdk.ClusterClient({ managementUrl }).getCluster({ retry: false });
    return state.brokers.map((broker) => broker.id);
}
`;

/** Variables an npm script hands its children that would make a nested npm act on this repository. */
function npmEnvironment(): NodeJS.ProcessEnv {
    const kept = ["npm_config_cache", "npm_config_userconfig", "npm_config_globalconfig", "npm_config_cafile", "npm_config_registry"];
    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) {
        if (!/^npm_/i.test(key) || kept.includes(key.toLowerCase())) env[key] = value;
    }
    return env;
}

async function npm(args: string[], cwd: string): Promise<string> {
    try {
        const { stdout } = await run("npm", args, { cwd, env: npmEnvironment(), maxBuffer: 64 * 1024 * 1024 });
        return stdout;
    } catch (error) {
        const failed = error as Error & { stdout?: string; stderr?: string };
        throw new Error(`npm ${args.join(" ")} failed in ${cwd}: ${failed.message}\n${failed.stdout ?? ""}\n${failed.stderr ?? ""}`);
    }
}

/** The version of a package this repository has installed: the consumer asks for the same, which npm ci cached. */
function installedVersion(name: string): string {
    return (JSON.parse(readFileSync(require.resolve(`${name}/package.json`, { paths: [REPOSITORY] }), "utf8")) as { version: string }).version;
}

describe("the packed package, installed in a consumer project", function () {
    // npm install from the cache warmed by npm ci; packuments may come from the registry on a fresh machine.
    this.timeout(600_000);
    let work: string;
    let consumer: string;
    let packedFiles: string[];
    let emulator: RunningEmulator;

    before(async () => {
        work = mkdtempSync(join(tmpdir(), "platform-pack-"));
        // Incremental: a no-op when `npm test` has just built. --ignore-scripts: prepack would rebuild from scratch.
        await npm(["run", "build"], REPOSITORY);
        const [packed] = JSON.parse(await npm(["pack", "--json", "--ignore-scripts", "--pack-destination", work], REPOSITORY)) as {
            filename: string;
            files: { path: string }[];
        }[];
        packedFiles = packed.files.map((file) => file.path);

        consumer = join(work, "consumer");
        mkdirSync(consumer);
        const manifest = {
            name: PROJECT,
            private: true,
            dependencies: {
                "pulumi-platform": `file:${join(work, packed.filename)}`,
                // The repository's version, or the one a run on another Node line asks for (the newest that line allows).
                "@pulumi/pulumi": process.env.PLATFORM_CONSUMER_PULUMI ?? installedVersion("@pulumi/pulumi"),
            },
            devDependencies: {
                typescript: installedVersion("typescript"),
                "ts-node": installedVersion("ts-node"),
                "@types/node": installedVersion("@types/node"),
            },
        };
        writeFileSync(join(consumer, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
        writeFileSync(join(consumer, "Pulumi.yaml"), `name: ${PROJECT}\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n`);
        writeFileSync(join(consumer, "index.ts"), PROGRAM);
        writeFileSync(join(consumer, "script.ts"), SCRIPT);
        const compilerOptions = {
            strict: true,
            target: "ES2022",
            module: "commonjs",
            moduleResolution: "node",
            esModuleInterop: true,
            skipLibCheck: true,
            types: ["node"],
        };
        writeFileSync(join(consumer, "tsconfig.json"), `${JSON.stringify({ compilerOptions, files: ["index.ts", "script.ts"] }, null, 2)}\n`);
        // --ignore-scripts: a dependency's install script (@pulumi/kubernetes asks the Pulumi CLI for its plugin) must not reach the network.
        await npm(["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts"], consumer);

        emulator = await startEmulator({ opMs: 10, brokers: 3, partitions: 3, replicationFactor: 3, clients: [CLIENT], members: MEMBERS });
        emulator.control.startBroker(3); // a new pod, running before the layout names it
    });

    after(async () => {
        await emulator?.close();
        if (work) rmSync(work, { recursive: true, force: true });
    });

    const stateFile = () => join(work, "state.json");
    const pulumi = async (command: Command): Promise<{ result: RunPulumiResult; requests: RequestLogEntry[] }> => {
        emulator.control.clearRequests();
        const result = await runPulumi({
            command,
            programDir: consumer,
            stack: STACK,
            stateFile: stateFile(),
            config: {
                brokerCount: "4",
                "platform:managementUrl": emulator.managementUrl,
                "platform:clientId": CLIENT.clientId,
                "platform:oauthUrl": emulator.authUrl,
                "platform:baseUrl": emulator.baseUrl,
            },
            secrets: { "platform:clientSecret": CLIENT.clientSecret },
            // A run takes seconds; a provider that cannot be serialized makes it hang until killed.
            timeoutMs: 90_000,
            env: {
                PULUMI_CONFIG_PASSPHRASE: "consumer",
                PLATFORM_TOKEN_CACHE_DIR: join(work, "tokens"),
                // Only the stack config above: none of the caller's settings.
                PLATFORM_MANAGEMENT_URL: undefined,
                PLATFORM_GATEWAY_URL: undefined,
                PLATFORM_CONSOLE_CLIENT_ID: undefined,
                PLATFORM_CONSOLE_CLIENT_SECRET: undefined,
                PLATFORM_TOKEN_DISK_CACHE: undefined,
            },
        });
        assert.equal(result.exitCode, 0, `${command} exited ${result.exitCode}\n${result.stdout}\n${result.stderr}`);
        if (existsSync(stateFile()))
            assert.ok(!readFileSync(stateFile(), "utf8").includes(CLIENT.clientSecret), `${command}: the client secret is in the state file`);
        return { result, requests: emulator.control.requests() };
    };
    const output = (result: RunPulumiResult, name: string): PropertyValue => unwrapSecrets(result.outputs[name]);
    const lines = (requests: RequestLogEntry[], ...interfaces: string[]) =>
        requests
            .filter((entry) => interfaces.includes(entry.interface))
            .map((entry) => `${entry.method} ${entry.path}${entry.query.dryRun ? "?dryRun=true" : ""} ${entry.status}`);

    it("npm pack ships compiled JavaScript, declarations and the plugin's folder only: no TypeScript sources, no tests", () => {
        const entries = [
            "package.json",
            "README.md",
            "CHANGELOG.md",
            "dist/index.js",
            "dist/index.d.ts",
            "dist/kubernetes.js",
            "kubernetes/package.json",
            ...POLICY_FILES,
        ];
        for (const file of [...entries, "dist/provider/clusterScale/provider.js", "dist/provider/adminClient/provider.js", "dist/sdk/index.d.ts"]) {
            assert.ok(packedFiles.includes(file), `${file} is not in the package`);
        }
        // kubernetes/package.json makes `pulumi-platform/kubernetes` resolve without an exports map.
        const unexpected = packedFiles.filter(
            (file) =>
                ![...["package.json", "README.md", "CHANGELOG.md", "LICENSE", "kubernetes/package.json"], ...POLICY_FILES, ...PLUGIN_FILES].includes(file) &&
                !/^dist\/.+\.(js|d\.ts)$/.test(file),
        );
        assert.deepEqual(unexpected, []);
        const manifest = JSON.parse(readFileSync(join(consumer, "node_modules", "pulumi-platform", "package.json"), "utf8")) as Record<string, unknown>;
        assert.equal(manifest.main, "dist/index.js");
        assert.equal(manifest.types, "dist/index.d.ts");
        assert.equal(manifest.exports, undefined, "an exports map breaks the serialized providers' require()s of the package's files");
    });

    it("is a good guest: one @pulumi/pulumi (the consumer's), no Kubernetes packages unless asked; pulumi-platform/kubernetes loads without them", async () => {
        const modules = join(consumer, "node_modules");
        assert.deepEqual(installedCopies(modules, "@pulumi/pulumi"), [join(modules, "@pulumi", "pulumi")]);
        assert.deepEqual(installedCopies(modules, "@pulumi/kubernetes"), []);
        assert.deepEqual(installedCopies(modules, "@kubernetes/client-node"), []);
        const script =
            'const helper = require("pulumi-platform/kubernetes"); console.log(require.resolve("pulumi-platform/kubernetes"), typeof helper.leaveBrokerReplicasToClusterScale)';
        const { stdout } = await run(process.execPath, ["-e", script], { cwd: consumer });
        assert.equal(stdout.trim(), `${join(modules, "pulumi-platform", "dist", "kubernetes.js")} function`);
    });

    it("pulumi-platform/policy loads without @pulumi/policy: the policies are plain objects, the pack names both doors' tokens", async () => {
        const modules = join(consumer, "node_modules");
        assert.deepEqual(installedCopies(modules, "@pulumi/policy"), []);
        const script = [
            'const policy = require("pulumi-platform/policy");',
            "console.log(JSON.stringify({",
            '  path: require.resolve("pulumi-platform/policy"),',
            "  names: policy.platformPolicies().map((entry) => entry.name),",
            '  tokens: policy.typeTokens("ClusterScale"),',
            "}));",
        ].join("\n");
        const { stdout } = await run(process.execPath, ["-e", script], { cwd: consumer });
        const loaded = JSON.parse(stdout) as { path: string; names: string[]; tokens: string[] };
        assert.equal(loaded.path, join(modules, "pulumi-platform", "dist", "policy", "index.js"));
        assert.equal(loaded.names.length, 10);
        assert.ok(
            loaded.names.every((name) => name.startsWith("platform-")),
            loaded.names.join(", "),
        );
        assert.deepEqual(loaded.tokens, ["pulumi-nodejs:dynamic/platform:ClusterScale", "platform:index:ClusterScale"]);
        const pack = readFileSync(join(modules, "pulumi-platform", "policy-pack", "index.js"), "utf8");
        assert.match(pack, /require\("\.\.\/dist\/policy\/index\.js"\)/);
    });

    it("loads with plain Node from the consumer's node_modules (no ts-node, no TypeScript)", async () => {
        const script = [
            'const p = require("pulumi-platform");',
            "console.log(JSON.stringify({",
            '  path: require.resolve("pulumi-platform"),',
            '  exports: Object.keys(p).filter((name) => typeof p[name] === "function").sort(),',
            '  sdk: Object.keys(p.sdk).filter((name) => typeof p.sdk[name] === "function").sort(),',
            "  hooks: Object.keys(require.extensions),",
            "}));",
        ].join("\n");
        const { stdout } = await run(process.execPath, ["-e", script], { cwd: consumer });
        const loaded = JSON.parse(stdout) as { path: string; exports: string[]; sdk: string[]; hooks: string[] };
        assert.equal(loaded.path, join(consumer, "node_modules", "pulumi-platform", "dist", "index.js"));
        assert.deepEqual(loaded.exports, [
            "AdminClient",
            "Cluster",
            "ClusterClient",
            "ClusterScale",
            "ConnectorSecret",
            "IpAllowlist",
            "OrganizationMember",
            "getClusterParameters",
            "getClusterParametersOutput",
            "getMembers",
            "getMembersOutput",
        ]);
        for (const name of ["AdminApiClient", "AdminClient", "ClusterClient", "GatewayClient", "TokenClient", "waitForChange", "PlatformError"]) {
            assert.ok(loaded.sdk.includes(name), `sdk.${name} is not exported`);
        }
        assert.ok(!loaded.hooks.includes(".ts"), "something registered a TypeScript loader");
    });

    it("ships the provider plugin for other languages: its folder starts with plain Node and answers its schema", async () => {
        for (const file of [...PLUGIN_FILES, "dist/provider/plugin/main.js"]) {
            assert.ok(packedFiles.includes(file), `${file} is not in the package`);
        }
        const pluginDir = join(consumer, "node_modules", "pulumi-platform", "plugin");
        // The launcher an engine starts (no Node language host): it prints the port it serves on, then answers GetSchema.
        const script = [
            'const { spawn } = require("child_process");',
            'const grpc = require(require.resolve("@grpc/grpc-js", { paths: [require("path").dirname(require.resolve("@pulumi/pulumi"))] }));',
            'const rpc = require("@pulumi/pulumi/proto/provider_grpc_pb");',
            'const providerProto = require("@pulumi/pulumi/proto/provider_pb");',
            `const child = spawn(${JSON.stringify(join(pluginDir, "pulumi-resource-platform"))}, [], { stdio: ["ignore", "pipe", "inherit"] });`,
            'process.on("exit", () => child.kill());',
            'child.stdout.once("data", (port) => {',
            "  const client = new rpc.ResourceProviderClient(`127.0.0.1:${String(port).trim()}`, grpc.credentials.createInsecure());",
            "  client.getSchema(new providerProto.GetSchemaRequest(), (error, response) => {",
            "    child.kill();",
            "    if (error) { console.error(error.message); process.exit(1); }",
            "    console.log(response.getSchema());",
            "    process.exit(0);",
            "  });",
            "});",
        ].join("\n");
        const { stdout } = await run(process.execPath, ["-e", script], {
            cwd: consumer,
            env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}` },
            timeout: 60_000,
        });
        const schema = JSON.parse(stdout) as { name: string; version: string; resources: Record<string, unknown> };
        assert.equal(schema.name, "platform");
        assert.equal(schema.version, JSON.parse(readFileSync(join(REPOSITORY, "package.json"), "utf8")).version);
        assert.ok("platform:index:ClusterScale" in schema.resources);
        assert.deepEqual(JSON.parse(readFileSync(join(pluginDir, "schema.json"), "utf8")), schema);
    });

    it("the consumer's program and SDK script type-check against the shipped declarations, with the consumer's own TypeScript", async () => {
        const tsc = join(consumer, "node_modules", "typescript", "bin", "tsc");
        await run(process.execPath, [tsc, "--noEmit", "-p", consumer], { cwd: consumer }).catch((error: Error & { stdout?: string }) => {
            throw new Error(`tsc failed: ${error.stdout ?? error.message}`);
        });
    });

    describe("preview, up, refresh and destroy of the consumer's program", () => {
        // One story: once a step has failed, the later ones have nothing to work on.
        let failed = false;
        beforeEach(function () {
            if (failed) this.skip();
        });
        afterEach(function () {
            if (this.currentTest?.state === "failed") failed = true;
        });

        it("preview shows the cluster's plan from one dry run and changes nothing", async () => {
            const { result, requests } = await pulumi("preview");
            const hostLines = result.diagnostics.map((diagnostic) => diagnostic.line);
            assert.ok(
                hostLines.some((line) => line.startsWith('ClusterScale "cluster": up will apply 8 operations (change 2)')),
                result.stdout,
            );
            assert.ok(hostLines.includes("  brokers added: 3"), result.stdout);
            assert.ok(hostLines.includes('OrganizationMember "alan": adopts existing member alan@example.com (roles developer, unchanged)'), result.stdout);
            assert.deepEqual(lines(requests, "management", "gateway"), ["POST /actuator/cluster/brokers?dryRun=true 202"]);
            assert.deepEqual(lines(requests, "admin"), ["GET /members 200"]);
            assert.deepEqual(
                result.steps
                    .filter((step) => step.type.startsWith("pulumi-nodejs:"))
                    .map((step) => `${step.op} ${step.name}`)
                    .sort(),
                ["create admin", "create alan", "create cluster"],
            );
        });

        it("up applies the layout and lists the members; the stored providers require the installed package's files", async () => {
            const { result, requests } = await pulumi("up");
            assert.deepEqual(output(result, "brokerIds"), [0, 1, 2, 3]);
            assert.equal(output(result, "changeId"), 2);
            assert.equal(output(result, "partitionCount"), 3);
            assert.deepEqual(output(result, "memberEmails"), ["alan@example.com", "grace@example.com"]);
            assert.equal(output(result, "alanPending"), true);
            const sent = lines(requests, "management").filter((line) => !line.startsWith("GET ") && !line.includes("dryRun=true"));
            assert.deepEqual(sent, ["POST /actuator/cluster/brokers 202"]);
            // The token the preview got serves both passes of the up (the disk cache); the members are only read.
            assert.deepEqual(lines(requests, "auth"), []);
            assert.deepEqual([...new Set(lines(requests, "admin"))], ["GET /members 200"]);

            const entries = {
                ClusterScale: "pulumi-platform/dist/provider/clusterScale/provider",
                AdminClient: "pulumi-platform/dist/provider/adminClient/provider",
                OrganizationMember: "pulumi-platform/dist/provider/organizationMember/provider",
            };
            for (const [type, name] of [
                ["ClusterScale", "cluster"],
                ["AdminClient", "admin"],
                ["OrganizationMember", "alan"],
            ] as const) {
                // The stored provider is the shim: it requires the package's public entry module, installed in the consumer.
                const provider = String(unwrapSecrets(result.state.resources[URN(type, name)].outputs.__provider));
                assert.ok(Buffer.byteLength(provider) <= 2_048, `${type}: ${Buffer.byteLength(provider)} bytes`);
                assert.ok(provider.includes(JSON.stringify(entries[type])), `${type}: the shim does not name ${entries[type]}`);
                assert.ok(require.resolve(entries[type], { paths: [consumer] }).startsWith(join(consumer, "node_modules")), entries[type]);
                assert.ok(!provider.includes(REPOSITORY) && !provider.includes(work), `${type}: a local path is in the serialized provider`);
                for (const code of ["function checkInputs(", "function resolveAdminSettings(", "function composeMessage(", "undici"]) {
                    assert.ok(!provider.includes(code), `${type}: the package's code (${code}) is embedded by value`);
                }
            }
        });

        it("refresh reads the live cluster and lists the members again, sending no change", async () => {
            const { result, requests } = await pulumi("refresh");
            assert.deepEqual(
                lines(requests, "management").filter((line) => !line.startsWith("GET ")),
                [],
            );
            assert.ok(lines(requests, "management").includes("GET /actuator/cluster 200"));
            assert.ok(lines(requests, "admin").includes("GET /members 200"));
            const cluster = result.state.resources[URN("ClusterScale", "cluster")];
            assert.deepEqual(cluster.inputs.brokerCount, 4);
            assert.equal(result.state.resources[URN("AdminClient", "admin")].outputs.memberCount, 2);
        });

        it("destroy removes them from the stack, leaves the cluster as it is, and removes the member it declared", async () => {
            const { result, requests } = await pulumi("destroy");
            assert.deepEqual(lines(requests, "management", "gateway"), []);
            assert.deepEqual(lines(requests, "admin"), ["GET /members 200", "DELETE /members/alan%40example.com 204"]);
            assert.deepEqual(Object.keys(result.state.resources), []);
            const cluster = await new ClusterClient({ managementUrl: emulator.managementUrl }).getCluster();
            assert.deepEqual(cluster.brokers.map((broker) => broker.id).sort(), [0, 1, 2, 3]);
        });
    });
});

/** Every installed copy of a package below a node_modules directory (nested ones included). */
function installedCopies(modules: string, name: string): string[] {
    const copies: string[] = [];
    const visit = (dir: string): void => {
        if (!existsSync(dir)) return;
        if (existsSync(join(dir, name, "package.json"))) copies.push(join(dir, name));
        for (const entry of readdirSync(dir)) {
            const scoped = entry.startsWith("@") ? readdirSync(join(dir, entry)).map((inner) => join(dir, entry, inner)) : [join(dir, entry)];
            for (const packageDir of scoped) visit(join(packageDir, "node_modules"));
        }
    };
    visit(modules);
    return copies.sort();
}
