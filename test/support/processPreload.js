// Loaded first by mocha (.mocharc.json) and, through NODE_OPTIONS, by every Node process a test run starts (mocha's
// workers, the dynamic-provider hosts the Pulumi CLI starts, programs, the test engine's processes): what makes
// loading @pulumi/pulumi cheaper in each of them. Only the tests' process trees: the bench measures hosts and stacks
// as users run them, without it.
"use strict";
require("./codeCache.js");
require("./lazyModules.js");

const preload = `--require "${__filename}"`;
if (!(process.env.NODE_OPTIONS ?? "").includes(preload)) process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ""} ${preload}`.trim();
