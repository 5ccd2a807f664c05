// `npm run demo` with a real `pulumi` CLI (PLATFORM_PULUMI_CLI): the same steps go through the CLI instead of
// test/engine, and the README's story holds there too: the plan and the StatefulSet's move at preview, the new pods
// before the change, progress, the topology, nothing left to do, and the shrink in the safe order.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as path from "node:path";
import { mainVersion, pulumiBin } from "./pulumiBin";
import { TYPESCRIPT_REQUIRE } from "../support/typescriptRequire";

const ROOT = path.resolve(__dirname, "..", "..");

describe(`demo (npm run demo) under pulumi ${mainVersion()}`, function () {
    this.timeout(300_000);

    it("runs every step through the CLI, with the plan, the pods before the change, progress, and the shrink in the safe order", async () => {
        const bin = await pulumiBin(mainVersion());
        const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
            const child = spawn(process.execPath, [...TYPESCRIPT_REQUIRE, path.join(ROOT, "test", "engine", "demo.ts")], {
                cwd: ROOT,
                env: { ...process.env, PLATFORM_PULUMI_CLI: path.join(bin, "pulumi") },
                stdio: ["ignore", "pipe", "pipe"],
            });
            let text = "";
            child.stdout.on("data", (chunk: Buffer) => (text += chunk.toString()));
            child.stderr.on("data", (chunk: Buffer) => (text += chunk.toString()));
            child.on("error", reject);
            child.on("exit", (exit) => resolve({ code: exit, output: text }));
        });
        assert.equal(code, 0, output);
        assert.match(output, /\(the pulumi CLI at /);
        const [preview, rest] = output.split("=== pulumi up --skip-preview");
        assert.ok(rest, output);
        assert.match(preview, /Previewing update \(demo\)/);
        assert.match(preview, /ClusterScale "cluster": up will apply \d+ operations \(change 2\)/);
        assert.match(preview, /StatefulSet platform-zeebe: replicas 3 → 5 before the layout change: pods platform-zeebe-3, platform-zeebe-4 start/);
        const [up, afterUp] = rest.split("=== Topology reported by the gateway");
        assert.match(up, /Updating \(demo\)/);
        const grown = up.indexOf("StatefulSet platform-zeebe: replicas 3 → 5 (pods platform-zeebe-3, platform-zeebe-4 start)");
        assert.ok(grown >= 0 && grown < up.indexOf("change 2 accepted"), up);
        assert.match(up, /change 2 completed: 5 brokers, 8 partitions, replication factor 3/);
        assert.match(afterUp, /clusterSize 5, partitionsCount 8, replicationFactor 3, lastCompletedChangeId 2/);
        const [again, shrink] = afterUp.split("=== Back to 3 brokers");
        assert.doesNotMatch(again.split("=== pulumi preview again")[1] ?? "", /to update|to create/);
        const completed = shrink.search(/change \d+ completed: 3 brokers/);
        assert.ok(completed >= 0 && completed < shrink.indexOf("StatefulSet platform-zeebe: replicas 5 → 3 (pods"), shrink);
        assert.match(shrink, /pods of StatefulSet platform-zeebe: platform-zeebe-0, platform-zeebe-1, platform-zeebe-2\n/);
        assert.ok(!/token-\d+-demo/.test(output), "the kubeconfig's token is never shown");
    });
});
