// Where the test run keeps what it may reuse between runs (transpiled TypeScript, V8's compiled code, the type check's
// build info): inside node_modules, so that a fresh install starts it anew.
"use strict";
const path = require("path");

exports.TEST_CACHE = path.join(__dirname, "..", "..", "node_modules", ".cache", "pulumi-platform-tests");
