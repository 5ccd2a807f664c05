// The examples as users find them: examples/admin-members run through the real dynamic-provider host against
// the emulator, with its credentials from stack config or the environment only; examples/pipeline's workflow
// read as GitHub Actions would read it. (Every example is also type-checked by `npm test`, through tsconfig.json.)
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { EmulatorOptions, RunningEmulator, startEmulator } from "../emulator";
import { Command, isSecret, runPulumi, RunPulumiResult, unwrapSecrets } from "../engine";
import type { PropertyValue } from "../engine";

const EXAMPLES = resolve(__dirname, "..", "..", "examples");
const CLIENT = { clientId: "examples-client", clientSecret: "examples-secret-3f9a1c", audience: "127.0.0.1" };
const MEMBERS = [
    { name: "Grace Hopper", email: "grace@example.com", roles: ["owner"], invitePending: false },
    { name: "Alan Turing", email: "alan@example.com", roles: ["developer"], invitePending: true },
    { name: "Ada Lovelace", email: "ada@example.com", roles: ["admin"], invitePending: false },
];
const EMAILS = ["ada@example.com", "alan@example.com", "grace@example.com"];

describe("examples/admin-members", function () {
    this.timeout(120_000);
    let emulator: RunningEmulator;
    let workDir: string;

    before(async () => {
        emulator = await startEmulator({ opMs: 10, clients: [CLIENT], members: MEMBERS });
    });
    after(async () => {
        await emulator?.close();
    });
    beforeEach(() => {
        workDir = mkdtempSync(join(tmpdir(), "example-admin-members-"));
        emulator.control.clearRequests();
    });
    afterEach(() => rmSync(workDir, { recursive: true, force: true }));

    const run = (
        command: Command,
        settings: { config?: Record<string, string>; secrets?: Record<string, string>; env?: NodeJS.ProcessEnv; inProcess?: boolean },
    ) =>
        runPulumi({
            command,
            programDir: join(EXAMPLES, "admin-members"),
            stack: "dev",
            stateFile: join(workDir, "state.json"),
            config: settings.config,
            secrets: settings.secrets,
            env: {
                PULUMI_CONFIG_PASSPHRASE: "examples",
                PLATFORM_TOKEN_CACHE_DIR: join(workDir, "tokens"),
                ...settings.env,
            },
            inProcess: settings.inProcess,
        });
    const output = (result: RunPulumiResult, name: string): PropertyValue => unwrapSecrets(result.outputs[name]);
    const succeeded = (result: RunPulumiResult) => assert.equal(result.exitCode, 0, `exit ${result.exitCode}\n${result.stdout}\n${result.stderr}`);
    const stateText = () => readFileSync(join(workDir, "state.json"), "utf8");

    it("with credentials from stack config (the secret as secret config): the member emails are known in preview, and up lists them", async () => {
        const settings = {
            config: { "platform:clientId": CLIENT.clientId, "platform:oauthUrl": emulator.authUrl, "platform:baseUrl": emulator.baseUrl },
            secrets: { "platform:clientSecret": CLIENT.clientSecret },
        };
        const preview = await run("preview", settings);
        succeeded(preview);
        assert.deepEqual(output(preview, "memberEmails"), EMAILS, "getMembers runs in the program, so preview knows its values");

        const up = await run("up", settings);
        succeeded(up);
        assert.deepEqual(output(up, "memberEmails"), EMAILS);
        assert.deepEqual(output(up, "pendingInvitations"), ["alan@example.com"]);
        assert.equal(output(up, "memberCount"), 3);
        assert.ok(!Number.isNaN(Date.parse(String(output(up, "tokenExpiresAt")))));
        assert.ok(!stateText().includes(CLIENT.clientSecret), "a secret from stack config is never stored");
        // getMembers (in the program) and the AdminClient (in the provider host) share one token through the disk cache.
        const tokenRequests = emulator.control.requests().filter((entry) => entry.interface === "auth" && entry.status !== 429);
        assert.equal(tokenRequests.length, 1, JSON.stringify(tokenRequests));
    });

    it("with credentials from the environment only, as in a pipeline", async () => {
        const env = {
            PLATFORM_CONSOLE_CLIENT_ID: CLIENT.clientId,
            PLATFORM_CONSOLE_CLIENT_SECRET: CLIENT.clientSecret,
            PLATFORM_OAUTH_URL: emulator.authUrl,
            PLATFORM_CONSOLE_BASE_URL: emulator.baseUrl,
        };
        // The cases after the first run in the in-process engine (the same engine and provider code).
        const up = await run("up", { env, inProcess: true });
        succeeded(up);
        assert.deepEqual(output(up, "memberEmails"), EMAILS);
        assert.equal(output(up, "memberCount"), 3);
        assert.ok(!stateText().includes(CLIENT.clientSecret), "a secret from the environment is never stored");
        const destroy = await run("destroy", { env, inProcess: true });
        succeeded(destroy);
        assert.deepEqual(Object.keys(destroy.state.resources), []);
    });

    it("names every missing setting and where it may come from, without a request", async () => {
        const preview = await run("preview", { inProcess: true });
        assert.notEqual(preview.exitCode, 0);
        const text = `${preview.stdout}\n${preview.stderr}`;
        assert.match(text, /clientId is required: set the clientId input, stack config platform:clientId or environment variable PLATFORM_CONSOLE_CLIENT_ID/);
        assert.match(text, /clientSecret is required/);
        assert.deepEqual(emulator.control.requests(), []);
    });
});

