// Pulumi's Kubernetes provider plugin (pulumi-resource-kubernetes) at the commit of a release, built from its Go module
// (github.com/pulumi/pulumi-kubernetes/provider/v4, served by the module proxy only at that commit's pseudo-version).
// The module cannot be built as it is published: its go.mod replaces the SDK module with a folder beside it (../sdk),
// and its main package embeds schema-embed.json, which the release writes in a generate step. So a copy of the module
// is built in a scratch folder: the SDK module taken at the release's published version instead, the generate step
// run there, then the build, the version set as the release sets it.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { go, moduleDir, progress, requireGo } from "./goBuild";
import { toolDir } from "./toolsDir";

/** v4.25.0, published on 15 January 2026: its commit is the one the module proxy serves. */
export const KUBERNETES_PROVIDER_VERSION = "4.25.0";
const MODULE_VERSION = "v4.0.0-20260115033456-f47bc2d6f199";

const PROVIDER = "github.com/pulumi/pulumi-kubernetes/provider/v4";
const SDK = "github.com/pulumi/pulumi-kubernetes/sdk/v4";
const PLUGIN = "pulumi-resource-kubernetes";

/** The folder whose bin/ holds the plugin, built first when it holds none. */
export async function kubernetesProviderTools(version: string): Promise<string> {
    const dir = toolDir("pulumi-kubernetes", `v${version}`);
    const plugin = path.join(dir, "bin", PLUGIN);
    if (fs.existsSync(plugin)) return dir;
    if (version !== KUBERNETES_PROVIDER_VERSION) throw new Error(`pulumi-kubernetes v${version}: only v${KUBERNETES_PROVIDER_VERSION} is served as a module`);
    await requireGo();
    const started = Date.now();
    progress(`pulumi-kubernetes v${version}: building into ${dir}`);
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-kubernetes-"));
    try {
        const copy = path.join(scratch, "provider");
        fs.cpSync(await moduleDir(PROVIDER, MODULE_VERSION), copy, { recursive: true });
        fs.chmodSync(copy, 0o755);
        for (const entry of fs.readdirSync(copy, { recursive: true, withFileTypes: true })) {
            fs.chmodSync(path.join(entry.parentPath, entry.name), entry.isDirectory() ? 0o755 : 0o644);
        }
        const goMod = path.join(copy, "go.mod");
        fs.writeFileSync(goMod, fs.readFileSync(goMod, "utf8").replace(`replace ${SDK} => ../sdk`, `replace ${SDK} => ${SDK} v${version}`));
        const env = { ...process.env, GOTOOLCHAIN: process.env.GOTOOLCHAIN ?? "local", GOFLAGS: "-mod=mod", CGO_ENABLED: "0" };
        const main = path.join(copy, "cmd", PLUGIN);
        progress(`pulumi-kubernetes v${version}: the release's generate step (schema-embed.json)`);
        await go(["run", "./generate.go"], main, { ...env, VERSION: version }, "run the generate step");
        progress(`pulumi-kubernetes v${version}: building ${PLUGIN}`);
        const ldflags = `-w -s -X ${PROVIDER}/pkg/version.Version=${version}`;
        fs.mkdirSync(path.dirname(plugin), { recursive: true });
        await go(["build", "-trimpath", "-ldflags", ldflags, "-o", plugin, "."], main, env, `build ${PLUGIN}`);
    } finally {
        fs.rmSync(scratch, { recursive: true, force: true });
    }
    progress(`pulumi-kubernetes v${version}: built in ${Math.round((Date.now() - started) / 1000)} s`);
    return dir;
}
