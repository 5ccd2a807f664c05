// What `--policy-pack` needs under the CLI the suite builds, which has no Node language host: nodePolicyHost.js as
// `pulumi-language-nodejs`, first on the PATH of one stack's commands only (a released CLI has the real host beside
// it; nothing of this ships to users). The CLI takes a bundled language plugin from PATH, never from PULUMI_HOME.
import * as fs from "fs";
import * as path from "path";

const HOST = path.join(__dirname, "nodePolicyHost.js");

/** Writes the launcher into a folder of `workDir`; returns that folder, for PATH. */
export function policyHostBin(workDir: string): string {
    const dir = path.join(workDir, "policy-host");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "pulumi-language-nodejs"), `#!/bin/sh\nexec node ${JSON.stringify(HOST)} "$@"\n`, { mode: 0o755 });
    return dir;
}
