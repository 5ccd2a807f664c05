// npm run release, as the languages tier builds it (its tools: the SDK generator and the Python environment): the
// plugin's archive under each platform's asset name, with the launcher at the root, no PulumiPlugin.yaml and no links
// the CLI refuses, and its checksums; the Python wheel and sdist naming the plugin and its release location; the Go
// module at its import path, which builds. Started from its own folder, the unpacked plugin serves with plain Node.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { once } from "node:events";
import { CHECKSUMS, release, sha256 } from "../../plugin/release/release";
import { PLATFORMS, assetName } from "../../plugin/release/pluginTarball";
import { nodeFreeAssetName, ownPlatform } from "../../plugin/release/nodeFreePlugin";
import { useEmulator } from "../support/emulator";
import { printed, succeeded } from "../cli/cliAssertions";
import { type CliResult, CliStack } from "../cli/cliStack";
import { examplesPlatform } from "../cli/examplesPlatform";
import { pulumiBin } from "../cli/pulumiBin";
import { PULUMI_SDK_MATCH } from "../tools/pulumi";
import { toolDir } from "../tools/toolsDir";
import { REPOSITORY, packageInfo } from "../tools/writeSchema";
import { YAML_VERSION } from "../tools/yaml";
import { TYPESCRIPT_REQUIRE } from "../support/typescriptRequire";
import { PULUMI_LAGGING } from "../tools/pulumi";
import { ReleaseServer } from "./releaseServer";

const { version } = packageInfo();
const SERVER = "github://api.github.com/pulumi-platform/pulumi-platform";
const CLIENT = { clientId: "release-client", clientSecret: "release-secret-0123456789", audience: "127.0.0.1" };
/** This machine's asset: the CLI asks for its own os and arch. */
const OWN_ASSET = assetName(version, ownPlatform());

/** A new user's PATH: pulumi, node, the language's own tools, the system's; no plugin launcher anywhere on it. */
async function newUserPath(...languageTools: string[]): Promise<string> {
    return newUserPathWith(PULUMI_SDK_MATCH, ...languageTools);
}

async function newUserPathWith(cli: string, ...languageTools: string[]): Promise<string> {
    return [await pulumiBin(cli), ...languageTools, path.dirname(process.execPath), "/usr/bin", "/bin"].join(path.delimiter);
}

/** The plugin as the CLI installed it in the stack's PULUMI_HOME (and not from PATH). */
function assertInstalledPlugin(stack: CliStack, results: CliResult[]): void {
    const plugin = path.join(stack.workDir, "home", "plugins", `resource-platform-v${version}`, "pulumi-resource-platform");
    assert.ok(fs.existsSync(plugin), `${plugin} is missing`);
    assert.ok(!fs.existsSync(path.join(path.dirname(plugin), "PulumiPlugin.yaml")));
    for (const result of results) assert.ok(!result.lines.some((line) => line.includes("pulumi-resource-platform from $PATH")), result.lines.join("\n"));
}

/** The provider's settings from stack config, as a user sets them, for the emulator. */
function platformConfig(emulator: ReturnType<ReturnType<typeof useEmulator>>): Record<string, string> {
    return {
        "platform:managementUrl": emulator.managementUrl,
        "platform:clientId": CLIENT.clientId,
        "platform:oauthUrl": emulator.authUrl,
        "platform:baseUrl": emulator.baseUrl,
    };
}

