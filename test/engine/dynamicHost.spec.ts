// The host wrapper against the real dynamic-provider host, with a provider serialized as dynamic.Resource does.
import * as assert from "assert";
import { spawn } from "child_process";
import * as path from "path";
import * as readline from "readline";
import * as pulumi from "@pulumi/pulumi";
import { leftBehind } from "../support/leftProcesses";
import { DynamicHost, HostCallError, HostStream } from "./dynamicHost";
import { makeSecret, PropertyMap } from "./propertyValues";
import { TYPESCRIPT_REQUIRE } from "../support/typescriptRequire";

interface Props {
    name: string;
    size: number;
    fail?: boolean;
    gone?: boolean;
}

class EchoProvider implements pulumi.dynamic.ResourceProvider<Props, Props> {
    private greeting = "";
    private secret = "";

    async configure(request: pulumi.dynamic.ConfigureRequest): Promise<void> {
        this.greeting = request.config.require("greeting");
        this.secret = request.config.require("secretKey");
    }

    async check(_olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult<Props>> {
        return news.size < 0 ? { failures: [{ property: "size", reason: "negative" }] } : { inputs: news };
    }

    async diff(_id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
        return { changes: olds.size !== news.size || olds.name !== news.name, replaces: olds.name !== news.name ? ["name"] : [] };
    }

    async create(inputs: Props): Promise<pulumi.dynamic.CreateResult> {
        console.log(`created ${inputs.name}`);
        console.error(`stderr of ${inputs.name}`);
        const outs = { ...inputs, greeting: this.greeting, secretMatches: this.secret === "s3cr3t" };
        if (inputs.fail) throw Object.assign(new Error("not ready"), { id: `id-${inputs.name}`, properties: outs, reasons: ["still starting"] });
        return { id: `id-${inputs.name}`, outs };
    }

    async read(id: string, props?: Props): Promise<pulumi.dynamic.ReadResult> {
        return props?.gone ? {} : { id, props };
    }

    async update(_id: string, _olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> {
        return { outs: { ...news, greeting: this.greeting } };
    }

    async delete(): Promise<void> {}
}

const provider = new EchoProvider();
const URN = "urn:pulumi:dev::hosttest::pulumi-nodejs:dynamic:Resource::thing";

describe("engine: DynamicHost drives the real dynamic-provider host over gRPC", function () {
    let host: DynamicHost;
    let serialized: string;
    const logs: { stream: HostStream; line: string }[] = [];

    before(async () => {
        serialized = (await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true })).text;
        host = await DynamicHost.start({
            cwd: path.resolve(__dirname, "..", ".."),
            project: "hosttest",
            onLog: (stream, line) => logs.push({ stream, line }),
        });
    });
    after(() => host?.stop());

    const props = (values: Partial<Props> & Record<string, unknown>): PropertyMap =>
        ({ name: "thing", size: 1, ...values, __provider: serialized }) as PropertyMap;

    it("Configure takes the stack config with secrets wrapped, and reports acceptSecrets=false", async () => {
        const response = await host.configure({ "hosttest:greeting": "hello", "hosttest:secretKey": makeSecret("s3cr3t") });
        assert.deepStrictEqual(response, { acceptSecrets: false });
    });

    it("Check returns the inputs with __provider, or the failures", async () => {
        const ok = await host.check(URN, {}, props({}));
        assert.deepStrictEqual(ok, { inputs: props({}), failures: [] });
        const bad = await host.check(URN, {}, props({ size: -1 }));
        assert.deepStrictEqual(bad.failures, [{ property: "size", reason: "negative" }]);
    });

    it("Create runs the provider configured from the secret config, and its console output arrives as log lines", async () => {
        const created = await host.create(URN, props({}));
        assert.strictEqual(created.id, "id-thing");
        assert.strictEqual(created.properties.greeting, "hello");
        assert.strictEqual(created.properties.secretMatches, true);
        assert.strictEqual(created.properties.__provider, serialized);
        for (let i = 0; i < 50 && logs.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10));
        assert.deepStrictEqual(logs, [
            { stream: "stdout", line: "created thing" },
            { stream: "stderr", line: "stderr of thing" },
        ]);
    });

