// A pipeline step written in TypeScript instead of shell, through Pulumi's Automation API: `preview` prints the
// cluster's own plan and exits 1 on a refusal; `up` applies it. It drives the `pulumi` CLI of the runner (or the one
// under PULUMI_CLI_ROOT/bin) with the layout as an inline program, so the job needs no Pulumi.yaml of its own.
//
//   STACK=production PULUMI_BACKEND_URL=s3://my-bucket/pulumi PULUMI_CONFIG_PASSPHRASE=... \
//   PLATFORM_MANAGEMENT_URL=http://camunda-zeebe-gateway.camunda.svc:9600 BROKER_COUNT=5 \
//   npx ts-node deploy.ts preview        # or: up
//
// Guardrails: POLICY_PACK=node_modules/pulumi-platform/policy-pack runs the package's policy pack with both commands
// (a mandatory violation fails them before anything is sent), POLICY_PACK_CONFIG=policy-config.json gives its config.
//
// Run it from a folder with this Pulumi.yaml and your package.json (where pulumi-platform is installed): the provider
// host that Pulumi starts for the layout loads the package from there, and the stack's config file is written there.
import { LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation";
import { ClusterScale } from "pulumi-platform";

const mode = process.argv[2];
if (mode !== "preview" && mode !== "up") {
    console.error("usage: deploy.ts preview|up");
    process.exit(2);
}

async function main(): Promise<number> {
    const brokerCount = Number(process.env.BROKER_COUNT ?? "3");
    const program = async () => {
        // managementUrl comes from PLATFORM_MANAGEMENT_URL (or stack config platform:managementUrl).
        const layout = new ClusterScale("cluster", { brokerCount, timeoutSeconds: 600 });
        return { changeId: layout.changeId, partitionCount: layout.partitionCount };
    };
    const pulumiCommand = await PulumiCommand.get(process.env.PULUMI_CLI_ROOT ? { root: process.env.PULUMI_CLI_ROOT } : {});
    const stack = await LocalWorkspace.createOrSelectStack(
        { stackName: process.env.STACK ?? "dev", projectName: "platform-pipeline", program },
        { workDir: process.cwd(), pulumiCommand },
    );
    const print = (text: string) => process.stdout.write(text);
    const guardrails = {
        policyPacks: process.env.POLICY_PACK ? [process.env.POLICY_PACK] : undefined,
        policyPackConfigs: process.env.POLICY_PACK_CONFIG ? [process.env.POLICY_PACK_CONFIG] : undefined,
    };
    try {
        if (mode === "preview") {
            const preview = await stack.preview({ onOutput: print, ...guardrails });
            console.log(`plan: ${JSON.stringify(preview.changeSummary)}`);
        } else {
            const up = await stack.up({ onOutput: print, ...guardrails });
            console.log(`changeId: ${up.outputs.changeId?.value}`);
        }
        return 0;
    } catch (error) {
        // The CLI's error output (the refusal in the provider's words) comes with the error.
        console.error(`${mode} failed: ${error instanceof Error ? error.message : String(error)}`);
        return 1;
    }
}

main().then((code) => process.exit(code));
