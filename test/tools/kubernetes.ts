// A Kubernetes control plane of a pinned release, built from its Go modules: kube-apiserver and
// kube-controller-manager from k8s.io/kubernetes, and etcd (go.etcd.io/etcd/server/v3, at the version the release's
// API server requires). k8s.io/kubernetes replaces each of its k8s.io staging modules with a local folder, which a
// module that requires it cannot use: the scratch module replaces each with its published v0.X.Y instead.
import * as fs from "fs";
import * as path from "path";
import { buildGoPrograms, moduleDir, printedVersion, progress } from "./goBuild";
import { nonLocalReplaces } from "./goModFile";
import { toolDir } from "./toolsDir";

/** The release the Kubernetes tier runs: the newest 1.36 patch the module proxy serves (its go.mod asks for Go 1.26). */
export const KUBERNETES_VERSION = "1.36.3";
export const KUBERNETES_VERSIONS = [KUBERNETES_VERSION];

const KUBERNETES = "k8s.io/kubernetes";
const ETCD = "go.etcd.io/etcd/server/v3";
const PROGRAMS = ["kube-apiserver", "kube-controller-manager", "etcd"];

export async function kubernetesTools(version: string): Promise<string> {
    const dir = toolDir("kubernetes", `v${version}`);
    if (works(dir, version)) return dir;
    const started = Date.now();
    progress(`kubernetes v${version}: building into ${dir}`);
    fs.rmSync(dir, { recursive: true, force: true });
    await buildFromRelease(
        `kubernetes v${version}`,
        version,
        [
            { name: "kube-apiserver", pkg: `${KUBERNETES}/cmd/kube-apiserver` },
            { name: "kube-controller-manager", pkg: `${KUBERNETES}/cmd/kube-controller-manager` },
            { name: "etcd", pkg: ETCD },
        ],
        path.join(dir, "bin"),
    );
    if (!works(dir, version)) throw new Error(`kubernetes v${version}: the build in ${dir} does not print its version`);
    progress(`kubernetes v${version}: built in ${Math.round((Date.now() - started) / 1000)} s`);
    return dir;
}

/** kubectl of the same release (what the README's Helm post-renderer runs), in a folder of its own. */
export async function kubectlTools(version: string): Promise<string> {
    const dir = toolDir("kubectl", `v${version}`);
    const kubectl = path.join(dir, "bin", "kubectl");
    const built = () => printedVersion(kubectl, ["version", "--client"]).includes(`v${version}`);
    if (built()) return dir;
    const started = Date.now();
    progress(`kubectl v${version}: building into ${dir}`);
    fs.rmSync(dir, { recursive: true, force: true });
    await buildFromRelease(`kubectl v${version}`, version, [{ name: "kubectl", pkg: `${KUBERNETES}/cmd/kubectl` }], path.join(dir, "bin"));
    if (!built()) throw new Error(`kubectl v${version}: the build in ${dir} does not print its version`);
    progress(`kubectl v${version}: built in ${Math.round((Date.now() - started) / 1000)} s`);
    return dir;
}

/** Builds programs of the release (and etcd) from a scratch module that requires k8s.io/kubernetes at `version`. */
async function buildFromRelease(label: string, version: string, programs: { name: string; pkg: string }[], bin: string): Promise<void> {
    const source = await moduleDir(KUBERNETES, `v${version}`);
    const minor = version.split(".")[1];
    const stagingVersion = `v0.${minor}.${version.split(".")[2]}`;
    const versionFlags = (pkg: string) =>
        [`gitVersion=v${version}`, "gitMajor=1", `gitMinor=${minor}`, "gitTreeState=clean", `buildDate=${new Date().toISOString().replace(/\.\d+Z$/, "Z")}`]
            .map((setting) => `-X ${pkg}.${setting}`)
            .join(" ");
    await buildGoPrograms(
        label,
        {
            goMod: [
                `require ${KUBERNETES} v${version}`,
                ...stagingReplaces(source, stagingVersion),
                ...nonLocalReplaces(source),
                ...programs.map((program) => `tool ${program.pkg}`),
                `godebug default=go1.${goMinor(source)}`,
            ],
            programs,
            ldflags: `-w -s ${versionFlags("k8s.io/component-base/version")} ${versionFlags("k8s.io/client-go/pkg/version")}`,
            tags: "selinux,notest,grpcnotrace",
        },
        bin,
    );
}

/** `replace k8s.io/X => k8s.io/X v0.N.P` for every staging module the release's go.mod points at a local folder. */
function stagingReplaces(source: string, stagingVersion: string): string[] {
    const text = fs.readFileSync(path.join(source, "go.mod"), "utf8");
    const staged = [...text.matchAll(/^\s*(k8s\.io\/[\w.-]+)\s*=>\s*\.\/staging\//gm)].map((match) => match[1]);
    return staged.map((module) => `replace ${module} => ${module} ${stagingVersion}`);
}

/** The Go minor version the release's go.mod names (its runtime defaults are kept with a godebug line). */
function goMinor(source: string): string {
    const text = fs.readFileSync(path.join(source, "go.mod"), "utf8");
    return /^go 1\.(\d+)/m.exec(text)?.[1] ?? "26";
}

function works(dir: string, version: string): boolean {
    const bin = path.join(dir, "bin");
    for (const program of PROGRAMS) if (!fs.existsSync(path.join(bin, program))) return false;
    return printedVersion(path.join(bin, "kube-apiserver"), ["--version"]) === `Kubernetes v${version}`;
}
