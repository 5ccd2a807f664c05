// The dynamic-provider host loads each resource's entry module when it first meets the resource. Where the package is
// reached through a link (this repository's node_modules/pulumi-platform, npm link, pnpm's layout), every entry must
// still be loaded from its real path: one instance of the package's modules per host, whose token cache, shared reads
// and cluster claims every resource shares. The host's watch of its engine (stopWithEngine) once broke this.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { ENTRY_POINTS } from "../../provider/shared/entryPoints";

const REPOSITORY = path.resolve(__dirname, "..", "..");

/** In a Node process whose stdin is a pipe, as the CLI starts a host: where the entries resolve, in this order. */
function resolvedInHost(before: string[], after: string[]): Promise<{ before: string[]; after: string[] }> {
    const script = `
        const resolve = (entry) => require.resolve(entry);
        const before = ${JSON.stringify(before)}.map(resolve);
        require(${JSON.stringify(path.join(REPOSITORY, "dist", "provider", "shared", "hostLifetime.js"))}).stopWithEngine();
        const after = ${JSON.stringify(after)}.map(resolve);
        process.stdout.write(JSON.stringify({ before, after }), () => process.exit(0));`;
    return new Promise((resolve, reject) => {
        const child = spawn(process.execPath, ["-e", script], { cwd: REPOSITORY, stdio: ["pipe", "pipe", "inherit"] });
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
        child.on("error", reject);
        child.on("close", (code) => (code === 0 ? resolve(JSON.parse(out) as { before: string[]; after: string[] }) : reject(new Error(`exited ${code}`))));
    });
}

describe("the package's entry modules in a provider host", () => {
    it("load from their real path after the host began to watch its engine, as before", async () => {
        assert.ok(fs.lstatSync(path.join(REPOSITORY, "node_modules", "pulumi-platform")).isSymbolicLink(), "the case needs the package reached through a link");
        const dist = fs.realpathSync(path.join(REPOSITORY, "dist")) + path.sep;
        const { before, after } = await resolvedInHost([ENTRY_POINTS.cluster], [ENTRY_POINTS.ipAllowlist, ENTRY_POINTS.clusterClient]);
        for (const file of [...before, ...after]) assert.ok(file.startsWith(dist), `${file} is not under ${dist}: a second copy of the package's modules`);
    });
});
