// The pack as a whole: every policy once with a unique name and a level, its config schema covering what the ready
// pack's config.example.json sets, and the type tokens and stack names every policy relies on.

import * as assert from "assert";
import * as fs from "fs";
import * as path from "path";
import { PLATFORM_RESOURCES, partitionCount, platformPolicies, platformResourceOf, stackNameFromEnvironment, stackNameFromUrn, typeTokens } from "../../policy";
import { violations } from "./policyCalls";

const PACK = path.resolve(__dirname, "../../policy-pack");

describe("the policy pack", () => {
    it("holds each policy once, named platform-*, each with a level and a description", () => {
        const policies = platformPolicies();
        const names = policies.map((policy) => policy.name);
        assert.strictEqual(new Set(names).size, names.length);
        for (const policy of policies) {
            assert.match(policy.name, /^platform-[a-z-]+$/);
            assert.ok(policy.enforcementLevel === "mandatory" || policy.enforcementLevel === "advisory", policy.name);
            assert.ok(policy.description.length > 20, policy.name);
        }
        const mandatory = policies.filter((policy) => policy.enforcementLevel === "mandatory").map((policy) => policy.name);
        assert.deepStrictEqual(mandatory, [
            "platform-force-removal",
            "platform-minimum-replication-factor",
            "platform-partition-count",
            "platform-retain-removed-broker-volumes",
            "platform-protect-production-cluster",
            "platform-closed-ip-allowlist",
        ]);
    });

    it("the ready pack has the package's version (@pulumi/policy refuses a pack without one, and shows it)", () => {
        const pack = JSON.parse(fs.readFileSync(path.join(PACK, "package.json"), "utf8")) as { version?: string };
        const own = JSON.parse(fs.readFileSync(path.join(PACK, "..", "package.json"), "utf8")) as { version: string };
        assert.strictEqual(pack.version, own.version);
    });

    it("its example config names only policies and settings the pack has", () => {
        const example = JSON.parse(fs.readFileSync(path.join(PACK, "config.example.json"), "utf8")) as Record<string, Record<string, unknown>>;
        const policies = new Map(platformPolicies().map((policy) => [policy.name, policy]));
        for (const [name, settings] of Object.entries(example)) {
            const policy = policies.get(name);
            assert.ok(policy, `${name} is not a policy of the pack`);
            for (const key of Object.keys(settings).filter((key) => key !== "enforcementLevel")) {
                assert.ok(policy.configSchema?.properties?.[key], `${name} has no setting ${key}`);
            }
        }
        assert.deepStrictEqual(Object.keys(example).sort(), [...policies.keys()].sort());
    });

    it("levels and config set in code, by factory", () => {
        const [force] = platformPolicies({ forceRemoval: { enforcementLevel: "advisory" } });
        assert.strictEqual(force.enforcementLevel, "advisory");
    });

    it("knows both type tokens of every resource, and nothing else", () => {
        for (const resource of PLATFORM_RESOURCES) {
            assert.deepStrictEqual(typeTokens(resource), [`pulumi-nodejs:dynamic/platform:${resource}`, `platform:index:${resource}`]);
            for (const token of typeTokens(resource)) assert.strictEqual(platformResourceOf(token), resource);
        }
        for (const other of ["pulumi-nodejs:dynamic:Resource", "platform:index:getMembers", "pulumi:providers:platform", "kubernetes:apps/v1:StatefulSet"]) {
            assert.strictEqual(platformResourceOf(other), undefined);
        }
    });

    it("reads the stack's name from the resource's URN, as every CLI gives it; unknown, it counts as production", async () => {
        assert.strictEqual(stackNameFromUrn("urn:pulumi:prod-eu::platform::platform:index:ClusterScale::cluster"), "prod-eu");
        assert.strictEqual(stackNameFromUrn("urn:pulumi:::platform::platform:index:ClusterScale::cluster"), undefined);
        assert.strictEqual(stackNameFromUrn("not-a-urn"), undefined);
        const type = "platform:index:ClusterScale";
        const on = (stack: string) => ({ type, props: { partitionCount: 6 }, urn: `urn:pulumi:${stack}::platform::${type}::cluster`, name: "cluster" });
        const [production] = await violations(partitionCount(), on("prod"));
        assert.match(production, /^ClusterScale "cluster": partitionCount 6 on stack "prod": /);
        assert.deepStrictEqual(await violations(partitionCount(), on("dev")), []);
        const [unknown] = await violations(partitionCount(), { type, props: { partitionCount: 6 }, urn: "" });
        assert.match(unknown, /partitionCount 6 on a stack whose name is not known here \(counted as production\)/);
    });

    it("reads the stack's name from the environment as older CLIs give it", () => {
        assert.strictEqual(stackNameFromEnvironment({ PULUMI_NODEJS_STACK: "prod" }), "prod");
        assert.strictEqual(stackNameFromEnvironment({ PULUMI_STACK: "dev" }), "dev");
        assert.strictEqual(stackNameFromEnvironment({}), undefined);
        assert.strictEqual(stackNameFromEnvironment({ PULUMI_NODEJS_STACK: "" }), undefined);
    });

    it("the ready pack's folder is what the CLI runs: PulumiPolicy.yaml for Node and a main that serves the pack", () => {
        assert.match(fs.readFileSync(path.join(PACK, "PulumiPolicy.yaml"), "utf8"), /^runtime: nodejs$/m);
        const main = JSON.parse(fs.readFileSync(path.join(PACK, "package.json"), "utf8")).main as string;
        assert.match(fs.readFileSync(path.join(PACK, main), "utf8"), /require\("\.\.\/dist\/policy\/index\.js"\)\.platformPolicyPack\(\)/);
    });
});
