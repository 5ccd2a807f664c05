// What the state stores as ClusterScale's provider: a small shim that requires the installed package's entry module.
// Loaded back from its text it plans and applies; a state it wrote refreshes and destroys in a new host; a host
// where the package is missing removes the resource with a warning.
import * as assert from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { clusterScaleShim } from "../../provider/clusterScale/resource";
import { ENTRY_POINTS } from "../../provider/shared/entryPoints";
import { RunningEmulator, startEmulator } from "../emulator";
import { DynamicHost, PropertyMap } from "../engine";
import { PROGRAM, PROJECT, URN } from "./clusterScaleSupport";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const requireFromString = require("require-from-string") as (code: string) => { handler: () => pulumi.dynamic.ResourceProvider };

/** The target of the serialized-provider size (issue: ≤ 2 kB per resource). */
const SHIM_BUDGET_BYTES = 2_048;

describe("ClusterScale: the provider the state stores", function () {
    this.timeout(60_000);
    let emulator: RunningEmulator;
    let shim: string;
    // What the provider prints, captured instead of shown between the test titles.
    const printed: string[] = [];
    const consoleLog = console.log;
    beforeEach(() => {
        printed.length = 0;
        console.log = (...args: unknown[]) => void printed.push(args.join(" "));
    });
    afterEach(() => {
        console.log = consoleLog;
    });

    before(async () => {
        emulator = await startEmulator({ brokers: 3, partitions: 3, replicationFactor: 3, opMs: 5 });
        emulator.control.startBroker(3);
        const serialized = await pulumi.runtime.serializeFunction(() => clusterScaleShim, { allowSecrets: true });
        assert.strictEqual(serialized.containsSecrets, false);
        shim = serialized.text;
    });
    after(() => emulator?.close());

    it("is a shim of at most 2 kB that requires the installed package's entry module, and none of its code", () => {
        assert.ok(Buffer.byteLength(shim) <= SHIM_BUDGET_BYTES, `${Buffer.byteLength(shim)} bytes`);
        assert.ok(shim.includes(JSON.stringify(ENTRY_POINTS.clusterScale)), shim);
        for (const code of ["undici", "zod", "planChange", "waitForChange"]) assert.ok(!shim.includes(code), `the shim holds ${code}`);
    });

    it("loads back from its text, and plans and applies a change", async () => {
        const provider = requireFromString(shim).handler();
        await provider.configure!({
            config: { get: (key: string) => (key === "platform:managementUrl" ? emulator.managementUrl : undefined), require: () => "" },
        });
        const checked = await provider.check!({}, { resourceName: "serialized", brokerCount: 4, __provider: shim });
        assert.deepStrictEqual(checked.failures, undefined);
        assert.strictEqual(checked.inputs.managementUrl, emulator.managementUrl, "configure's stack config was used");
        const created = await provider.create({ ...checked.inputs, timeoutSeconds: 30, __provider: shim });
        assert.strictEqual(created.id, `${emulator.managementUrl}/actuator/cluster`);
        assert.deepStrictEqual(
            created.outs.topology.map((broker: { id: number }) => broker.id),
            [0, 1, 2, 3],
        );
        assert.strictEqual(created.outs.auth, undefined);
        const mutating = emulator.control.requests().filter((entry) => entry.method !== "GET" && entry.query.dryRun !== "true");
        assert.strictEqual(mutating.length, 1);
        assert.ok(
            printed.some((line) => line.includes('ClusterScale "serialized": change 2 completed: 4 brokers')),
            printed.join("\n"),
        );
    });

    it("a state it wrote refreshes and destroys in a new provider host, as the next version's would", async () => {
        emulator.control.reset({ brokers: 3, partitions: 3, replicationFactor: 3, opMs: 5 });
        const inputs: PropertyMap = { resourceName: "cluster", managementUrl: emulator.managementUrl, brokerCount: 3, __provider: shim };
        const writer = await DynamicHost.start({ cwd: PROGRAM, project: PROJECT });
        let state: PropertyMap;
        let id: string;
        try {
            await writer.configure({});
            const checked = await writer.check(URN, {}, inputs);
            ({ id, properties: state } = await writer.create(URN, checked.inputs));
        } finally {
            await writer.stop();
        }
        assert.strictEqual(state.__provider, shim, "the state keeps the shim");
        emulator.control.clearRequests();

        const lines: string[] = [];
        const reader = await DynamicHost.start({ cwd: PROGRAM, project: PROJECT, onLog: (_stream, line) => lines.push(line) });
        try {
            await reader.configure({});
            const refreshed = await reader.read(URN, id, state);
            assert.strictEqual(refreshed.id, id);
            assert.deepStrictEqual(refreshed.properties.topology, state.topology);
            await reader.delete(URN, id, refreshed.properties, inputs);
        } finally {
            await reader.stop();
        }
        assert.deepStrictEqual(
            emulator.control.requests().map((entry) => `${entry.method} ${entry.path}`),
            ["GET /actuator/cluster"],
            "refresh reads the cluster once; destroy sends nothing",
        );
        assert.ok(
            lines.some((line) => line.includes('ClusterScale "cluster": removed from the stack only')),
            lines.join("\n"),
        );
    });

    it("without the package installed, destroy removes the resource from the stack with a warning and other calls name the remedy", async () => {
        // A project directory whose node_modules has @pulumi/pulumi (the host) but not pulumi-platform.
        const project = fs.mkdtempSync(path.join(os.tmpdir(), "without-package-"));
        fs.mkdirSync(path.join(project, "node_modules"));
        fs.symlinkSync(path.dirname(path.dirname(require.resolve("@pulumi/pulumi/package.json"))), path.join(project, "node_modules", "@pulumi"));
        const lines: string[] = [];
        const host = await DynamicHost.start({ cwd: project, project: PROJECT, onLog: (_stream, line) => lines.push(line) });
        const props: PropertyMap = { resourceName: "orphan", managementUrl: emulator.managementUrl, basePath: "/actuator/cluster", __provider: shim };
        try {
            await host.configure({});
            await assert.rejects(
                host.read(URN, "id", props),
                /ClusterScale "orphan": cannot load pulumi-platform\/dist\/provider\/clusterScale\/provider .*npm install pulumi-platform/,
            );
            await host.delete(URN, "id", props, props);
        } finally {
            await host.stop();
            fs.rmSync(project, { recursive: true, force: true });
        }
        assert.ok(
            lines.some((line) => /ClusterScale "orphan": cannot load .*Removed from the stack only: deleting it sends nothing/.test(line)),
            lines.join("\n"),
        );
    });
});
