// Which `pulumi` the CLI suite runs: PLATFORM_PULUMI_CLI (a pulumi of your own, with pulumi-resource-pulumi-nodejs
// beside it or on PATH) for the version it prints, else the build of `npm run tools:pulumi` for each pinned version.
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { PULUMI_SDK_MATCH, PULUMI_VERSIONS } from "../tools/pulumi";
import { toolDir } from "../tools/toolsDir";

/** The versions the suite runs: each pinned one, or only that of PLATFORM_PULUMI_CLI. */
export function suiteVersions(): string[] {
    const own = process.env.PLATFORM_PULUMI_CLI;
    return own ? [versionOf(own)] : PULUMI_VERSIONS;
}

/** The version most cases run with: the one matching @pulumi/pulumi (or PLATFORM_PULUMI_CLI's). */
export function mainVersion(): string {
    const own = process.env.PLATFORM_PULUMI_CLI;
    return own ? versionOf(own) : PULUMI_SDK_MATCH;
}

/** The folder holding `pulumi` of this version. */
export async function pulumiBin(version: string): Promise<string> {
    const own = process.env.PLATFORM_PULUMI_CLI;
    if (own) return path.dirname(path.resolve(own));
    const bin = path.join(toolDir("pulumi", `v${version}`), "bin");
    if (!fs.existsSync(path.join(bin, "pulumi"))) {
        throw new Error(`no pulumi ${version} in ${bin}: run \`npm run tools:pulumi\` (needs Go), or set PLATFORM_PULUMI_CLI to a pulumi of your own`);
    }
    return bin;
}

function versionOf(cli: string): string {
    const printed = execFileSync(cli, ["version"], { encoding: "utf8", env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" } });
    return printed.trim().replace(/^v/, "");
}
