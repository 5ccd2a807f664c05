// One stack of a fleet, as a pipeline step runs it through the Automation API: the stack FLEET_STACK's inline program
// (a ClusterScale, three members, a client of the hosted cluster FLEET_CLUSTER_ID), preview then up, against the
// endpoints and credentials of the environment (PLATFORM_MANAGEMENT_URL, PLATFORM_CONSOLE_*, the shared
// PLATFORM_TOKEN_CACHE_DIR). Prints one JSON line: how long each command took and whether it passed.
import { LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation";
import { ClusterClient, ClusterScale, OrganizationMember } from "pulumi-platform";

const name = process.env.FLEET_STACK ?? "fleet";

const program = async () => {
    const layout = new ClusterScale("cluster", { brokerCount: 3, timeoutSeconds: 600 });
    for (const [person, role] of [
        ["operator", "operationsengineer"],
        ["developer", "developer"],
        ["analyst", "analyst"],
    ] as const) {
        new OrganizationMember(person, { email: `${person}-${name}@example.com`, roles: [role] });
    }
    new ClusterClient("worker", { clusterId: process.env.FLEET_CLUSTER_ID!, clientName: `worker-${name}`, permissions: ["Zeebe"] });
    return { changeId: layout.changeId };
};

async function main(): Promise<void> {
    const pulumiCommand = await PulumiCommand.get({ root: process.env.PULUMI_CLI_ROOT });
    const stack = await LocalWorkspace.createOrSelectStack(
        { stackName: name, projectName: "platform-fleet", program },
        { workDir: process.cwd(), pulumiCommand },
    );
    const timed = async (command: () => Promise<unknown>) => {
        const started = Date.now();
        try {
            await command();
            return { ms: Date.now() - started, passed: true };
        } catch (error) {
            return { ms: Date.now() - started, passed: false, error: error instanceof Error ? error.message.slice(-2000) : String(error) };
        }
    };
    const preview = await timed(() => stack.preview());
    const up = preview.passed ? await timed(() => stack.up()) : undefined;
    console.log(JSON.stringify({ stack: name, preview, up }));
}

void main();
