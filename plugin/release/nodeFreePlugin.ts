// The plugin for a machine without Node: the staged plugin folder with its launcher replaced by a Node single
// executable application made of the Node that runs the release (the main line's, from the npm registry). Its
// injected script loads the folder's own dist/provider/plugin/main.js (an application's script can require only Node's
// built-in modules; createRequire reaches the folder's code and node_modules). Only for the platform the release runs
// on (a Node binary runs where it was built): pulumi-resource-platform-v<version>-<os>-<arch>-node-free.tar.gz.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { writeArchive } from "./pluginTarball";

/** The fuse Node looks for to tell an application from a plain node (the single executable applications docs). */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

const ENTRY_SCRIPT = `const { createRequire } = require("node:module");
const path = require("node:path");
const entry = path.join(path.dirname(process.execPath), "dist", "provider", "plugin", "main.js");
createRequire(entry)(entry);
`;

export function nodeFreeAssetName(version: string, platform: string): string {
    return `pulumi-resource-platform-v${version}-${platform}-node-free.tar.gz`;
}

/** The platform of this machine as the CLI names it (linux-amd64, darwin-arm64, …). */
export function ownPlatform(): string {
    const arch = process.arch === "x64" ? "amd64" : process.arch;
    return `${process.platform === "win32" ? "windows" : process.platform}-${arch}`;
}

/** Writes the node-free archive of the staged plugin `folder` into `out`; answers its name. */
export async function writeNodeFreePlugin(folder: string, version: string, out: string, work: string): Promise<string> {
    const app = path.join(work, "node-free");
    fs.cpSync(folder, app, { recursive: true });
    fs.rmSync(path.join(app, "pulumi-resource-platform.cmd"));
    const script = path.join(work, "node-free-entry.js");
    const blob = path.join(work, "node-free.blob");
    fs.writeFileSync(script, ENTRY_SCRIPT);
    const config = path.join(work, "node-free-sea.json");
    fs.writeFileSync(config, JSON.stringify({ main: script, output: blob, disableExperimentalSEAWarning: true }));
    // The blob must come from the very Node binary it is injected into.
    execFileSync(process.execPath, ["--experimental-sea-config", config], { stdio: ["ignore", "ignore", "pipe"] });
    const executable = path.join(app, "pulumi-resource-platform");
    fs.copyFileSync(process.execPath, executable);
    fs.chmodSync(executable, 0o755);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- postject ships no types
    const { inject } = require("postject") as { inject: (file: string, name: string, data: Buffer, options: { sentinelFuse: string }) => Promise<void> };
    await inject(executable, "NODE_SEA_BLOB", fs.readFileSync(blob), { sentinelFuse: SEA_FUSE });
    const name = nodeFreeAssetName(version, ownPlatform());
    writeArchive(app, path.join(out, name));
    return name;
}
