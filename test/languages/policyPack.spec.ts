// The package's policy pack beside a Python program, whose layout the provider plugin serves as
// platform:index:ClusterScale: the same pack, the same refusal before anything is sent, the same config file lifting it.
import assert from "node:assert/strict";
import * as path from "node:path";
import { printed, succeeded } from "../cli/cliAssertions";
import { useEmulator } from "../support/emulator";
import { PULUMI_SDK_MATCH } from "../tools/pulumi";
import { REPOSITORY } from "../tools/writeSchema";
import { languageStack } from "./languageTools";

const PACK = path.join(REPOSITORY, "policy-pack");

describe(`the policy pack beside a Python program under pulumi ${PULUMI_SDK_MATCH} and the provider plugin`, function () {
    this.timeout(240_000);
    const emulator = useEmulator({ brokers: 3, partitions: 3, replicationFactor: 3, running: [0, 1, 2, 3, 4], opMs: 10 });

    it("a mandatory violation fails preview and up before anything is sent; the config file's pin lifts it", async () => {
        const stack = await languageStack("python", path.join(__dirname, "programs", "pythonScale"), {
            stack: "prod",
            config: { managementUrl: emulator().managementUrl, brokerCount: "5" },
        });
        try {
            stack.installPolicyHost();
            const changes = () =>
                emulator()
                    .control.requests()
                    .filter((entry) => entry.method !== "GET" && !entry.query.dryRun);
            for (const run of [await stack.preview("--policy-pack", PACK), await stack.up("--policy-pack", PACK)]) {
                assert.notEqual(run.exitCode, 0, run.lines.join("\n"));
                assert.match(run.lines.join("\n"), /\[mandatory\]\s+platform-partition-count/);
                printed(run, 'ClusterScale "cluster": partitionCount 3 on stack "prod": partition scaling is experimental');
            }
            assert.deepEqual(changes(), []);
            const config = stack.policyPackConfig("pinned", { "platform-partition-count": { pinnedPartitionCount: 3 } });
            succeeded(await stack.up("--policy-pack", PACK, "--policy-pack-config", config));
            assert.equal(changes().length, 1);
        } finally {
            stack.dispose();
        }
    });
});
