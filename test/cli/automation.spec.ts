// examples/automation/deploy.ts as a pipeline runs it: through the Automation API with the real `pulumi` CLI, a file
// backend and a passphrase, against the emulator. Preview prints the cluster's plan and changes nothing; up applies it
// once; a layout the cluster refuses fails the preview with exit status 1 and sends nothing.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { useEmulator } from "../support/emulator";
import { mainVersion, pulumiBin } from "./pulumiBin";
import { TYPESCRIPT_REQUIRE } from "../support/typescriptRequire";
import { policyHostBin } from "../tools/policyHost";

const REPOSITORY = path.resolve(__dirname, "..", "..");

interface Run {
    code: number;
    output: string;
}

describe(`examples/automation under pulumi ${mainVersion()}`, function () {
    this.timeout(180_000);
    const emulator = useEmulator({ brokers: 3, partitions: 3, replicationFactor: 3, running: [0, 1, 2, 3, 4], opMs: 10 });
    let workDir = "";

    beforeEach(() => {
        workDir = fs.mkdtempSync(path.join(os.tmpdir(), "platform-automation-"));
        fs.cpSync(path.join(REPOSITORY, "examples", "automation"), path.join(workDir, "job"), { recursive: true });
        fs.symlinkSync(path.join(REPOSITORY, "node_modules"), path.join(workDir, "job", "node_modules"), "dir");
        fs.mkdirSync(path.join(workDir, "backend"));
    });
    afterEach(() => fs.rmSync(workDir, { recursive: true, force: true }));

    const deploy = async (mode: string, brokerCount: number, env: NodeJS.ProcessEnv = {}): Promise<Run> => {
        const bin = await pulumiBin(mainVersion());
        return new Promise((resolve, reject) => {
            const child = spawn(process.execPath, [...TYPESCRIPT_REQUIRE, "deploy.ts", mode], {
                cwd: path.join(workDir, "job"),
                env: {
                    ...process.env,
                    STACK: "ci",
                    PULUMI_CLI_ROOT: path.dirname(bin),
                    PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}`,
                    PULUMI_BACKEND_URL: `file://${path.join(workDir, "backend")}`,
                    PULUMI_CONFIG_PASSPHRASE: "automation-passphrase",
                    PULUMI_HOME: path.join(workDir, "home"),
                    PULUMI_SKIP_UPDATE_CHECK: "true",
                    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
                    PLATFORM_MANAGEMENT_URL: emulator().managementUrl,
                    BROKER_COUNT: String(brokerCount),
                    TS_NODE_PROJECT: path.join(REPOSITORY, "tsconfig.json"),
                    ...env,
                },
                stdio: ["ignore", "pipe", "pipe"],
            });
            let output = "";
            child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
            child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
            child.on("error", reject);
            child.on("close", (code) => resolve({ code: code ?? 1, output }));
        });
    };
    const accepted = () => (emulator().control.state() as { acceptedChanges: number }).acceptedChanges;

    it("preview prints the cluster's plan and changes nothing; up applies it once; the next up has nothing to do", async () => {
        const preview = await deploy("preview", 5);
        assert.equal(preview.code, 0, preview.output);
        assert.match(preview.output, /ClusterScale "cluster": up will apply \d+ operations/);
        assert.match(preview.output, /brokers added: 3, 4/);
        assert.equal(accepted(), 0);

        const up = await deploy("up", 5);
        assert.equal(up.code, 0, up.output);
        assert.match(up.output, /change \d+ completed/);
        assert.match(up.output, /changeId: \d+/);
        assert.equal(accepted(), 1);

        const again = await deploy("up", 5);
        assert.equal(again.code, 0, again.output);
        assert.equal(accepted(), 1, "an up with nothing to do sent a change");
    });

    it("a layout the cluster refuses fails the preview with exit status 1, in the provider's words, and sends nothing", async () => {
        const preview = await deploy("preview", 0);
        assert.equal(preview.code, 1, preview.output);
        assert.match(preview.output, /brokerCount is 0: it must be an integer ≥ 1/);
        assert.match(preview.output, /preview failed/);
        assert.equal(accepted(), 0);
    });

    it("with POLICY_PACK, the package's pack runs through the Automation API: a mandatory violation fails preview and up, sending nothing", async () => {
        const bin = await pulumiBin(mainVersion());
        const guardrails = {
            STACK: "production",
            POLICY_PACK: path.join(REPOSITORY, "policy-pack"),
            PATH: [policyHostBin(workDir), bin, process.env.PATH ?? ""].join(path.delimiter),
        };
        for (const mode of ["preview", "up"]) {
            const run = await deploy(mode, 5, guardrails);
            assert.equal(run.code, 1, run.output);
            assert.match(run.output, /platform-minimum-replication-factor/);
            assert.match(run.output, /ClusterScale "cluster": replicationFactor is not given on stack "production"/);
        }
        assert.equal(accepted(), 0);
        fs.writeFileSync(path.join(workDir, "policy-config.json"), JSON.stringify({ "platform-minimum-replication-factor": { productionStacks: ["prod-*"] } }));
        const lifted = await deploy("up", 5, { ...guardrails, POLICY_PACK_CONFIG: path.join(workDir, "policy-config.json") });
        assert.equal(lifted.code, 0, lifted.output);
        assert.equal(accepted(), 1);
    });
});
