// npm run release [-- --out DIR]: the release of the package's version, in a folder outside git (DIR, else
// PLATFORM_RELEASE_DIR, else <the tools' cache>/../release/v<version>): the provider plugin's archive for each platform
// and a checksums file (the assets a GitHub release v<version> carries, where the schema's pluginDownloadURL points),
// the Python SDK's wheel and sdist, the Go SDK's module, and the .NET SDK's sources. One version everywhere:
// package.json's. Builds the SDK generators and the Python environment first when this machine has not (npm run
// tools:languages does the same).
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { codegenTools, dotnetCodegenTools } from "../../test/tools/codegen";
import { PULUMI_SDK_MATCH } from "../../test/tools/pulumi";
import { pythonTools } from "../../test/tools/python";
import { toolsRoot } from "../../test/tools/toolsDir";
import { REPOSITORY, SCHEMA_FILE, packageInfo } from "../../test/tools/writeSchema";
import { writeNodeFreePlugin } from "./nodeFreePlugin";
import { stagePluginFolder, writePluginTarballs } from "./pluginTarball";
import { writeDotnetSdk, writeGoSdk, writePythonSdk } from "./sdks";

export const CHECKSUMS = "checksums.txt";

export function releaseDir(version: string, argv: readonly string[] = process.argv.slice(2)): string {
    const flag = argv.indexOf("--out");
    if (flag !== -1 && argv[flag + 1]) return path.resolve(argv[flag + 1]);
    if (process.env.PLATFORM_RELEASE_DIR) return path.resolve(process.env.PLATFORM_RELEASE_DIR);
    return path.join(path.dirname(toolsRoot()), "release", `v${version}`);
}

/**
 * Writes the release into `out` (emptied first); answers what it holds. `nodeFree`: also this platform's plugin that
 * needs no Node (nodeFreePlugin.ts, about 55 MB): `npm run release -- --node-free`.
 */
export async function release(out: string, options: { nodeFree?: boolean } = {}): Promise<string[]> {
    const { version } = packageInfo();
    const schema = JSON.parse(fs.readFileSync(SCHEMA_FILE, "utf8")) as { version: string };
    if (schema.version !== version) throw new Error(`plugin/schema.json is of version ${schema.version}, package.json of ${version}: run npm run schema`);
    if (!fs.existsSync(path.join(REPOSITORY, "dist", "provider", "plugin", "main.js"))) throw new Error("dist/ is missing: run npm run build");
    const tools = {
        codegen: path.join(await codegenTools(PULUMI_SDK_MATCH), "bin", "platform-codegen"),
        dotnetCodegen: path.join(await dotnetCodegenTools(), "bin", "platform-codegen-dotnet"),
        python: path.join(await pythonTools(), "bin", "python"),
        pulumiSdkVersion: PULUMI_SDK_MATCH,
    };
    fs.rmSync(out, { recursive: true, force: true });
    fs.mkdirSync(out, { recursive: true });
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "platform-release-"));
    try {
        const folder = path.join(work, "plugin");
        stagePluginFolder(REPOSITORY, version, folder);
        const tarballs = writePluginTarballs(folder, version, out, work);
        const nodeFree = options.nodeFree ? [await writeNodeFreePlugin(folder, version, out, work)] : [];
        const archives = [...tarballs, ...nodeFree];
        fs.writeFileSync(path.join(out, CHECKSUMS), archives.map((name) => `${sha256(path.join(out, name))}  ${name}\n`).join(""));
        const python = writePythonSdk(tools, SCHEMA_FILE, out, work);
        const go = writeGoSdk(tools, SCHEMA_FILE, out);
        const dotnet = writeDotnetSdk(tools, SCHEMA_FILE, out);
        return [...archives, CHECKSUMS, ...python, `${go}/`, `${dotnet}/`];
    } finally {
        fs.rmSync(work, { recursive: true, force: true });
    }
}

export function sha256(file: string): string {
    return createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

if (require.main === module) {
    const started = Date.now();
    const out = releaseDir(packageInfo().version);
    release(out, { nodeFree: process.argv.includes("--node-free") }).then(
        (files) => {
            const size = (file: string) => (file.endsWith("/") ? "" : ` (${(fs.statSync(path.join(out, file)).size / 1e6).toFixed(1)} MB)`);
            process.stdout.write(`release v${packageInfo().version} in ${out} (${Math.round((Date.now() - started) / 1000)} s):\n`);
            for (const file of files) process.stdout.write(`  ${file}${size(file)}\n`);
        },
        (error: Error) => {
            process.stderr.write(`release: ${error.message}\n`);
            process.exitCode = 1;
        },
    );
}
