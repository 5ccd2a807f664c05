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
import { packageInfo } from "../tools/writeSchema";

const { version } = packageInfo();
const SERVER = "github://api.github.com/pulumi-platform/pulumi-platform";

describe("npm run release", function () {
    this.timeout(240_000);
    let out: string;
    let files: string[];
    before(async () => {
        out = fs.mkdtempSync(path.join(os.tmpdir(), "platform-release-test-"));
        files = await release(out);
    });
    after(() => fs.rmSync(out, { recursive: true, force: true }));

    it("writes the plugin's archive for linux, darwin and windows × amd64 and arm64, and their checksums", () => {
        const archives = PLATFORMS.map((platform) => assetName(version, platform));
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

    it("the unpacked plugin starts with plain Node from its own folder and serves (it prints its port)", async () => {
        const folder = fs.mkdtempSync(path.join(os.tmpdir(), "platform-plugin-"));
        try {
            execFileSync("tar", ["-xzf", path.join(out, assetName(version, "linux-amd64")), "-C", folder]);
            const child = spawn(path.join(folder, "pulumi-resource-platform"), [], {
                cwd: os.tmpdir(),
                env: { PATH: [path.dirname(process.execPath), "/usr/bin", "/bin"].join(path.delimiter), HOME: os.tmpdir() },
                stdio: ["ignore", "pipe", "pipe"],
            });
            const [first] = (await once(child.stdout, "data")) as [Buffer];
            child.kill();
            assert.match(first.toString(), /^\d+\n/);
        } finally {
            fs.rmSync(folder, { recursive: true, force: true });
        }
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
});