describe("examples/organization", function () {
    this.timeout(120_000);
    const people = [
        { name: "Ada Lovelace", email: "ada@example.com", roles: ["owner"], invitePending: false },
        { name: "Grace Hopper", email: "grace@example.com", roles: ["admin"], invitePending: false },
        { name: "Linus Torvalds", email: "linus@example.com", roles: ["visitor"], invitePending: false },
    ];
    // The members come from the example's own Pulumi.dev.yaml; the credentials from stack config.
    const example = useAdministrationExample("organization", { members: people });
    const run = (command: Command, inProcess: boolean) => example.run(command, inProcess);
    const emulatorOf = () => example.emulator();
    const lines = (result: RunPulumiResult) => result.diagnostics.map((d) => d.line).filter((line) => line.startsWith("OrganizationMember "));
    const writes = () =>
        emulatorOf()
            .control.requests()
            .filter((entry) => entry.interface === "admin" && entry.method !== "GET")
            .map((entry) => `${entry.method} ${decodeURIComponent(entry.path)}`);

    it("up: preview says who is adopted, invited or left alone, and up does exactly that", async () => {
        emulatorOf().control.clearRequests();
        // In this process: the packed consumer project runs an OrganizationMember in the real host's own process.
        const up = await run("up", true);
        assert.equal(up.exitCode, 0, `${up.stdout}\n${up.stderr}`);
        assert.deepEqual(lines(up).slice(0, 3), [
            'OrganizationMember "ada@example.com": ada@example.com is the organization owner: roles are left as they are',
            'OrganizationMember "grace@example.com": adopts existing member grace@example.com (roles admin → admin, operationsengineer)',
            'OrganizationMember "alan@example.com": invites alan@example.com (uses a seat)',
        ]);
        assert.deepEqual(writes().sort(), ["POST /members/alan@example.com", "POST /members/grace@example.com"]);
        assert.deepEqual(unwrapSecrets(up.outputs.owner), ["ada@example.com"]);
        assert.deepEqual(unwrapSecrets(up.outputs.pendingInvitations), ["alan@example.com"]);
        assert.ok(!example.stateText().includes(CLIENT.clientSecret), "a secret from stack config is never stored");
    });

    it("destroy removes the people it invited or adopted, leaves the owner and anyone the list never named", async () => {
        emulatorOf().control.clearRequests();
        const destroy = await run("destroy", true);
        assert.equal(destroy.exitCode, 0, `${destroy.stdout}\n${destroy.stderr}`);
        assert.deepEqual(writes().sort(), ["DELETE /members/alan@example.com", "DELETE /members/grace@example.com"]);
        assert.deepEqual(
            emulatorOf()
                .control.members()
                .map((member) => member.email),
            ["ada@example.com", "linus@example.com"],
        );
    });
});

