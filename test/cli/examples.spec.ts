// The examples' lifecycle (examplesLifecycle.ts) under the CLI matching @pulumi/pulumi, or PLATFORM_PULUMI_CLI's.
import { describeExamples } from "./examplesLifecycle";
import { mainVersion } from "./pulumiBin";

describeExamples(mainVersion());
