// The Node arguments that let a child process run the tests' TypeScript: fastRequire.js, as mocha's own processes do.
import * as path from "path";

export const TYPESCRIPT_REQUIRE = ["-r", path.join(__dirname, "fastRequire.js")];