describe("examples/hosted-cluster", function () {
    this.timeout(120_000);
    const paymentsApiKey = `payments-${randomBytes(8).toString("hex")}`;
    const example = useAdministrationExample("hosted-cluster", { clusterCreateMs: 200, clusterDeleteMs: 100, secretDeleteLagMs: 100 }, { paymentsApiKey });
    const run = (command: Command, inProcess: boolean) => example.run(command, inProcess);
    const emulatorOf = () => example.emulator();

    it("up (the CLI's processes) makes the cluster, the worker's client (its secret exported as a secret), the connector secret and the allowlist", async () => {
        const up = await run("up", false);
        assert.equal(up.exitCode, 0, `${up.stdout}\n${up.stderr}`);
        const [cluster] = emulatorOf().control.hostedClusters();
        assert.deepEqual([cluster.name, cluster.status, cluster.region, cluster.stageLabel], ["orders", "Healthy", "Belgium, Europe (europe-west1)", "prod"]);
        assert.deepEqual(cluster.secrets, { PAYMENTS_API_KEY: paymentsApiKey });
        assert.deepEqual(cluster.ipallowlist, [{ ip: "203.0.113.0/24", description: "office" }]);
        assert.equal(unwrapSecrets(up.outputs.clusterId), cluster.id);
        assert.ok(isSecret(up.outputs.workerClientSecret), "the worker's secret is not exported as a secret");
        assert.equal(unwrapSecrets(up.outputs.workerClientSecret), cluster.clients[0].clientSecret);
        const state = example.stateText();
        for (const secret of [CLIENT.clientSecret, paymentsApiKey, cluster.clients[0].clientSecret])
            assert.ok(!state.includes(secret), "a secret is stored in the clear");
    });

    it("destroy removes all of it: the cluster is gone", async () => {
        const destroy = await run("destroy", true);
        assert.equal(destroy.exitCode, 0, `${destroy.stdout}\n${destroy.stderr}`);
        assert.deepEqual(emulatorOf().control.hostedClusters(), []);
    });
});

/**
 * An example of the administration resources against an emulator of its own that knows CLIENT, the credentials from
 * stack config, its state and token cache in a work directory of its own.
 */
function useAdministrationExample(example: string, settings: EmulatorOptions, secrets: Record<string, string> = {}) {
    let emulator: RunningEmulator | undefined;
    let workDir = "";
    before(async () => {
        emulator = await startEmulator({ opMs: 10, rateLimitBlockSeconds: 0, clients: [CLIENT], ...settings });
        workDir = mkdtempSync(join(tmpdir(), `example-${example}-`));
    });
    after(async () => {
        await emulator?.close();
        rmSync(workDir, { recursive: true, force: true });
    });
    const running = (): RunningEmulator => {
        if (emulator === undefined) throw new Error("the example's emulator is not started");
        return emulator;
    };
    return {
        emulator: running,
        stateText: () => readFileSync(join(workDir, "state.json"), "utf8"),
        run: (command: Command, inProcess: boolean) =>
            runPulumi({
                command,
                programDir: join(EXAMPLES, example),
                stack: "dev",
                stateFile: join(workDir, "state.json"),
                config: { "platform:clientId": CLIENT.clientId, "platform:oauthUrl": running().authUrl, "platform:baseUrl": running().baseUrl },
                secrets: { "platform:clientSecret": CLIENT.clientSecret, ...secrets },
                env: { PULUMI_CONFIG_PASSPHRASE: "examples", PLATFORM_TOKEN_CACHE_DIR: join(workDir, "tokens") },
                inProcess,
            }),
    };
}