describe("npm run release", function () {
    this.timeout(240_000);
    let out: string;
    let files: string[];
    before(async () => {
        out = fs.mkdtempSync(path.join(os.tmpdir(), "platform-release-test-"));
        files = await release(out, { nodeFree: true });
    });
    after(() => fs.rmSync(out, { recursive: true, force: true }));

    it("writes the plugin's archive for linux, darwin and windows × amd64 and arm64, this platform's node-free one, and their checksums", () => {
        const archives = [...PLATFORMS.map((platform) => assetName(version, platform)), nodeFreeAssetName(version, ownPlatform())];
        assert.deepEqual(archives.slice(0, 2), [
            `pulumi-resource-platform-v${version}-linux-amd64.tar.gz`,
            `pulumi-resource-platform-v${version}-linux-arm64.tar.gz`,
        ]);
        for (const name of [...archives, CHECKSUMS]) assert.ok(files.includes(name) && fs.existsSync(path.join(out, name)), `${name} is missing`);
        const listed = fs
            .readFileSync(path.join(out, CHECKSUMS), "utf8")
            .trim()
            .split("\n")
            .map((line) => line.split(/\s+/));
        assert.deepEqual(
            listed.map(([, name]) => name),
            archives,
        );
        for (const [sum, name] of listed) assert.equal(sum, sha256(path.join(out, name)), `${name}: another checksum`);
    });

    it("each archive: the launchers at its root, the code, the schema, production node_modules; no PulumiPlugin.yaml, no links", () => {
        const archive = path.join(out, assetName(version, "linux-amd64"));
        const entries = execFileSync("tar", ["-tvzf", archive], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })
            .trim()
            .split("\n");
        const names = entries.map((entry) => entry.split(/\s+/).slice(5).join(" ").replace(/^\.\//, ""));
        for (const name of [
            "pulumi-resource-platform",
            "pulumi-resource-platform.cmd",
            "README.md",
            "LICENSE",
            "dist/provider/plugin/main.js",
            "plugin/schema.json",
        ]) {
            assert.ok(names.includes(name), `${name} is not in the archive`);
        }
        assert.ok(
            names.includes("node_modules/@pulumi/pulumi/package.json") && names.includes("node_modules/zod/package.json"),
            "a runtime dependency is missing",
        );
        assert.deepEqual(
            names.filter((name) =>
                /PulumiPlugin\.yaml$|^(dist|plugin)\/.*\.ts$|^test\/|node_modules\/\.bin|node_modules\/(typescript|mocha|ts-node)\//.test(name),
            ),
            [],
        );
        // tar -tv: the type is the first letter of the mode; a hard link shows as "h", a symlink as "l".
        assert.deepEqual(
            entries.filter((entry) => !/^[-d]/.test(entry)),
            [],
            "links in the archive",
        );
        const launcher = entries.find((entry) => / \.\/pulumi-resource-platform$/.test(entry));
        assert.match(launcher ?? "", /^-rwxr-xr-x/);
    });

    /** Unpacks `archive` and starts its plugin with `env`: it serves (its first line is its port); answers the folder's files. */
    async function servesUnpacked(archive: string, env: NodeJS.ProcessEnv): Promise<string[]> {
        const folder = fs.mkdtempSync(path.join(os.tmpdir(), "platform-plugin-"));
        try {
            execFileSync("tar", ["-xzf", path.join(out, archive), "-C", folder]);
            const child = spawn(path.join(folder, "pulumi-resource-platform"), [], { cwd: os.tmpdir(), env, stdio: ["ignore", "pipe", "pipe"] });
            const [first] = (await once(child.stdout, "data")) as [Buffer];
            child.kill();
            assert.match(first.toString(), /^\d+\n/);
            return fs.readdirSync(folder);
        } finally {
            fs.rmSync(folder, { recursive: true, force: true });
        }
    }

    it("the unpacked plugin starts with plain Node from its own folder and serves (it prints its port)", async () => {
        await servesUnpacked(assetName(version, "linux-amd64"), {
            PATH: [path.dirname(process.execPath), "/usr/bin", "/bin"].join(path.delimiter),
            HOME: os.tmpdir(),
        });
    });

    it("the node-free plugin: a Node single executable application in the launcher's place, serving with no node on PATH (no PATH at all)", async () => {
        const unpacked = await servesUnpacked(nodeFreeAssetName(version, ownPlatform()), { HOME: os.tmpdir() });
        assert.ok(!unpacked.includes("pulumi-resource-platform.cmd"), unpacked.join(", "));
    });

    it("the Python SDK: a wheel and an sdist of pulumi_platform, naming the plugin, its version and its release location", () => {
        const wheel = `pulumi_platform-${version}-py3-none-any.whl`;
        assert.ok(files.includes(wheel) && files.includes(`pulumi_platform-${version}.tar.gz`), files.join(", "));
        const plugin = execFileSync(
            "python3",
            ["-c", "import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).read('pulumi_platform/pulumi-plugin.json').decode())", path.join(out, wheel)],
            {
                encoding: "utf8",
            },
        );
        assert.deepEqual(JSON.parse(plugin), { resource: true, name: "platform", version, server: SERVER });
    });

    it("the Go SDK: a module at the schema's import path, with pulumi-plugin.json, that builds", () => {
        const module = path.join(out, "sdk", "go");
        assert.match(fs.readFileSync(path.join(module, "go.mod"), "utf8"), /^module github\.com\/pulumi-platform\/pulumi-platform\/sdk\/go\n/);
        assert.deepEqual(JSON.parse(fs.readFileSync(path.join(module, "platform", "pulumi-plugin.json"), "utf8")), {
            resource: true,
            name: "platform",
            version,
            server: SERVER,
        });
        execFileSync("go", ["build", "./..."], { cwd: module, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, GOFLAGS: "-mod=mod" } });
    });

    it("the .NET SDK's sources: PulumiPlatform.Platform at the package's version, naming the plugin and its release location", () => {
        const sources = path.join(out, "sdk", "dotnet");
        assert.ok(files.includes("sdk/dotnet/"), files.join(", "));
        assert.match(
            fs.readFileSync(path.join(sources, "PulumiPlatform.Platform.csproj"), "utf8"),
            new RegExp(`<Version>${version.replace(/\./g, "\\.")}</Version>`),
        );
        assert.match(fs.readFileSync(path.join(sources, "ClusterScale.cs"), "utf8"), /class ClusterScale : global::Pulumi\.CustomResource/);
        assert.deepEqual(JSON.parse(fs.readFileSync(path.join(sources, "pulumi-plugin.json"), "utf8")), {
            resource: true,
            name: "platform",
            version,
            server: SERVER,
        });
    });

    describe("installed as a new user would: an empty PULUMI_HOME, nothing on PATH but pulumi, node and the language's tools", () => {
        const emulator = useEmulator(examplesPlatform([CLIENT]));

        /** The YAML example's stack under CLI `cli`, the plugin installed with `plugin install --file` of this machine's archive. */
        async function yamlStackFromArchive(cli: string, archive = OWN_ASSET, options: { withoutNode?: boolean } = {}): Promise<CliStack> {
            const yamlHost = path.join(toolDir("pulumi-yaml", `v${YAML_VERSION}`), "bin");
            const stack = await CliStack.create({
                example: path.join(REPOSITORY, "examples", "yaml-cluster"),
                version: cli,
                runner: "host",
                // Without node: the CLI and the YAML host only (the system's folders hold a node of their own).
                env: { PATH: options.withoutNode ? [await pulumiBin(cli), yamlHost].join(path.delimiter) : await newUserPathWith(cli, yamlHost) },
                config: platformConfig(emulator()),
                secrets: { "platform:clientSecret": CLIENT.clientSecret },
            });
            try {
                succeeded(await stack.run(["plugin", "install", "resource", "platform", version, "--file", path.join(out, archive)]));
            } catch (error) {
                stack.dispose();
                throw error;
            }
            return stack;
        }

        it("YAML: pulumi plugin install resource platform <version> --file <archive>, then the program's preview and up", async () => {
            const stack = await yamlStackFromArchive(PULUMI_SDK_MATCH);
            try {
                const preview = await stack.preview();
                succeeded(preview);
                printed(preview, 'ClusterScale "cluster": up will apply');
                const up = await stack.up();
                succeeded(up);
                assertInstalledPlugin(stack, [preview, up]);
                assert.deepEqual(
                    emulator()
                        .control.members()
                        .find((member) => member.email === "grace@example.com")
                        ?.roles.sort(),
                    ["admin", "operationsengineer"],
                );
                assert.ok(emulator().control.replicasOf(4) !== undefined, "the layout of 5 brokers was not applied");
            } finally {
                stack.dispose();
            }
        });

        it("Python: the wheel pip-installed into a fresh virtual environment; the CLI fetches the plugin itself from the release location on first use", async () => {
            const server = new ReleaseServer(out);
            await server.start();
            const venv = fs.mkdtempSync(path.join(os.tmpdir(), "platform-venv-"));
            try {
                execFileSync("python3", ["-m", "venv", venv], { stdio: ["ignore", "ignore", "pipe"] });
                const python = path.join(venv, "bin", "python");
                const wheel = path.join(out, `pulumi_platform-${version}-py3-none-any.whl`);
                execFileSync(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", wheel], { stdio: ["ignore", "ignore", "pipe"] });
                const stack = await CliStack.create({
                    example: path.join(REPOSITORY, "examples", "python-cluster"),
                    version: PULUMI_SDK_MATCH,
                    runner: { command: python, args: [path.join(__dirname, "python_program_server.py")] },
                    env: {
                        PATH: await newUserPath(path.join(venv, "bin")),
                        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false",
                        ...server.overrides(SERVER),
                    },
                    config: platformConfig(emulator()),
                    secrets: { "platform:clientSecret": CLIENT.clientSecret, paymentsApiKey: "payments-release-key" },
                });
                try {
                    const preview = await stack.preview();
                    succeeded(preview);
                    printed(preview, 'ClusterScale "cluster": up will apply');
                    assert.deepEqual(server.asked, [`/releases/${OWN_ASSET}`], "the CLI did not fetch this machine's archive once");
                    const up = await stack.up();
                    succeeded(up);
                    assertInstalledPlugin(stack, [preview, up]);
                    assert.ok(emulator().control.replicasOf(4) !== undefined, "the layout of 5 brokers was not applied");
                    assert.equal(server.asked.length, 1, "the plugin was fetched again");
                } finally {
                    stack.dispose();
                }
            } finally {
                await server.stop();
                fs.rmSync(venv, { recursive: true, force: true });
            }
        });

        it("Go: the program's go.mod replaces the SDK module with the release's copy; the CLI fetches the plugin itself", async () => {
            const server = new ReleaseServer(out);
            await server.start();
            try {
                const go = path.dirname(execFileSync("sh", ["-c", "command -v go"], { encoding: "utf8" }).trim());
                const stack = await CliStack.create({
                    example: path.join(REPOSITORY, "examples", "go-cluster"),
                    version: PULUMI_SDK_MATCH,
                    runner: { command: process.execPath, args: [...TYPESCRIPT_REQUIRE, path.join(__dirname, "goProgramServer.ts")] },
                    env: {
                        PATH: await newUserPath(go),
                        GOFLAGS: "-mod=mod",
                        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false",
                        ...server.overrides(SERVER),
                    },
                    config: platformConfig(emulator()),
                    secrets: { "platform:clientSecret": CLIENT.clientSecret },
                });
                try {
                    execFileSync("go", ["mod", "edit", "-replace", `github.com/pulumi-platform/pulumi-platform/sdk/go=${path.join(out, "sdk", "go")}`], {
                        cwd: stack.programDir,
                    });
                    const up = await stack.up();
                    succeeded(up);
                    printed(up, 'ClusterScale "cluster": up will apply');
                    assertInstalledPlugin(stack, [up]);
                    assert.deepEqual(server.asked, [`/releases/${OWN_ASSET}`]);
                    assert.ok(emulator().control.replicasOf(4) !== undefined, "the layout of 5 brokers was not applied");
                } finally {
                    stack.dispose();
                }
            } finally {
                await server.stop();
            }
        });

        it("the node-free plugin: plugin install --file, then the YAML program's preview and up with no node anywhere on PATH", async () => {
            const stack = await yamlStackFromArchive(PULUMI_SDK_MATCH, nodeFreeAssetName(version, ownPlatform()), { withoutNode: true });
            try {
                const up = await stack.up();
                succeeded(up);
                printed(up, 'ClusterScale "cluster": up will apply');
                assertInstalledPlugin(stack, [up]);
                assert.ok(emulator().control.replicasOf(4) !== undefined, "the layout of 5 brokers was not applied");
            } finally {
                stack.dispose();
            }
        });

        it(`the older CLI (${PULUMI_LAGGING}) installs the archive too, and runs the YAML program with it`, async () => {
            const stack = await yamlStackFromArchive(PULUMI_LAGGING);
            try {
                const preview = await stack.preview();
                succeeded(preview);
                printed(preview, 'ClusterScale "cluster": up will apply');
                assertInstalledPlugin(stack, [preview]);
            } finally {
                stack.dispose();
            }
        });

        it("a corrupted archive from the release location is refused by its checksum (--server with --checksum); the intact one installs", async () => {
            const server = new ReleaseServer(out);
            await server.start();
            const stack = await CliStack.create({
                example: path.join(REPOSITORY, "examples", "yaml-cluster"),
                version: PULUMI_SDK_MATCH,
                runner: "host",
                env: { PATH: await newUserPath() },
            });
            try {
                const checksum = fs
                    .readFileSync(path.join(out, CHECKSUMS), "utf8")
                    .split("\n")
                    .find((line) => line.endsWith(`  ${OWN_ASSET}`))!
                    .split(/\s+/)[0];
                const install = () => stack.run(["plugin", "install", "resource", "platform", version, "--server", server.url(), "--checksum", checksum]);
                const plugins = path.join(stack.workDir, "home", "plugins");
                server.corrupted.add(OWN_ASSET);
                const refused = await install();
                assert.notEqual(refused.exitCode, 0, refused.lines.join("\n"));
                assert.match(refused.lines.join("\n"), /checksum/i);
                assert.ok(
                    !fs.existsSync(path.join(plugins, `resource-platform-v${version}`, "pulumi-resource-platform")),
                    "the corrupted plugin was installed",
                );
                server.corrupted.clear();
                succeeded(await install());
                assert.ok(fs.existsSync(path.join(plugins, `resource-platform-v${version}`, "pulumi-resource-platform")));
            } finally {
                stack.dispose();
                await server.stop();
            }
        });
    });
});
