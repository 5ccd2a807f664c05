// Every resource of a provider host shares the package's module state, because every stored provider requires the
// same installed modules: two provider texts loaded separately in one process share one token.
import * as assert from "assert";
import * as pulumi from "@pulumi/pulumi";
import { adminClientShim } from "../../provider/adminClient/resource";
import { DEMO, requestsTo, useEmulator } from "../sdk/support";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const requireFromString = require("require-from-string") as (code: string) => { handler: () => pulumi.dynamic.ResourceProvider };

describe("providers loaded from their stored texts share the package's state", function () {
    this.timeout(30_000);
    const emulator = useEmulator();
    const diskCache = process.env.PLATFORM_TOKEN_DISK_CACHE;
    const consoleLog = console.log;
    before(() => {
        process.env.PLATFORM_TOKEN_DISK_CACHE = "off";
        console.log = () => undefined;
    });
    after(() => {
        console.log = consoleLog;
        if (diskCache === undefined) delete process.env.PLATFORM_TOKEN_DISK_CACHE;
        else process.env.PLATFORM_TOKEN_DISK_CACHE = diskCache;
    });

    it("two AdminClient providers loaded from two copies of the text ask for one token between them", async () => {
        const { text } = await pulumi.runtime.serializeFunction(() => adminClientShim, { allowSecrets: true });
        const copies = [requireFromString(text).handler(), requireFromString(text).handler()];
        assert.notStrictEqual(copies[0], copies[1], "two separate provider objects");
        const config = { get: () => undefined, require: () => "" };
        for (const copy of copies) await copy.configure!({ config });
        const urls = emulator();
        const inputs = (name: string) => ({
            resourceName: name,
            clientId: DEMO.clientId,
            clientSecret: DEMO.clientSecret,
            audience: DEMO.audience,
            oauthUrl: urls.authUrl,
            baseUrl: urls.baseUrl,
            __provider: text,
        });
        const created = await Promise.all(copies.map((copy, index) => copy.create(inputs(`admin-${index}`))));
        assert.ok(created.every((result) => Array.isArray(result.outs.members)));
        assert.strictEqual(requestsTo(urls, "auth").length, 1);
    });
});
