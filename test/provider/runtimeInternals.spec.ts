// What the product leans on in Node and @pulumi/pulumi beyond their documented API, each named, so that a Node line or
// an SDK release that moves one fails here with the line and the version, instead of a Cancel going unheard without a
// word. .ci/run runs this file on Node 22 and 26 besides the main line. The behaviour each one carries is tested where
// it matters too: Cancel and the host's end in hostLifetime.spec.ts, the entry modules in entryModulesOnce.spec.ts,
// the plugin's process in pluginHost.spec.ts, the stopped ups under the CLI in test/cli/stoppedUps/.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { CANCEL_PATH, DYNAMIC_PROVIDER_HOST_MAIN, HTTP2_STREAM_CHANNEL } from "../../provider/shared/hostLifetime";
import { DynamicHost } from "../engine/dynamicHost";

const REPOSITORY = path.resolve(__dirname, "..", "..");
const SDK_VERSION = (JSON.parse(fs.readFileSync(require.resolve("@pulumi/pulumi/package.json"), "utf8")) as { version: string }).version;
const RUNTIME = `Node ${process.version}, @pulumi/pulumi ${SDK_VERSION}`;
const moved = (what: string, how: string) => `${what} moved (${RUNTIME}): ${how}`;

describe(`the runtime's internals the product leans on (${RUNTIME})`, function () {
    this.timeout(60_000);

    it("the dynamic-provider host's main module is @pulumi/pulumi's cmd/dynamic-provider/index.js (how the package knows it runs in one)", () => {
        const main = require.resolve("@pulumi/pulumi/cmd/dynamic-provider");
        assert.ok(main.endsWith(DYNAMIC_PROVIDER_HOST_MAIN), moved("the dynamic-provider host's main module", `it is ${main}`));
    });

    it(`the host's gRPC server is Node's HTTP/2 server: the engine's Cancel comes through ${HTTP2_STREAM_CHANNEL} with the path ${CANCEL_PATH}`, async () => {
        const work = fs.mkdtempSync(path.join(os.tmpdir(), "platform-internals-"));
        const preload = path.join(work, "streams.js");
        // A subscriber in the real host process, as the package subscribes there: each stream's path, as a log line.
        fs.writeFileSync(
            preload,
            `require("diagnostics_channel").subscribe(${JSON.stringify(HTTP2_STREAM_CHANNEL)}, (m) => process.stderr.write("stream " + (m.headers && m.headers[":path"]) + "\\n"));\n`,
        );
        const lines: string[] = [];
        const host = await DynamicHost.start({
            cwd: REPOSITORY,
            project: "internals",
            env: { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --require ${preload}`.trim() },
            onLog: (_stream, line) => lines.push(line),
        });
        try {
            await host.cancel();
            await host.configure({});
        } finally {
            await host.stop();
            fs.rmSync(work, { recursive: true, force: true });
        }
        const paths = lines.filter((line) => line.startsWith("stream ")).map((line) => line.slice("stream ".length));
        assert.ok(paths.includes(CANCEL_PATH), moved("the host's Cancel as an HTTP/2 stream", `the channel saw ${JSON.stringify(paths)}`));
        assert.ok(paths.includes("/pulumirpc.ResourceProvider/Configure"), moved("the host's gRPC paths", JSON.stringify(paths)));
    });

    it("google-protobuf's Struct, reached through @pulumi/pulumi, converts the plugin's outputs both ways (fromJavaScript, toJavaScript)", () => {
        const fromPulumi = require.resolve("google-protobuf/google/protobuf/struct_pb", {
            paths: [path.dirname(require.resolve("@pulumi/pulumi/package.json"))],
        });
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- the copy @pulumi/pulumi's own messages are built with
        const { Struct } = require(fromPulumi) as { Struct: { fromJavaScript(value: object): { toJavaScript(): unknown } } };
        assert.equal(typeof Struct?.fromJavaScript, "function", moved("Struct.fromJavaScript", "it is gone"));
        const outputs = { changeId: 7, topology: [{ id: 0, partitions: [{ id: 1, priority: 3 }] }], lastChange: null, force: false, url: "http://x" };
        assert.deepEqual(Struct.fromJavaScript(outputs).toJavaScript(), outputs, moved("Struct.fromJavaScript", "a round trip changed the outputs"));
    });
});
