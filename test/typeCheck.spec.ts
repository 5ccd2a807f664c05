// The whole project type-checks (the package, the tests, the examples): npm test's first file, run beside the others
// rather than before them. The checker's build info is kept, so a rerun checks only what changed.
import * as assert from "assert";
import { execFile } from "child_process";
import * as path from "path";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS file of the preloads, which run before TypeScript can
const { TEST_CACHE } = require("./support/testCache.js") as { TEST_CACHE: string };

const REPOSITORY = path.resolve(__dirname, "..");
const BUILD_INFO = path.join(TEST_CACHE, "typecheck.tsbuildinfo");

describe("the project", function () {
    this.timeout(300_000);

    it("type-checks (tsc --noEmit)", async () => {
        const tsc = require.resolve("typescript/bin/tsc");
        const args = [tsc, "--noEmit", "-p", REPOSITORY, "--incremental", "--tsBuildInfoFile", BUILD_INFO, "--pretty", "false"];
        const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
            execFile(process.execPath, args, { cwd: REPOSITORY, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
                resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
            );
        });
        assert.strictEqual(code, 0, `tsc found errors:\n${output}`);
    });
});
