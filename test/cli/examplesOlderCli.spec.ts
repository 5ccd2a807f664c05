// The examples' lifecycle (examplesLifecycle.ts) under the older pinned CLI, for users whose CLI lags their SDK (not
// when PLATFORM_PULUMI_CLI names one: that one is run by examples.spec.ts).
import { describeExamples } from "./examplesLifecycle";
import { suiteVersions, mainVersion } from "./pulumiBin";

for (const version of suiteVersions().filter((version) => version !== mainVersion())) describeExamples(version);
