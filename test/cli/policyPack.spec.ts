// The package's ready policy pack (policy-pack/) under the real CLI, as a user runs it: `--policy-pack` on preview and
// up of examples/local on a production stack. A mandatory violation fails the command before the cluster is asked to
// change anything (the exit code, the policy's name and message shown); a config file lifts it or makes it advisory;
// `pulumi policy analyze` audits the stack's state with no program run.
import assert from "node:assert/strict";
import * as path from "node:path";
import { useEmulator } from "../support/emulator";
import { type CliResult, CliStack } from "./cliStack";
import { examplesPlatform } from "./examplesPlatform";
import { mainVersion } from "./pulumiBin";

const REPOSITORY = path.resolve(__dirname, "..", "..");
const PACK = path.join(REPOSITORY, "policy-pack");
const PARTITIONS = "platform-partition-count";
const REPLICATION = "platform-minimum-replication-factor";
const CLIENT = { clientId: "policy-client", clientSecret: "policy-secret-5e1d", audience: "127.0.0.1" };
const text = (result: CliResult) => result.lines.join("\n");

describe(`the policy pack under pulumi ${mainVersion()}`, function () {
    this.timeout(240_000);
    const emulator = useEmulator({ brokers: 3, partitions: 3, replicationFactor: 3, running: [0, 1, 2, 3, 4], opMs: 10 });
    let stack: CliStack;

    before(async () => {
        stack = await CliStack.create({ example: path.join(REPOSITORY, "examples", "local"), version: mainVersion(), stack: "prod" });
        stack.installPolicyHost();
    });
    after(() => stack?.dispose());
    beforeEach(() =>
        stack.setConfig({
            "platform:managementUrl": emulator().managementUrl,
            "platform:gatewayUrl": emulator().gatewayUrl,
            brokerCount: "5",
            partitionCount: "3",
            replicationFactor: "3",
        }),
    );

    /** The requests that asked the cluster for a change (a dry run only asks for a plan). */
    const changeRequests = () =>
        emulator()
            .control.requests()
            .filter((entry) => entry.method !== "GET" && !entry.query.dryRun)
            .map((entry) => `${entry.method} ${entry.path}`);
    const configFile = (name: string, config: Record<string, unknown>) => stack.policyPackConfig(name, config);

    it("a mandatory violation fails preview, naming the policy, the resource, the field and the rule; nothing is changed", async () => {
        await stack.setConfig({ replicationFactor: "2" });
        const preview = await stack.preview("--policy-pack", PACK);
        assert.notEqual(preview.exitCode, 0, text(preview));
        assert.match(text(preview), new RegExp(`\\[mandatory\\]\\s+${PARTITIONS}`));
        assert.match(text(preview), /ClusterScale "cluster": partitionCount 3 on stack "prod": partition scaling is experimental/);
        assert.match(text(preview), new RegExp(`\\[mandatory\\]\\s+${REPLICATION}`));
        assert.match(text(preview), /ClusterScale "cluster": replicationFactor 2 on stack "prod" is below the minimum 3/);
        assert.deepEqual(changeRequests(), []);
    });

    it("a mandatory violation fails up before anything is sent: no request at all, nothing in the state", async () => {
        const up = await stack.up("--policy-pack", PACK);
        assert.notEqual(up.exitCode, 0, text(up));
        assert.match(text(up), new RegExp(`\\[mandatory\\]\\s+${PARTITIONS}`));
        assert.deepEqual(changeRequests(), []);
        const resources = stack.savedState().deployment.resources ?? [];
        assert.ok(!resources.some((resource) => resource.type.endsWith(":ClusterScale")), "the layout is in the state");
    });

    it("a config file that pins the partition count lifts it: up applies the layout once", async () => {
        const config = configFile("pinned", { [PARTITIONS]: { pinnedPartitionCount: 3 } });
        const up = await stack.up("--policy-pack", PACK, "--policy-pack-config", config);
        assert.equal(up.exitCode, 0, text(up));
        assert.doesNotMatch(text(up), new RegExp(PARTITIONS));
        assert.equal(changeRequests().length, 1, changeRequests().join("\n"));
    });

    it("made advisory by the config file, the violation shows and the preview passes", async () => {
        const config = configFile("advisory", { [PARTITIONS]: { enforcementLevel: "advisory" } });
        const preview = await stack.preview("--policy-pack", PACK, "--policy-pack-config", config);
        assert.equal(preview.exitCode, 0, text(preview));
        assert.match(text(preview), new RegExp(`\\[advisory\\]\\s+${PARTITIONS}`));
        assert.match(text(preview), /ClusterScale "cluster": partitionCount 3 on stack "prod"/);
    });

    it("a config file whose value a policy's schema refuses fails the preview before anything is asked, naming the policy and the setting", async () => {
        const bad = configFile("bad", { [REPLICATION]: { minimum: "three" } });
        const preview = await stack.preview("--policy-pack", PACK, "--policy-pack-config", bad);
        assert.notEqual(preview.exitCode, 0, text(preview));
        assert.match(text(preview), new RegExp(`validating policy config: .*${REPLICATION}: minimum: Invalid type\\. Expected: integer, given: string`));
        assert.deepEqual(emulator().control.requests(), [], "the cluster was asked before the config was checked");
    });

    it("pulumi policy analyze audits the stack's state with no program run and nothing sent, the stack named by the URNs", async () => {
        const pinned = configFile("pinned", { [PARTITIONS]: { pinnedPartitionCount: 3 } });
        const up = await stack.up("--policy-pack", PACK, "--policy-pack-config", pinned);
        assert.equal(up.exitCode, 0, text(up));
        const requests = emulator().control.requests().length;
        const clean = await stack.run(["policy", "analyze", "--policy-pack", PACK, "--policy-pack-config", pinned]);
        assert.equal(clean.exitCode, 0, text(clean));
        const stricter = configFile("stricter", { [PARTITIONS]: { pinnedPartitionCount: 3 }, [REPLICATION]: { minimum: 4 } });
        const audit = await stack.run(["policy", "analyze", "--policy-pack", PACK, "--policy-pack-config", stricter]);
        assert.notEqual(audit.exitCode, 0, text(audit));
        assert.match(text(audit), /ClusterScale "cluster": replicationFactor 3 on stack "prod" is below the minimum 4/);
        assert.equal(emulator().control.requests().length, requests, "analyze reached the cluster");
    });
});

