// The Pulumi CLI of a pinned version, built from its Go module (github.com/pulumi/pulumi/pkg/v3/cmd/pulumi) with the
// release's flags, and the dynamic-provider launcher (pulumi-resource-pulumi-nodejs, a shell script of the sdk/v3
// module) beside it. The Node language host (github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3) is a
// module of its own that the module proxy here refuses at every version, so it is not built: the CLI suite runs
// programs under @pulumi/pulumi's own language runtime server instead (see test/cli/programServer.ts).
import * as fs from "fs";
import * as path from "path";
import { buildGoPrograms, moduleDir, printedVersion, progress } from "./goBuild";
import { nonLocalReplaces } from "./goModFile";
import { toolDir } from "./toolsDir";

/** The CLI that matches the @pulumi/pulumi the package is built with (the newest release of both). */
export const PULUMI_SDK_MATCH = "3.276.0";
/** An older CLI, for users whose CLI lags their SDK: the last release of the Node 20 days. */
export const PULUMI_LAGGING = "3.248.0";
export const PULUMI_VERSIONS = [PULUMI_SDK_MATCH, PULUMI_LAGGING];

const PKG = "github.com/pulumi/pulumi/pkg/v3";
const SDK = "github.com/pulumi/pulumi/sdk/v3";
const LAUNCHER = "pulumi-resource-pulumi-nodejs";

/** The folder holding `bin/pulumi` and the launcher of this version, built first when it holds no working build. */
export async function pulumiTools(version: string): Promise<string> {
    const dir = toolDir("pulumi", `v${version}`);
    if (works(dir, version)) return dir;
    const started = Date.now();
    progress(`pulumi v${version}: building into ${dir}`);
    fs.rmSync(dir, { recursive: true, force: true });
    const pkgDir = await moduleDir(PKG, `v${version}`);
    const bin = path.join(dir, "bin");
    await buildGoPrograms(
        `pulumi v${version}`,
        {
            goMod: [`require ${PKG} v${version}`, `require ${SDK} v${version}`, ...nonLocalReplaces(pkgDir), `tool ${PKG}/cmd/pulumi`],
            programs: [{ name: "pulumi", pkg: `${PKG}/cmd/pulumi` }],
            ldflags: `-w -s -X ${SDK}/go/common/version.Version=v${version}`,
            tags: "osusergo,grpcnotrace",
        },
        bin,
    );
    const sdkDir = await moduleDir(SDK, `v${version}`);
    fs.copyFileSync(path.join(sdkDir, "nodejs", "dist", LAUNCHER), path.join(bin, LAUNCHER));
    fs.chmodSync(path.join(bin, LAUNCHER), 0o755);
    if (!works(dir, version)) throw new Error(`pulumi v${version}: the build in ${dir} does not print its version`);
    progress(`pulumi v${version}: built in ${Math.round((Date.now() - started) / 1000)} s`);
    return dir;
}

function works(dir: string, version: string): boolean {
    const bin = path.join(dir, "bin");
    if (!fs.existsSync(path.join(bin, LAUNCHER))) return false;
    return printedVersion(path.join(bin, "pulumi"), ["version"], { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" }) === `v${version}`;
}
