// The clean environment covers every PLATFORM_* variable the package's code reads.
import * as assert from "assert";
import { readFileSync, readdirSync } from "fs";
import * as path from "path";
import { PACKAGE_ENVIRONMENT } from "./cleanEnvironment";

function sources(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? sources(path.join(dir, entry.name)) : entry.name.endsWith(".ts") ? [path.join(dir, entry.name)] : [],
    );
}

describe("the tests' clean environment", () => {
    it("lists every PLATFORM_* variable of sdk/ and provider/, and none is set in the test process", () => {
        const root = path.resolve(__dirname, "..", "..");
        const read = new Set(
            ["sdk", "provider"].flatMap((dir) => sources(path.join(root, dir))).flatMap((file) => readFileSync(file, "utf8").match(/PLATFORM_[A-Z_]+/g) ?? []),
        );
        const listed: readonly string[] = PACKAGE_ENVIRONMENT;
        assert.deepStrictEqual(
            [...read].filter((name) => !listed.includes(name)),
            [],
        );
        assert.deepStrictEqual(
            PACKAGE_ENVIRONMENT.filter((name) => process.env[name] !== undefined),
            [],
        );
    });
});
