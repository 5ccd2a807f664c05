// The Node SDK generated from the plugin's schema (for JavaScript and TypeScript programs that would rather use the
// plugin than the dynamic resources) compiles with the project's @pulumi/pulumi and TypeScript, as generated.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { REPOSITORY } from "../tools/writeSchema";
import { generateSdk } from "./languageTools";

const run = promisify(execFile);

describe("the generated Node SDK", function () {
    this.timeout(120_000);

    it("type-checks with its own tsconfig", async () => {
        const sdk = fs.mkdtempSync(path.join(os.tmpdir(), "platform-node-sdk-"));
        try {
            generateSdk("nodejs", sdk);
            fs.symlinkSync(path.join(REPOSITORY, "node_modules"), path.join(sdk, "node_modules"), "dir");
            await run(process.execPath, [path.join(REPOSITORY, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "-p", sdk]).catch(
                (error: Error & { stdout?: string }) => {
                    throw new Error(`tsc failed on the generated SDK:\n${error.stdout ?? error.message}`);
                },
            );
        } finally {
            fs.rmSync(sdk, { recursive: true, force: true });
        }
    });
});
