// The entry modules every stored provider requires are a public contract: each resolves by the package's name and
// exports `provider` with every dynamic-provider method. Renaming a file or an export breaks every stack's state.
import * as assert from "assert";
import { ENTRY_POINTS } from "../../provider/shared/entryPoints";

const METHODS = ["configure", "check", "diff", "create", "read", "update", "delete"];

describe("the provider entry points (a public contract)", () => {
    for (const [resource, entry] of Object.entries(ENTRY_POINTS)) {
        it(`${resource}: ${entry} resolves from the installed package and exports provider with every method`, () => {
            // eslint-disable-next-line @typescript-eslint/no-require-imports -- the path under test, as the shim requires it
            const loaded = require(entry) as { provider?: Record<string, unknown> };
            assert.ok(loaded.provider !== undefined, `${entry} exports no provider`);
            assert.deepStrictEqual(
                METHODS.filter((method) => typeof loaded.provider![method] !== "function"),
                [],
            );
        });
    }

    it("names every entry exactly as the published layout has it", () => {
        assert.deepStrictEqual(ENTRY_POINTS, {
            clusterScale: "pulumi-platform/dist/provider/clusterScale/provider",
            adminClient: "pulumi-platform/dist/provider/adminClient/provider",
            organizationMember: "pulumi-platform/dist/provider/organizationMember/provider",
            cluster: "pulumi-platform/dist/provider/cluster/provider",
            clusterClient: "pulumi-platform/dist/provider/clusterClient/provider",
            connectorSecret: "pulumi-platform/dist/provider/connectorSecret/provider",
            ipAllowlist: "pulumi-platform/dist/provider/ipAllowlist/provider",
        });
    });
});
