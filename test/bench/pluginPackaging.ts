// 13. The provider plugin as a release ships it, and without Node: the archive of the plugin folder (a shell launcher
// running the node on PATH) against the node-free one (a Node single executable application in its place, see
// plugin/release/nodeFreePlugin.ts): each archive's size, and the time from starting the unpacked plugin to the port
// it prints (the engine waits for that line), median of `rounds`. No targets: what the node-free plugin costs is the
// figure. Needs dist/ (npm run bench builds it).
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { writeNodeFreePlugin } from "../../plugin/release/nodeFreePlugin";
import { stagePluginFolder, writePluginTarballs } from "../../plugin/release/pluginTarball";
import { REPOSITORY, packageInfo } from "../tools/writeSchema";
import { SectionResult, figure } from "./figures";
import { median } from "./stats";

export interface PluginPackagingOptions {
    /** Starts of each plugin. */
    rounds: number;
}

export const DEFAULT_PLUGIN_PACKAGING: PluginPackagingOptions = { rounds: 5 };

export async function benchPluginPackaging(options: PluginPackagingOptions = DEFAULT_PLUGIN_PACKAGING): Promise<SectionResult> {
    const { version } = packageInfo();
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "platform-bench-packaging-"));
    try {
        const folder = path.join(work, "plugin");
        stagePluginFolder(REPOSITORY, version, folder);
        const [archive] = writePluginTarballs(folder, version, work, work);
        const nodeFree = await writeNodeFreePlugin(folder, version, work, work);
        const unpack = (name: string): string => {
            const dir = path.join(work, `unpacked-${name}`);
            fs.mkdirSync(dir);
            execFileSync("tar", ["-xzf", path.join(work, name), "-C", dir]);
            return path.join(dir, "pulumi-resource-platform");
        };
        // The archive's launcher finds node on PATH; the node-free plugin gets no PATH at all.
        const withNode = { PATH: [path.dirname(process.execPath), "/usr/bin", "/bin"].join(path.delimiter), HOME: work };
        const starts = { archive: [] as number[], nodeFree: [] as number[] };
        const plugins = { archive: unpack(archive), nodeFree: unpack(nodeFree) };
        for (let round = 0; round < options.rounds; round++) {
            starts.archive.push(await startMs(plugins.archive, withNode));
            starts.nodeFree.push(await startMs(plugins.nodeFree, { HOME: work }));
        }
        const mb = (name: string) => Math.round((fs.statSync(path.join(work, name)).size / 1e6) * 10) / 10;
        return {
            figures: [
                figure("pluginPackaging", "archiveMB", "the plugin's archive (launcher, code, node_modules; Node on PATH)", mb(archive), "MB"),
                figure("pluginPackaging", "nodeFreeArchiveMB", "the node-free plugin's archive (Node inside)", mb(nodeFree), "MB"),
                figure("pluginPackaging", "archiveStartMs", "start to port, the archive's plugin, median", median(starts.archive), "ms", null, options.rounds),
                figure(
                    "pluginPackaging",
                    "nodeFreeStartMs",
                    "start to port, the node-free plugin, median",
                    median(starts.nodeFree),
                    "ms",
                    null,
                    options.rounds,
                ),
            ],
            details: { starts, archive, nodeFree },
        };
    } finally {
        fs.rmSync(work, { recursive: true, force: true });
    }
}

/** From spawning the plugin to its first line on stdout (its port); the plugin is stopped then. */
async function startMs(executable: string, env: NodeJS.ProcessEnv): Promise<number> {
    const started = process.hrtime.bigint();
    const child = spawn(executable, [], { cwd: path.dirname(executable), env, stdio: ["ignore", "pipe", "ignore"] });
    try {
        const [chunk] = (await once(child.stdout, "data")) as [Buffer];
        if (!/^\d+\n/.test(chunk.toString())) throw new Error(`${executable} printed ${JSON.stringify(chunk.toString())}, not its port`);
        return Number(process.hrtime.bigint() - started) / 1e6;
    } finally {
        child.kill();
        await once(child, "exit").catch(() => undefined);
    }
}
