// The README's main command must keep working: `npm run demo` (after the build that npm test runs first).
import * as assert from "assert";
import { spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { TYPESCRIPT_REQUIRE } from "../support/typescriptRequire";

const ROOT = path.resolve(__dirname, "..", "..");

function runDemo(): Promise<{ code: number | null; output: string }> {
    return new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [...TYPESCRIPT_REQUIRE, path.join(__dirname, "demo.ts")], {
            cwd: ROOT,
            // The demo must not depend on a real CLI being present for this test: on PATH are node and openssl only.
            env: { ...process.env, PATH: [path.dirname(process.execPath), folderOf("openssl")].join(path.delimiter) },
            stdio: ["ignore", "pipe", "pipe"],
        });
        let output = "";
        child.stdout.on("data", (chunk) => (output += chunk));
        child.stderr.on("data", (chunk) => (output += chunk));
        child.on("error", reject);
        child.on("exit", (code) => resolve({ code, output }));
    });
}

/** The first folder on PATH that holds `command` (the demo makes the Kubernetes stand-in's certificates with openssl). */
function folderOf(command: string): string {
    const folder = (process.env.PATH ?? "").split(path.delimiter).find((dir) => dir !== "" && fs.existsSync(path.join(dir, command)));
    if (folder === undefined) throw new Error(`${command} is not on PATH: the demo needs it`);
    return folder;
}

describe("demo (npm run demo)", function () {
    this.timeout(180_000);

    it("previews the plan and the StatefulSet's move, starts the new pods before the change, shows the topology, finds nothing left to do, and shrinks in the safe order", async () => {
        const { code, output } = await runDemo();
        assert.strictEqual(code, 0, output);

        const [preview, rest] = output.split("=== pulumi up --skip-preview");
        assert.ok(rest, output);
        assert.match(preview, /ClusterScale "cluster": up will apply \d+ operations \(change 2\)/);
        assert.match(preview, /brokers added: 3, 4/);
        assert.match(preview, /partitions created: 7, 8/);
        assert.match(preview, /StatefulSet platform-zeebe: replicas 3 → 5 before the layout change: pods platform-zeebe-3, platform-zeebe-4 start/);
        assert.doesNotMatch(preview, /change 2 accepted/, "a preview must not send the change");

        const [up, afterUp] = rest.split("=== Topology reported by the gateway");
        const grown = up.indexOf("StatefulSet platform-zeebe: replicas 3 → 5 (pods platform-zeebe-3, platform-zeebe-4 start)");
        assert.ok(grown >= 0 && grown < up.indexOf("change 2 accepted"), up);
        assert.match(up, /change 2 \[\d+\/(\d+)\] [A-Z_]+ broker \d/, "progress is shown while the change runs");
        assert.match(up, /change 2 completed: 5 brokers, 8 partitions, replication factor 3/);

        const [topology, afterTopology] = afterUp.split("=== pulumi preview again");
        assert.match(topology, /clusterSize 5, partitionsCount 8, replicationFactor 3, lastCompletedChangeId 2/);
        for (const broker of [0, 1, 2, 3, 4]) assert.match(topology, new RegExp(`broker ${broker}: partitions \\d`));
        assert.match(topology, /pods of StatefulSet platform-zeebe: platform-zeebe-0, platform-zeebe-1, platform-zeebe-2, platform-zeebe-3, platform-zeebe-4/);

        const [secondPreview, shrink] = afterTopology.split("=== Back to 3 brokers");
        assert.match(secondPreview, /Resources: 2 unchanged/);
        assert.ok(shrink, output);
        const completed = shrink.search(/change \d+ completed: 3 brokers/);
        assert.ok(completed >= 0 && completed < shrink.indexOf("StatefulSet platform-zeebe: replicas 5 → 3 (pods"), shrink);
        assert.match(shrink, /pods of StatefulSet platform-zeebe: platform-zeebe-0, platform-zeebe-1, platform-zeebe-2\n/);
        assert.ok(!/token-\d+-demo/.test(output), "the kubeconfig's token is never shown");
    });
});
