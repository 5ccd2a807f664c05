// The YAML language host (pulumi-language-yaml) of a pinned version, built from its Go module
// (github.com/pulumi/pulumi-yaml) like the CLI: the host the real CLI runs a `runtime: yaml` program with. It goes in
// a bin folder of its own, which the CLI suite puts on PATH beside the CLI's.
import * as fs from "fs";
import * as path from "path";
import { buildGoPrograms, progress } from "./goBuild";
import { toolDir } from "./toolsDir";

/** The newest pulumi-yaml the module proxy serves. */
export const YAML_VERSION = "1.25.0";
export const YAML_VERSIONS = [YAML_VERSION];

const YAML = "github.com/pulumi/pulumi-yaml";
const HOST = "pulumi-language-yaml";

export async function yamlTools(version: string): Promise<string> {
    const dir = toolDir("pulumi-yaml", `v${version}`);
    if (works(dir)) return dir;
    const started = Date.now();
    progress(`pulumi-yaml v${version}: building into ${dir}`);
    fs.rmSync(dir, { recursive: true, force: true });
    await buildGoPrograms(
        `pulumi-yaml v${version}`,
        {
            // With the pulumi modules it asks for: its code does not build against the CLI's newer ones.
            goMod: [`require ${YAML} v${version}`, `tool ${YAML}/cmd/${HOST}`],
            programs: [{ name: HOST, pkg: `${YAML}/cmd/${HOST}` }],
            ldflags: `-w -s -X ${YAML}/pkg/version.Version=v${version}`,
            tags: "osusergo,grpcnotrace",
        },
        path.join(dir, "bin"),
    );
    if (!works(dir)) throw new Error(`pulumi-yaml v${version}: the build in ${dir} left no ${HOST}`);
    progress(`pulumi-yaml v${version}: built in ${Math.round((Date.now() - started) / 1000)} s`);
    return dir;
}

/** The host prints no version of its own: a build is one that left an executable. */
function works(dir: string): boolean {
    try {
        fs.accessSync(path.join(dir, "bin", HOST), fs.constants.X_OK);
        return true;
    } catch {
        return false;
    }
}
