// platform-codegen (codegen/main.go, the project's own): Pulumi's SDK generators for Python, Go and Node of the pinned
// CLI's pkg/v3 module, built like the other tools. `pulumi package gen-sdk` runs the same generators through each
// language's host (pulumi-language-python, -go, -nodejs), and the module proxy here serves none of those hosts.
import * as fs from "fs";
import * as path from "path";
import { buildGoPrograms, moduleDir, progress } from "./goBuild";
import { nonLocalReplaces } from "./goModFile";
import { PULUMI_SDK_MATCH } from "./pulumi";
import { toolDir } from "./toolsDir";

export const CODEGEN_VERSIONS = [PULUMI_SDK_MATCH];
const PKG = "github.com/pulumi/pulumi/pkg/v3";
const SDK = "github.com/pulumi/pulumi/sdk/v3";
const SOURCE = path.join(__dirname, "codegen", "main.go");

/** The folder whose bin/ holds platform-codegen built against pulumi `version`; rebuilt when main.go changed. */
export async function codegenTools(version: string): Promise<string> {
    const dir = toolDir("platform-codegen", `v${version}`);
    const stamp = path.join(dir, "main.go");
    if (fs.existsSync(path.join(dir, "bin", "platform-codegen")) && sameFile(stamp, SOURCE)) return dir;
    const started = Date.now();
    progress(`platform-codegen (pulumi v${version}): building into ${dir}`);
    fs.rmSync(dir, { recursive: true, force: true });
    const pkgDir = await moduleDir(PKG, `v${version}`);
    await buildGoPrograms(
        `platform-codegen v${version}`,
        {
            goMod: [`require ${PKG} v${version}`, `require ${SDK} v${version}`, ...nonLocalReplaces(pkgDir)],
            files: { "codegen/main.go": SOURCE },
            programs: [{ name: "platform-codegen", pkg: "./codegen" }],
            ldflags: "-w -s",
        },
        path.join(dir, "bin"),
    );
    fs.copyFileSync(SOURCE, stamp);
    progress(`platform-codegen (pulumi v${version}): built in ${Math.round((Date.now() - started) / 1000)} s`);
    return dir;
}

function sameFile(a: string, b: string): boolean {
    return fs.existsSync(a) && fs.readFileSync(a, "utf8") === fs.readFileSync(b, "utf8");
}
