// Helm of a pinned version, built from its Go module (helm.sh/helm/v3/cmd/helm, helm.sh/helm/v4/cmd/helm) like the
// other tools: a scratch module that requires it, repeating its non-local replace directives, the version set as its
// release build sets it.
import * as fs from "fs";
import * as path from "path";
import { buildGoPrograms, moduleDir, printedVersion, progress } from "./goBuild";
import { nonLocalReplaces } from "./goModFile";
import { toolDir } from "./toolsDir";

/** The newest Helm 3 the module proxy serves that builds with the machine's Go. */
export const HELM_VERSION = "3.22.0";
/** The newest Helm 4 the module proxy serves that builds with the machine's Go (it upgrades with server-side apply). */
export const HELM4_VERSION = "4.3.1";
export const HELM_VERSIONS = [HELM_VERSION, HELM4_VERSION];

export async function helmTools(version: string): Promise<string> {
    const HELM = `helm.sh/helm/v${version.split(".")[0]}`;
    const dir = toolDir("helm", `v${version}`);
    if (works(dir, version)) return dir;
    const started = Date.now();
    progress(`helm v${version}: building into ${dir}`);
    fs.rmSync(dir, { recursive: true, force: true });
    const source = await moduleDir(HELM, `v${version}`);
    await buildGoPrograms(
        `helm v${version}`,
        {
            goMod: [`require ${HELM} v${version}`, ...nonLocalReplaces(source), `tool ${HELM}/cmd/helm`],
            programs: [{ name: "helm", pkg: `${HELM}/cmd/helm` }],
            ldflags: `-w -s -X ${HELM}/internal/version.version=v${version} -X ${HELM}/internal/version.gitTreeState=clean`,
        },
        path.join(dir, "bin"),
    );
    if (!works(dir, version)) throw new Error(`helm v${version}: the build in ${dir} does not print its version`);
    progress(`helm v${version}: built in ${Math.round((Date.now() - started) / 1000)} s`);
    return dir;
}

function works(dir: string, version: string): boolean {
    return printedVersion(path.join(dir, "bin", "helm"), ["version", "--short"]).startsWith(`v${version}`);
}
