// The README's main command must keep working: `npm run demo` (after the build that npm test runs first).
import * as assert from "assert";
import { spawn } from "child_process";
import * as path from "path";
import { KUBE_USERS } from "../support/kubeconfig";

const ROOT = path.resolve(__dirname, "..", "..");

function runDemo(): Promise<{ code: number | null; output: string }> {
    return new Promise((resolve, reject) => {
        const child = spawn(process.execPath, ["-r", require.resolve("ts-node/register/transpile-only"), path.join(__dirname, "demo.ts")], {
            cwd: ROOT,
            // The demo must not depend on a real CLI being present for this test.
            env: { ...process.env, PATH: path.dirname(process.execPath) },
            stdio: ["ignore", "pipe", "pipe"],
        });
        let output = "";
        child.stdout.on("data", (chunk) => (output += chunk));
        child.stderr.on("data", (chunk) => (output += chunk));
        child.on("error", reject);
        child.on("exit", (code) => resolve({ code, output }));
    });
}

describe("demo (npm run demo)", function () {
    this.timeout(180_000);

    it("previews the plan, applies it with progress, shows the topology, and finds nothing left to do", async () => {
        const { code, output } = await runDemo();
        assert.strictEqual(code, 0, output);

        const [preview, rest] = output.split("=== Starting brokers");
        assert.ok(rest, output);
        assert.match(preview, /ClusterScale "cluster": up will apply \d+ operations \(change 2\)/);
        assert.match(preview, /brokers added: 3, 4/);
        assert.match(preview, /partitions created: 7, 8/);
        assert.doesNotMatch(preview, /change 2 accepted/, "a preview must not send the change");

        const [up, afterUp] = rest.split("=== Topology reported by the gateway");
        assert.match(up, /change 2 accepted/);
        assert.match(up, /change 2 \[\d+\/(\d+)\] [A-Z_]+ broker \d/, "progress is shown while the change runs");
        assert.match(up, /change 2 \[(\d+)\/\1\] done/);
        assert.match(up, /change 2 completed: 5 brokers, 8 partitions, replication factor 3/);

        const [topology, afterTopology] = afterUp.split("=== pulumi preview again");
        assert.match(topology, /clusterSize 5, partitionsCount 8, replicationFactor 3, lastCompletedChangeId 2/);
        for (const broker of [0, 1, 2, 3, 4]) assert.match(topology, new RegExp(`broker ${broker}: partitions \\d`));
        const [secondPreview, throughKubernetes] = afterTopology.split("=== The same cluster through a Kubernetes API server");
        assert.match(secondPreview, /Resources: 2 unchanged/);

        assert.ok(throughKubernetes, output);
        const [switchRoute, lastPreview] = throughKubernetes.split("=== pulumi preview through the Kubernetes route");
        assert.match(
            switchRoute,
            /settings changed \(managementUrl, gatewayUrl, kubernetes\); the cluster already has this layout, nothing will be sent to it/,
        );
        assert.match(switchRoute, /nothing to send/);
        assert.doesNotMatch(switchRoute, /accepted/, "switching the route sends no change");
        assert.match(lastPreview, /Resources: 2 unchanged/);
        assert.ok(!output.includes(KUBE_USERS.token), "the kubeconfig's token is never shown");
    });
});