    it("Diff maps changes and replaces", async () => {
        const olds = props({});
        assert.deepStrictEqual(await host.diff(URN, "id-thing", olds, props({}), olds), { changes: "none", replaces: [], deleteBeforeReplace: false });
        assert.deepStrictEqual(await host.diff(URN, "id-thing", olds, props({ size: 2 }), olds), { changes: "some", replaces: [], deleteBeforeReplace: false });
        assert.deepStrictEqual((await host.diff(URN, "id-thing", olds, props({ name: "other" }), olds)).replaces, ["name"]);
    });

    it("a partial failure of Create carries the ErrorResourceInitFailed detail", async () => {
        const error = await host.create(URN, props({ fail: true })).then(
            () => undefined,
            (e: unknown) => e,
        );
        assert.ok(error instanceof HostCallError, String(error));
        assert.strictEqual(error.method, "Create");
        assert.strictEqual(error.message, "not ready");
        assert.deepStrictEqual(error.initFailure?.id, "id-thing");
        assert.deepStrictEqual(error.initFailure?.reasons, ["still starting"]);
        assert.strictEqual(error.initFailure?.properties.greeting, "hello");
    });

    it("Read returns the properties, or an empty id for a resource that is gone; Update and Delete succeed", async () => {
        const read = await host.read(URN, "id-thing", props({}), props({}));
        assert.strictEqual(read.id, "id-thing");
        assert.strictEqual(read.properties.size, 1);
        assert.strictEqual((await host.read(URN, "id-thing", props({ gone: true }))).id, "");
        const updated = await host.update(URN, "id-thing", props({}), props({ size: 3 }), props({}));
        assert.strictEqual(updated.properties.size, 3);
        await host.delete(URN, "id-thing", props({}), props({}));
    });

    it("stop ends the host process; later calls fail", async () => {
        const pid = host.pid!;
        await host.stop();
        assert.ok(!isAlive(pid));
        const error = await host.check(URN, {}, props({})).then(
            () => undefined,
            (e: unknown) => e,
        );
        assert.ok(error instanceof HostCallError && /stopped/.test(error.message), String(error));
    });

    it("as under the real CLI, a host whose provider does not watch its engine outlives a starter killed with SIGKILL (the package's providers do watch: test/provider/hostLifetime.spec.ts)", async () => {
        const starter = spawn(
            process.execPath,
            [
                ...TYPESCRIPT_REQUIRE,
                "-e",
                `require(${JSON.stringify(path.join(__dirname, "dynamicHost"))}).DynamicHost.start({ cwd: process.cwd(), project: "p" })` +
                    ".then((host) => { console.log(host.pid); setInterval(() => {}, 1000); });",
            ],
            { cwd: path.resolve(__dirname, "..", ".."), stdio: ["ignore", "pipe", "inherit"] },
        );
        try {
            const pid = Number(await new Promise<string>((resolve) => readline.createInterface({ input: starter.stdout! }).once("line", resolve)));
            assert.ok(isAlive(pid));
            const starterGone = new Promise((resolve) => starter.once("exit", resolve));
            starter.kill("SIGKILL");
            await starterGone;
            assert.ok(isAlive(pid), "the host went with its starter: the stand-in ends hosts that the real CLI leaves running");
            assert.ok(leftBehind().some((entry) => entry.pid === pid));
            process.kill(pid, "SIGKILL");
        } finally {
            starter.kill("SIGKILL");
        }
    });
});

function isAlive(pid: number): boolean {
    try {
        process.kill(pid, 0);
        return true;
    } catch {
        return false;
    }
}
