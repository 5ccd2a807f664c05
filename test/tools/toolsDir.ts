// Where the tools the real-tool tiers run are built: a folder outside the checkout, one subfolder per tool and
// version, reused by every later run on the machine. PLATFORM_TOOLS_DIR moves it.
import * as os from "os";
import * as path from "path";

export function toolsRoot(): string {
    const configured = process.env.PLATFORM_TOOLS_DIR;
    if (configured) return path.resolve(configured);
    const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
    return path.join(cache, "pulumi-platform", "tools");
}

/** The folder of one tool at one version, e.g. `pulumi-v3.248.0`; its programs are in its `bin/`. */
export function toolDir(tool: string, version: string): string {
    return path.join(toolsRoot(), `${tool}-${version}`);
}
