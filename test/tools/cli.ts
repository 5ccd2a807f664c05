// npm run tools:pulumi|tools:kubernetes|tools:languages -- [--print-bin] [VERSION ...] (or cli.ts helm|yaml|codegen)
// Builds the real tools the real-tool tiers run, into a folder outside the checkout keyed by version (see
// toolsDir.ts), doing nothing for a version already built. --print-bin prints each version's bin folder (building it
// first when needed) and nothing else on stdout. A build that cannot be done says what is missing and exits 1.
import * as path from "path";
import { ToolBuildError } from "./goBuild";
import { HELM_VERSIONS, helmTools } from "./helm";
import { KUBERNETES_VERSIONS, kubectlTools, kubernetesTools } from "./kubernetes";
import { PULUMI_SDK_MATCH, PULUMI_VERSIONS, pulumiTools } from "./pulumi";
import { KUBERNETES_PROVIDER_VERSION, kubernetesProviderTools } from "./kubernetesProvider";
import { YAML_VERSIONS, yamlTools } from "./yaml";
import { CODEGEN_VERSIONS, codegenTools, dotnetCodegenTools } from "./codegen";
import { pythonTools } from "./python";

const TOOLS: Record<string, { versions: string[]; build: (version: string) => Promise<string> }> = {
    pulumi: { versions: PULUMI_VERSIONS, build: pulumiTools },
    // The Kubernetes tier's tools: the control plane, kubectl of its release, Helm 3 and 4, and the CLI with Pulumi's
    // Kubernetes provider plugin (the stories of the brokers' StatefulSet among its other managers run them).
    kubernetes: {
        versions: KUBERNETES_VERSIONS,
        build: async (version) => {
            for (const helm of HELM_VERSIONS) await helmTools(helm);
            await pulumiTools(PULUMI_SDK_MATCH);
            await kubernetesProviderTools(KUBERNETES_PROVIDER_VERSION);
            await kubectlTools(version);
            return kubernetesTools(version);
        },
    },
    helm: { versions: HELM_VERSIONS, build: helmTools },
    yaml: { versions: YAML_VERSIONS, build: yamlTools },
    codegen: { versions: CODEGEN_VERSIONS, build: codegenTools },
    // The languages tier's tools: the CLI, the SDK generators, Python's pulumi package and the YAML language host.
    languages: {
        versions: CODEGEN_VERSIONS,
        build: async (version) => {
            await pulumiTools(version);
            await pythonTools();
            await yamlTools(YAML_VERSIONS[0]);
            await dotnetCodegenTools();
            return codegenTools(version);
        },
    },
};

async function main(argv: string[]): Promise<void> {
    const [tool, ...rest] = argv;
    const spec = TOOLS[tool];
    if (spec === undefined) throw new ToolBuildError(`usage: cli.ts ${Object.keys(TOOLS).join("|")} [--print-bin] [VERSION ...]`);
    const printBin = rest.includes("--print-bin");
    const asked = rest.filter((arg) => arg !== "--print-bin").map((arg) => arg.replace(/^v/, ""));
    const versions = asked.length > 0 ? asked : printBin ? spec.versions.slice(0, 1) : spec.versions;
    for (const version of versions) {
        const dir = await spec.build(version);
        if (printBin) process.stdout.write(`${path.join(dir, "bin")}\n`);
        else process.stderr.write(`${tool} ${version}: ${path.join(dir, "bin")}\n`);
    }
}

main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${error instanceof ToolBuildError ? error.message : error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
});