describe(`the policy pack on the organization's resources under pulumi ${mainVersion()}`, function () {
    this.timeout(240_000);
    const emulator = useEmulator(examplesPlatform([CLIENT]));
    const adminConfig = () => ({ "platform:clientId": CLIENT.clientId, "platform:oauthUrl": emulator().authUrl, "platform:baseUrl": emulator().baseUrl });
    const writes = () =>
        emulator()
            .control.requests()
            .filter((entry) => entry.interface === "admin" && entry.method !== "GET")
            .map((entry) => `${entry.method} ${entry.path}`);
    const stacks: CliStack[] = [];
    after(() => stacks.forEach((stack) => stack.dispose()));
    const prodStack = async (example: string, config: Record<string, string>, secrets: Record<string, string> = {}) => {
        const stack = await CliStack.create({
            example: path.join(REPOSITORY, "examples", example),
            version: mainVersion(),
            stack: "prod",
            config: { ...adminConfig(), ...config },
            secrets: { "platform:clientSecret": CLIENT.clientSecret, ...secrets },
        });
        stacks.push(stack);
        stack.installPolicyHost();
        return stack;
    };

    it("examples/hosted-cluster: an unprotected production Cluster and an open allowlist fail the preview; the allowlist on the cluster passes", async () => {
        const stack = await prodStack(
            "hosted-cluster",
            { clusterName: "orders", region: "Belgium, Europe (europe-west1)", officeRange: "0.0.0.0/0" },
            { paymentsApiKey: "payments-policy-key" },
        );
        const preview = await stack.preview("--policy-pack", PACK);
        assert.notEqual(preview.exitCode, 0, text(preview));
        assert.match(text(preview), /\[mandatory\]\s+platform-protect-production-cluster\s+\(pulumi-nodejs:dynamic\/platform:Cluster: orders\)/);
        assert.match(text(preview), /Cluster "orders": protect is not set and/);
        assert.match(text(preview), /\[mandatory\]\s+platform-closed-ip-allowlist\s+\(pulumi-nodejs:dynamic\/platform:IpAllowlist: ingress\)/);
        assert.match(text(preview), /IpAllowlist "ingress": .*0\.0\.0\.0\/0.* on stack "prod": a range of prefix length 0 lets every address in/);
        // The allowlist's clusterId comes from the cluster: the stack policy sees the dependency.
        assert.doesNotMatch(text(preview), /platform-production-cluster-allowlist/);
        assert.deepEqual(writes(), []);
    });

    it("examples/organization: the admin role for someone not listed is advisory: it shows and the preview passes", async () => {
        const members = [
            { email: "ada@example.com", roles: ["admin"] },
            { email: "grace@example.com", roles: ["admin", "operationsengineer"] },
        ];
        const stack = await prodStack("organization", { members: JSON.stringify(members) });
        const config = stack.policyPackConfig("admins", { "platform-admin-role": { allowedEmails: ["ada@example.com"] } });
        const preview = await stack.preview("--policy-pack", PACK, "--policy-pack-config", config);
        assert.equal(preview.exitCode, 0, text(preview));
        assert.match(text(preview), /\[advisory\]\s+platform-admin-role\s+\(pulumi-nodejs:dynamic\/platform:OrganizationMember: grace@example.com\)/);
        assert.match(
            text(preview),
            /OrganizationMember "grace@example.com": roles gives "admin" to grace@example.com, who is not in allowedEmails \("ada@example.com"\)/,
        );
        assert.doesNotMatch(text(preview), /OrganizationMember: ada@example.com\)/);
    });
});
