// platform-codegen (codegen/, the project's own): Pulumi's SDK generators for Python, Go and Node of the pinned
// CLI's pkg/v3 module, and (platform-codegen-dotnet) the .NET one of the last pkg/v3 that holds it, built like the
// other tools. `pulumi package gen-sdk` runs the same generators through each language's host (pulumi-language-python,
// -go, -nodejs, -dotnet), and the module proxy here serves none of those hosts.
import * as fs from "fs";
import * as path from "path";
import { buildGoPrograms, moduleDir, progress } from "./goBuild";
import { nonLocalReplaces } from "./goModFile";
import { PULUMI_SDK_MATCH } from "./pulumi";
import { toolDir } from "./toolsDir";

export const CODEGEN_VERSIONS = [PULUMI_SDK_MATCH];
/** The last pkg/v3 that holds the .NET generator (pulumi/pulumi#22435 moved it to pulumi-dotnet's module, not served). */
export const DOTNET_CODEGEN_VERSION = "3.228.0";
const PKG = "github.com/pulumi/pulumi/pkg/v3";
const SDK = "github.com/pulumi/pulumi/sdk/v3";
const SOURCES = path.join(__dirname, "codegen");

/** The folder whose bin/ holds platform-codegen (python, go, nodejs) built against pulumi `version`. */
export function codegenTools(version: string): Promise<string> {
    return buildCodegen("platform-codegen", version, ["main.go", "generators.go"]);
}

/** The folder whose bin/ holds platform-codegen-dotnet, the .NET generator of pulumi DOTNET_CODEGEN_VERSION. */
export function dotnetCodegenTools(): Promise<string> {
    return buildCodegen("platform-codegen-dotnet", DOTNET_CODEGEN_VERSION, ["main.go", "generators_dotnet.go"], "dotnet");
}

/** Built once per version, again when its sources changed (a copy of them is kept beside bin/). */
async function buildCodegen(tool: string, version: string, sources: string[], tags?: string): Promise<string> {
    const dir = toolDir(tool, `v${version}`);
    const stamp = path.join(dir, "sources.go.txt");
    const text = sources.map((file) => fs.readFileSync(path.join(SOURCES, file), "utf8")).join("\n");
    if (fs.existsSync(path.join(dir, "bin", tool)) && fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === text) return dir;
    const started = Date.now();
    progress(`${tool} (pulumi v${version}): building into ${dir}`);
    fs.rmSync(dir, { recursive: true, force: true });
    const pkgDir = await moduleDir(PKG, `v${version}`);
    await buildGoPrograms(
        `${tool} v${version}`,
        {
            goMod: [`require ${PKG} v${version}`, `require ${SDK} v${version}`, ...nonLocalReplaces(pkgDir)],
            // Only this build's files: go mod tidy reads every file whatever its build tags.
            files: Object.fromEntries(sources.map((file) => [`codegen/${file}`, path.join(SOURCES, file)])),
            programs: [{ name: tool, pkg: "./codegen" }],
            ldflags: "-w -s",
            ...(tags ? { tags } : {}),
        },
        path.join(dir, "bin"),
    );
    fs.writeFileSync(stamp, text);
    progress(`${tool} (pulumi v${version}): built in ${Math.round((Date.now() - started) / 1000)} s`);
    return dir;
}
