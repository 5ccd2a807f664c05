// ClusterScale's check and diff through the real dynamic-provider host (DynamicHost), the provider serialized as
// dynamic.Resource serializes it: every bad input fails naming the field and the rule with nothing sent, values
// not known yet pass untouched, and fallbacks resolve from stack config and the environment.
import * as assert from "assert";
import * as os from "os";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { clusterScaleShim } from "../../provider/clusterScale/resource";
import { RunningEmulator, startEmulator } from "../emulator";
import { DynamicHost, PropertyMap, UNKNOWN, runPulumi } from "../engine";
import { PROGRAM, PROJECT, mutating } from "./clusterScaleSupport";

const URN = `urn:pulumi:dev::${PROJECT}::pulumi-nodejs:dynamic/platform:ClusterScale::cluster`;

/** The failure naming `field` first: every failure is the resource's, its reason led by the field (never the value). */
function failureNaming(failures: { property: string; reason: string }[], field: string) {
    const named = new RegExp(`^${field.replace(/[.[\]]/g, "\\$&")}(?![A-Za-z0-9_])`);
    return failures.find((failure) => failure.property === "" && named.test(failure.reason));
}

describe("ClusterScale: check and diff through the dynamic-provider host", function () {
    this.timeout(60_000);
    let emulator: RunningEmulator;
    let host: DynamicHost;
    let serialized: string;
    const lines: string[] = [];
    const envUrl = "http://127.0.0.1:9";

    before(async () => {
        emulator = await startEmulator({ brokers: 3, partitions: 3, replicationFactor: 3, opMs: 10 });
        serialized = (await pulumi.runtime.serializeFunction(() => clusterScaleShim, { allowSecrets: true })).text;
        host = await DynamicHost.start({
            cwd: PROGRAM,
            project: PROJECT,
            env: { PLATFORM_MANAGEMENT_URL: envUrl, PLATFORM_GATEWAY_URL: "" },
            onLog: (_stream, line) => lines.push(line),
        });
        await host.configure({ "platform:managementUrl": emulator.managementUrl });
    });
    after(async () => {
        await host?.stop();
        await emulator?.close();
    });
    beforeEach(() => {
        emulator.control.reset({ brokers: 3, partitions: 3, replicationFactor: 3, opMs: 10 });
        emulator.control.clearRequests();
        lines.length = 0;
    });

    // As the program sends them in a preview (the engine checks each resource before it diffs it).
    const news = (values: Record<string, unknown>): PropertyMap =>
        ({ resourceName: "cluster", dryRun: true, ...values, __provider: serialized }) as PropertyMap;
    const managementRequests = () => emulator.control.requests().filter((entry) => entry.interface === "management");

    /** Each case: the program's values, the old inputs, and the property and rule the failure must name. */
    const badInputs: { title: string; values: Record<string, unknown>; olds?: Record<string, unknown>; property: string; reason: RegExp }[] = [
        { title: "neither brokers nor brokerCount", values: {}, property: "brokers", reason: /either brokers .* or brokerCount/ },
        { title: "both brokers and brokerCount", values: { brokers: [0, 1], brokerCount: 2 }, property: "brokerCount", reason: /not both/ },
        { title: "an empty broker list", values: { brokers: [] }, property: "brokers", reason: /at least one broker/ },
        {
            title: "a negative broker id",
            values: { brokers: [0, -1] },
            property: "brokers",
            reason: /brokers\[1\] is -1: every broker id must be an integer ≥ 0/,
        },
        { title: "a fractional broker id", values: { brokers: [0, 1.5] }, property: "brokers", reason: /brokers\[1\] is 1.5/ },
        { title: "a duplicate broker id", values: { brokers: [0, 1, 1] }, property: "brokers", reason: /broker 1 is listed twice/ },
        { title: "brokerCount 0", values: { brokerCount: 0 }, property: "brokerCount", reason: /integer ≥ 1/ },
        { title: "partitionCount 0", values: { brokerCount: 3, partitionCount: 0 }, property: "partitionCount", reason: /integer ≥ 1/ },
        { title: "replicationFactor 0", values: { brokerCount: 3, replicationFactor: 0 }, property: "replicationFactor", reason: /integer ≥ 1/ },
        {
            title: "a replication factor above the broker count",
            values: { brokers: [0, 1], replicationFactor: 3 },
            property: "replicationFactor",
            reason: /replicationFactor 3 is more than the 2 broker\(s\)/,
        },
        { title: "timeoutSeconds 0", values: { brokerCount: 3, timeoutSeconds: 0 }, property: "timeoutSeconds", reason: /> 0/ },
        {
            title: "a non-http management URL",
            values: { brokerCount: 3, managementUrl: "ftp://gateway:9600" },
            property: "managementUrl",
            reason: /absolute http\(s\) origin/,
        },
        {
            title: "a management URL with a path",
            values: { brokerCount: 3, managementUrl: "http://gateway:9600/actuator" },
            property: "managementUrl",
            reason: /without path/,
        },
        {
            title: "a management URL with credentials",
            values: { brokerCount: 3, managementUrl: "http://user:pw@gateway:9600" },
            property: "managementUrl",
            reason: /credentials/,
        },
        {
            title: "a gateway URL that is no URL",
            values: { brokerCount: 3, gatewayUrl: "gateway" },
            property: "gatewayUrl",
            reason: /absolute http\(s\) origin/,
        },
        {
            title: "a base path without a leading slash",
            values: { brokerCount: 3, basePath: "actuator/cluster" },
            property: "basePath",
            reason: /starting with "\/"/,
        },
        {
            title: "force with a replication factor",
            values: { brokers: [0, 1], force: true, replicationFactor: 2 },
            property: "force",
            reason: /cannot change the replication factor/,
        },
        {
            title: "a partition count below the old one",
            values: { brokerCount: 3, partitionCount: 3 },
            olds: { brokerCount: 3, partitionCount: 6 },
            property: "partitionCount",
            reason: /partitionCount 3 is below the current 6/,
        },
        { title: "force that is not a boolean", values: { brokerCount: 3, force: "yes" }, property: "force", reason: /true or false/ },
        {
            title: "auth with both headers and a client",
            values: { brokerCount: 3, auth: { headers: { a: "b" }, clientId: "c" } },
            property: "auth",
            reason: /not both/,
        },
        {
            title: "auth without a client secret",
            values: { brokerCount: 3, auth: { clientId: "c", oauthUrl: "http://127.0.0.1:1/token" } },
            property: "auth.clientSecret",
            reason: /required/,
        },
    ];

    for (const { title, values, olds, property, reason } of badInputs) {
        it(`refuses ${title}, naming ${property}, with nothing sent`, async () => {
            const result = await host.check(URN, olds ? news(olds) : {}, news(values));
            const failure = failureNaming(result.failures, property);
            assert.ok(failure, `no failure for ${property}: ${JSON.stringify(result.failures)}`);
            assert.match(failure.reason, reason);
            assert.deepStrictEqual(managementRequests(), []);
        });
    }

    it("never repeats a credential in a failure", async () => {
        const result = await host.check(URN, {}, news({ brokerCount: 3, auth: { clientId: "c", clientSecret: "very-secret-value", oauthUrl: "not a url" } }));
        assert.ok(failureNaming(result.failures, "auth.oauthUrl") !== undefined, JSON.stringify(result.failures));
        assert.ok(!JSON.stringify(result.failures).includes("very-secret-value"));
    });

    it("resolves the fallbacks and defaults and stores them in the checked inputs (old inputs present: no request)", async () => {
        const result = await host.check(URN, news({ brokerCount: 3 }), news({ brokerCount: 3 }));
        assert.deepStrictEqual(result.failures, []);
        const { __provider: _provider, ...inputs } = result.inputs;
        assert.deepStrictEqual(inputs, {
            resourceName: "cluster",
            managementUrl: emulator.managementUrl,
            basePath: "/actuator/cluster",
            brokerCount: 3,
            force: false,
            timeoutSeconds: 1800,
            cancelOnTimeout: false,
        });
        assert.deepStrictEqual(managementRequests(), []);
    });

    it("stack config wins over the environment, and the input over both", async () => {
        const fromInput = await host.check(URN, news({ brokerCount: 3 }), news({ brokerCount: 3, managementUrl: "https://mgmt.example:9600/" }));
        assert.strictEqual(fromInput.inputs.managementUrl, "https://mgmt.example:9600");
        // A second host without the stack config falls back to the environment.
        const bare = await DynamicHost.start({ cwd: PROGRAM, project: PROJECT, env: { PLATFORM_MANAGEMENT_URL: envUrl } });
        try {
            await bare.configure({});
            const fromEnv = await bare.check(URN, news({ brokerCount: 3 }), news({ brokerCount: 3 }));
            assert.strictEqual(fromEnv.inputs.managementUrl, envUrl);
        } finally {
            await bare.stop();
        }
    });

    it("lets values that are not known yet through, and asks for no plan", async () => {
        const result = await host.check(URN, {}, news({ brokerCount: UNKNOWN, replicationFactor: 2, partitionCount: UNKNOWN }));
        assert.deepStrictEqual(result.failures, []);
        assert.strictEqual(result.inputs.brokerCount, UNKNOWN);
        assert.strictEqual(result.inputs.partitionCount, UNKNOWN);
        assert.deepStrictEqual(managementRequests(), []);
        await waitForLine(lines, "the plan will be known at apply");
    });

    it("a force removal that would add a broker or partitions is refused by its plan, against the live cluster, naming force", async () => {
        const managementUrl = emulator.managementUrl;
        // The old inputs may lag behind the cluster (a partially failed update keeps them): they decide nothing here.
        const olds = news({ managementUrl, brokers: [0, 1, 2, 3], partitionCount: 6 });
        const outputs = { ...olds, topology: [] } as PropertyMap;
        for (const [values, reason] of [
            [{ brokers: [0, 1, 3], force: true }, /force removal cannot add brokers \(3 is not a member of the cluster\)/],
            [{ brokers: [0, 1], force: true, partitionCount: 6 }, /force removal cannot add partitions \(3 → 6\)/],
        ] as const) {
            const checked = await host.check(URN, olds, news({ managementUrl, ...values }));
            assert.deepStrictEqual(checked.failures, []);
            await assert.rejects(host.diff(URN, "id", outputs, checked.inputs, olds), (error: Error) => {
                assert.match(error.message, /ClusterScale "cluster": force: /);
                assert.match(error.message, reason);
                return true;
            });
        }
        assert.deepStrictEqual(mutating(managementRequests()), []);
    });

    it("diff with unknown inputs reports an update, and a replacement when force is set", async () => {
        const olds = news({ brokerCount: 3 });
        await host.check(URN, olds, news({ managementUrl: emulator.managementUrl, brokerCount: UNKNOWN }));
        const plain = await host.diff(
            URN,
            "id",
            olds,
            news({ managementUrl: emulator.managementUrl, basePath: "/actuator/cluster", brokerCount: UNKNOWN, force: false }),
            olds,
        );
        assert.deepStrictEqual(plain, { changes: "some", replaces: [], deleteBeforeReplace: false });
        const forced = await host.diff(
            URN,
            "id",
            olds,
            news({ managementUrl: emulator.managementUrl, basePath: "/actuator/cluster", brokers: UNKNOWN, force: true }),
            olds,
        );
        assert.deepStrictEqual(forced.replaces, ["brokers"]);
        assert.deepStrictEqual(managementRequests(), []);
    });

    it("a check failure fails preview through the engine with the field and the rule, and nothing is sent", async () => {
        const run = await runPulumi({
            command: "preview",
            programDir: PROGRAM,
            stack: "check",
            stateFile: path.join(os.tmpdir(), `cluster-scale-check-${process.pid}.json`),
            config: { "platform:managementUrl": emulator.managementUrl, scale: JSON.stringify({ brokers: [0, 0], replicationFactor: 5 }) },
            env: { PULUMI_CONFIG_PASSPHRASE: "check" },
        });
        assert.strictEqual(run.exitCode, 1, run.stdout);
        assert.match(run.stderr, /has a problem: brokers: broker 0 is listed twice: broker ids must be unique/);
        assert.match(run.stderr, /has a problem: replicationFactor 5 is more than the 1 broker\(s\)/);
        assert.deepStrictEqual(mutating(emulator.control.requests()), []);
        assert.deepStrictEqual(managementRequests(), []);
    });
});

async function waitForLine(lines: string[], fragment: string): Promise<void> {
    // Host output arrives through a pipe, shortly after the call returns; the bound only ends a test that would hang.
    for (let i = 0; i < 1000; i++) {
        if (lines.some((line) => line.includes(fragment))) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.fail(`no line with "${fragment}" in:\n${lines.join("\n")}`);
}