describe("examples/pipeline: the GitHub Actions workflow", () => {
    interface Step {
        uses?: string;
        run?: string;
        with?: Record<string, unknown>;
        env?: Record<string, string>;
    }
    interface Job {
        if?: string;
        "timeout-minutes"?: number;
        concurrency?: { group: string; "cancel-in-progress": boolean };
        steps: Step[];
    }
    interface Workflow {
        on: { pull_request?: { branches: string[] }; push?: { branches: string[] } };
        env?: Record<string, string>;
        jobs: Record<string, Job>;
    }
    // js-yaml comes with @pulumi/pulumi, which reads Pulumi.yaml with it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a module found at run time, by path
    const yaml = require(require.resolve("js-yaml", { paths: [require.resolve("@pulumi/pulumi/package.json")] })) as { load(text: string): unknown };
    const workflow = yaml.load(readFileSync(join(EXAMPLES, "pipeline", "pulumi.yml"), "utf8")) as Workflow;
    const stepIndex = (job: Job, match: (step: Step) => boolean) => job.steps.findIndex(match);
    const runsPulumi = (step: Step, command: string) =>
        (step.run ?? "").split("\n").some((line) => /^(\w+="[^"]*" )*pulumi /.test(line) && line.includes(`pulumi ${command} `));
    const pulumiStep = (job: Job, command: string) => job.steps.find((step) => runsPulumi(step, command));

    it("previews every pull request to main and applies every push to main", () => {
        assert.deepEqual(workflow.on.pull_request?.branches, ["main"]);
        assert.deepEqual(workflow.on.push?.branches, ["main"]);
        const { preview, up } = workflow.jobs;
        assert.match(preview.if ?? "", /github\.event_name == 'pull_request'/);
        assert.match(up.if ?? "", /github\.event_name == 'push' && github\.ref == 'refs\/heads\/main'/);
        assert.ok(pulumiStep(preview, "preview"), "the preview job runs pulumi preview");
        assert.equal(pulumiStep(preview, "up"), undefined, "the preview job never runs up");
        assert.match(pulumiStep(up, "up")?.run ?? "", /--yes/);
    });

    it("installs with npm ci before Pulumi runs, in both jobs", () => {
        for (const [name, command] of [
            ["preview", "preview"],
            ["up", "up"],
        ] as const) {
            const job = workflow.jobs[name];
            const install = stepIndex(job, (step) => step.run === "npm ci");
            assert.ok(install >= 0, `${name}: no npm ci`);
            assert.ok(install < stepIndex(job, (step) => runsPulumi(step, command)), `${name}: npm ci after pulumi`);
        }
    });

    it("never lets two ups overlap or cancels a running one", () => {
        const concurrency = workflow.jobs.up.concurrency;
        assert.ok(concurrency?.group, "the up job has no concurrency group");
        assert.equal(concurrency["cancel-in-progress"], false);
        assert.ok((workflow.jobs.up["timeout-minutes"] ?? 360) * 60 > 1800, "the job must outlive ClusterScale's default timeoutSeconds");
    });

    it("writes the kubeconfig to a private file for the Pulumi step only, and insists on the cluster's plan in previews", () => {
        for (const [name, command] of [
            ["preview", "preview"],
            ["up", "up"],
        ] as const) {
            const run = pulumiStep(workflow.jobs[name], command)?.run ?? "";
            assert.match(run, /umask 077 && printf '%s' "\$KUBECONFIG_DATA" > "\$RUNNER_TEMP\/kubeconfig"/, name);
            assert.match(run, new RegExp(`KUBECONFIG="\\$RUNNER_TEMP/kubeconfig" pulumi ${command} `), name);
        }
        assert.equal(pulumiStep(workflow.jobs.preview, "preview")?.env?.PLATFORM_PREVIEW_REQUIRE_CLUSTER, "true");
    });

    it("runs the package's policy pack with its config in both jobs, on a Node line the package supports", () => {
        const flags = workflow.env?.POLICY_PACK ?? "";
        assert.match(flags, /^--policy-pack node_modules\/pulumi-platform\/policy-pack --policy-pack-config \S+\.json$/);
        for (const [name, command] of [
            ["preview", "preview"],
            ["up", "up"],
        ] as const) {
            const job = workflow.jobs[name];
            assert.match(pulumiStep(job, command)?.run ?? "", /\$POLICY_PACK$/m, name);
            const node = job.steps.find((step) => step.uses?.startsWith("actions/setup-node"))?.with?.["node-version"];
            assert.ok(Number(node) >= 22, `${name}: node-version ${String(node)}, the package needs Node >= 22.19`);
        }
    });

    it("takes every credential from the pipeline's secrets, and hands them to the Pulumi steps only", () => {
        const credentials = ["PULUMI_ACCESS_TOKEN", "KUBECONFIG_DATA", "PLATFORM_CONSOLE_CLIENT_ID", "PLATFORM_CONSOLE_CLIENT_SECRET"];
        for (const [name, command] of [
            ["preview", "preview"],
            ["up", "up"],
        ] as const) {
            const job = workflow.jobs[name];
            const env = pulumiStep(job, command)?.env ?? {};
            for (const key of credentials) assert.equal(env[key], `\${{ secrets.${key} }}`, `${name}: ${key}`);
            for (const step of job.steps.filter((step) => step !== pulumiStep(job, command))) {
                assert.ok(!JSON.stringify(step).includes("secrets."), `${name}: a secret reaches ${step.run ?? step.uses}`);
            }
        }
        assert.ok(!JSON.stringify(workflow.env ?? {}).includes("secrets."), "no secret in the workflow-wide environment");
    });
});
