// The provider plugin as the Pulumi CLI installs it from a release: a folder with the launcher at its root (and a .cmd
// beside it for Windows), the compiled code, the schema, production node_modules, README, LICENSE and CHANGELOG, and no
// PulumiPlugin.yaml (with one, the CLI would call the Node language host to install and run it). No symlinks and no hard
// links: the CLI's unpacking refuses hard links always, and symlinks before 3.247. The code is the same on every
// platform, so one archive is written under each platform's asset name.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

export const PLATFORMS = ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64", "windows-arm64"] as const;
/** The dependencies the plugin runs with: the package's own, and the @pulumi/pulumi it is built and tested with. */
const RUNTIME_DEPENDENCIES = ["@pulumi/pulumi", "undici", "zod"];

export function assetName(version: string, platform: string): string {
    return `pulumi-resource-platform-v${version}-${platform}.tar.gz`;
}

/** Writes the plugin's archives for every platform into `out` from the staged `folder`; answers their file names. */
export function writePluginTarballs(folder: string, version: string, out: string, work: string): string[] {
    const archive = path.join(work, "plugin.tar.gz");
    writeArchive(folder, archive);
    return PLATFORMS.map((platform) => {
        const name = assetName(version, platform);
        fs.copyFileSync(archive, path.join(out, name));
        return name;
    });
}

/** A .tar.gz of the folder's contents at its root; owner, order and times fixed: the same files make the same archive. */
export function writeArchive(folder: string, archive: string): void {
    const fixed = ["--sort=name", "--owner=0", "--group=0", "--numeric-owner", "--mtime=@0", "--hard-dereference"];
    execFileSync("tar", ["--create", "--gzip", "--file", archive, ...fixed, "-C", folder, "."], { stdio: ["ignore", "ignore", "pipe"] });
}

/** The plugin's folder as the archives hold it. */
export function stagePluginFolder(repository: string, version: string, folder: string): void {
    fs.mkdirSync(folder, { recursive: true });
    fs.copyFileSync(path.join(__dirname, "launcher.sh"), path.join(folder, "pulumi-resource-platform"));
    fs.chmodSync(path.join(folder, "pulumi-resource-platform"), 0o755);
    fs.copyFileSync(path.join(__dirname, "launcher.cmd"), path.join(folder, "pulumi-resource-platform.cmd"));
    for (const file of ["README.md", "LICENSE", "CHANGELOG.md"]) fs.copyFileSync(path.join(repository, file), path.join(folder, file));
    fs.mkdirSync(path.join(folder, "plugin"));
    fs.copyFileSync(path.join(repository, "plugin", "schema.json"), path.join(folder, "plugin", "schema.json"));
    fs.cpSync(path.join(repository, "dist"), path.join(folder, "dist"), { recursive: true, filter: (source) => !/\.(d\.ts|tsbuildinfo|map)$/.test(source) });
    installRuntimeDependencies(repository, version, folder);
    const links = linksUnder(folder);
    if (links.length > 0) throw new Error(`the plugin folder holds links the CLI may refuse: ${links.slice(0, 5).join(", ")}`);
}

/** node_modules from the registry at the versions package-lock.json holds, without devDependencies, scripts or .bin links. */
function installRuntimeDependencies(repository: string, version: string, folder: string): void {
    const lock = JSON.parse(fs.readFileSync(path.join(repository, "package-lock.json"), "utf8")) as { packages: Record<string, { version?: string }> };
    const dependencies = Object.fromEntries(
        RUNTIME_DEPENDENCIES.map((name) => {
            const locked = lock.packages[`node_modules/${name}`]?.version;
            if (locked === undefined) throw new Error(`package-lock.json holds no ${name}`);
            return [name, locked];
        }),
    );
    const manifest = { name: "pulumi-resource-platform", version, private: true, license: "Apache-2.0", dependencies };
    fs.writeFileSync(path.join(folder, "package.json"), `${JSON.stringify(manifest, null, 4)}\n`);
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    execFileSync(npm, ["install", "--omit=dev", "--no-bin-links", "--ignore-scripts", "--no-audit", "--no-fund", "--install-links"], {
        cwd: folder,
        stdio: ["ignore", "ignore", "pipe"],
    });
}

/** Symlinks, and files with more than one link, under `dir`. */
function linksUnder(dir: string): string[] {
    const found: string[] = [];
    for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
        const file = path.join(entry.parentPath, entry.name);
        if (entry.isSymbolicLink() || (entry.isFile() && fs.statSync(file).nlink > 1)) found.push(path.relative(dir, file));
    }
    return found;
}
