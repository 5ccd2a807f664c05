// Stacks written by 0.1.x: their state holds each provider's own code, which requires the package's modules by their
// paths of then. Loaded in today's provider host from the texts 0.1.x stored (test/provider/fixtures), a ClusterScale
// and an AdminClient still refresh and destroy.
import * as assert from "assert";
import { readFileSync } from "fs";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { adminClientShim } from "../../provider/adminClient/resource";
import { clusterScaleShim } from "../../provider/clusterScale/resource";
import { LEGACY_PATHS } from "../../provider/shared/legacyPaths";
import { DynamicHost, PropertyMap } from "../engine";
import { requestLine } from "../support/requestLog";
import { CLIENT, PROGRAMS, useAdminEmulator } from "./adminClientSupport";
import { PROGRAM, PROJECT, URN } from "./clusterScaleSupport";

const fixture = (name: string) => readFileSync(path.join(__dirname, "fixtures", name), "utf8");

/** Creates a resource with today's provider, then refreshes and deletes it with the provider text 0.1.x stored. */
async function refreshAndDestroyWithLegacyProvider(options: {
    cwd: string;
    project: string;
    urn: string;
    inputs: PropertyMap;
    shim: pulumi.dynamic.ResourceProvider;
    legacy: string;
}): Promise<{ refreshed: PropertyMap; created: PropertyMap; lines: string[] }> {
    const shim = (await pulumi.runtime.serializeFunction(() => options.shim, { allowSecrets: true })).text;
    const writer = await DynamicHost.start({ cwd: options.cwd, project: options.project });
    let created: { id: string; properties: PropertyMap };
    try {
        await writer.configure({});
        const checked = await writer.check(options.urn, {}, { ...options.inputs, __provider: shim });
        assert.deepStrictEqual(checked.failures, []);
        created = await writer.create(options.urn, checked.inputs);
    } finally {
        await writer.stop();
    }
    const lines: string[] = [];
    const stored = { ...created.properties, __provider: options.legacy };
    const reader = await DynamicHost.start({ cwd: options.cwd, project: options.project, onLog: (_stream, line) => lines.push(line) });
    try {
        await reader.configure({});
        const refreshed = await reader.read(options.urn, created.id, stored);
        assert.strictEqual(refreshed.id, created.id);
        await reader.delete(options.urn, created.id, refreshed.properties, stored);
        return { refreshed: refreshed.properties, created: created.properties, lines };
    } finally {
        await reader.stop();
    }
}

describe("stacks written by 0.1.x", function () {
    this.timeout(60_000);
    const emulator = useAdminEmulator();

    it("every module path a 0.1.x provider requires still resolves in the installed package", () => {
        for (const legacyPath of LEGACY_PATHS) {
            assert.doesNotThrow(() => require.resolve(`pulumi-platform/dist/${legacyPath}.js`, { paths: [PROGRAM] }), legacyPath);
        }
        for (const text of [fixture("clusterScaleProvider-0.1.txt"), fixture("adminClientProvider-0.1.txt")]) {
            const required = [...text.matchAll(/require\("pulumi-platform\/dist\/([^"]+)\.js"\)/g)].map((match) => match[1]);
            assert.deepStrictEqual(
                required.filter((module) => !(LEGACY_PATHS as readonly string[]).includes(module) && module !== "sdk/errors"),
                [],
            );
        }
    });

    it("a ClusterScale refreshes to the live layout and is destroyed with nothing sent", async () => {
        emulator().control.clearRequests();
        const { refreshed, created, lines } = await refreshAndDestroyWithLegacyProvider({
            cwd: PROGRAM,
            project: PROJECT,
            urn: URN,
            inputs: { resourceName: "cluster", managementUrl: emulator().managementUrl, brokerCount: 3 },
            shim: clusterScaleShim,
            legacy: fixture("clusterScaleProvider-0.1.txt"),
        });
        assert.deepStrictEqual(refreshed.topology, created.topology);
        const afterCreate = emulator()
            .control.requests()
            .filter((entry) => entry.interface === "management")
            .map(requestLine);
        assert.strictEqual(afterCreate[afterCreate.length - 1], "GET /actuator/cluster 200", "refresh read the cluster; destroy sent nothing");
        assert.ok(
            lines.some((line) => line.includes('ClusterScale "cluster": removed from the stack only')),
            lines.join("\n"),
        );
    });

    it("an AdminClient refreshes (lists the members with the kept secret) and is destroyed", async () => {
        const { refreshed, lines } = await refreshAndDestroyWithLegacyProvider({
            cwd: path.join(PROGRAMS, "admin-clients"),
            project: "admin-clients",
            urn: "urn:pulumi:test::admin-clients::pulumi-nodejs:dynamic/platform:AdminClient::admin-0",
            inputs: {
                resourceName: "admin-0",
                clientId: CLIENT.clientId,
                clientSecret: CLIENT.clientSecret,
                oauthUrl: emulator().authUrl,
                baseUrl: emulator().baseUrl,
            },
            shim: adminClientShim,
            legacy: fixture("adminClientProvider-0.1.txt"),
        });
        assert.ok(Array.isArray(refreshed.members) && (refreshed.members as unknown[]).length > 0);
        assert.ok(
            lines.some((line) => line.includes('AdminClient "admin-0": nothing to delete remotely')),
            lines.join("\n"),
        );
    });
});
