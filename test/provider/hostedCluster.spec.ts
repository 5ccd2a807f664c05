// Cluster, ClusterClient, ConnectorSecret and IpAllowlist through the engine (in the test's process, but for the up
// killed mid-create, which needs processes of its own) against the emulator's administration API: what each preview
// says, what each up sends (once), refresh and drift, the bad inputs refused at check, and the bad days.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import type { PropertyValue } from "../engine";
import { isSecret, unwrapSecrets } from "../engine";
import type { HostedClusterView, RequestLogEntry, RunningEmulator } from "../emulator";
import { useEmulator } from "../support/emulator";
import { AdminRun, AdminStack, CLIENT, linesOf, platformConfig, succeeded, useWorkDir } from "./adminClientSupport";

const TYPE = (type: string) => `pulumi-nodejs:dynamic/platform:${type}`;
const API_KEY = `pay-${randomBytes(12).toString("hex")}`;
const OTHER_KEY = `other-${randomBytes(12).toString("hex")}`;
const CLUSTER = {
    name: "orders",
    channel: "Stable",
    region: "Belgium, Europe (europe-west1)",
    planType: "Basic",
    stageLabel: "prod",
    description: "Order processing",
};

interface Spec {
    cluster?: Record<string, unknown>;
    clusterId?: string;
    clients?: Record<string, unknown>[];
    secrets?: Record<string, unknown>[];
    allowlists?: Record<string, unknown>[];
    parameters?: boolean;
}

function useHostedEmulator(options: { resetEach?: boolean } = {}): () => RunningEmulator {
    return useEmulator(
        {
            opMs: 10,
            rateLimitBlockSeconds: 0,
            clients: [CLIENT],
            clusterCreateMs: 200,
            clusterUpdateMs: 200,
            clusterDeleteMs: 100,
            secretDeleteLagMs: 150,
        },
        options,
    );
}

function hostedStack(emulator: () => RunningEmulator, workDir: () => string, engine: "in-process" | "process" = "in-process") {
    const stack = new AdminStack(emulator, workDir, "state.json", engine);
    const run = (
        command: "preview" | "up" | "refresh" | "destroy",
        spec: Spec,
        options: { signal?: AbortSignal; onLine?: (line: string) => void; skipPreview?: boolean } = {},
    ) => {
        const { config, secrets } = platformConfig(emulator());
        return stack.run(command, {
            program: "hosted",
            config: { ...config, spec: JSON.stringify(spec) },
            secrets: { ...secrets, apiKey: API_KEY, otherKey: OTHER_KEY },
            ...options,
        });
    };
    return { stack, run };
}

const adminLines = (run: AdminRun, methods?: string[]) =>
    run.requests
        .filter((r) => r.interface === "admin" && (methods === undefined || methods.includes(r.method)))
        .map(
            (r: RequestLogEntry) =>
                `${r.method} ${r.path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, "{id}").replace(/client-[0-9a-f]{12}/g, "{client}")} ${r.status}`,
        );
const writes = (run: AdminRun) => adminLines(run, ["POST", "PUT", "PATCH", "DELETE"]);
const lines = (run: AdminRun, type: string, name: string) => linesOf(run, name, type);
const only = (emulator: () => RunningEmulator): HostedClusterView => {
    const clusters = emulator().control.hostedClusters();
    assert.equal(clusters.length, 1, JSON.stringify(clusters.map((c) => c.id)));
    return clusters[0];
};
const errorsOf = (run: AdminRun) => run.result.errors.join("\n");
const failed = (run: AdminRun) => assert.notEqual(run.result.exitCode, 0, run.result.stdout);

describe("hosted cluster: the example's resources, from preview to destroy", function () {
    const emulator = useHostedEmulator({ resetEach: false });
    const workDir = useWorkDir({ perTest: false });
    const { stack, run } = hostedStack(emulator, workDir);
    const spec: Spec = {
        cluster: CLUSTER,
        clients: [{ name: "worker", clientName: "order-worker", permissions: ["Zeebe"] }],
        secrets: [{ name: "api-key", secretName: "PAYMENTS_API_KEY", valueKey: "apiKey" }],
        allowlists: [{ name: "ingress", entries: [{ ip: "203.0.113.0/24", description: "office" }] }],
    };

    it("preview resolves the parameters by name and says what each resource will do, sending nothing", async () => {
        const preview = await run("preview", spec);
        succeeded(preview);
        assert.deepEqual(lines(preview, "Cluster", "cluster"), [
            'Cluster "cluster": creates cluster orders (Basic in Belgium, Europe (europe-west1), channel Stable, Camunda 8.8.5); up waits until it is Healthy (at most 1800 s)',
        ]);
        assert.deepEqual(writes(preview), []);
        assert.deepEqual(adminLines(preview), ["GET /clusters/parameters 200", "GET /clusters 200"]);
    });

    it("up creates the cluster once and waits until it is Healthy, then the client (its secret a Pulumi secret), the connector secret and the allowlist", async () => {
        const up = await run("up", spec);
        succeeded(up);
        assert.deepEqual(writes(up), [
            "POST /clusters 200",
            "PUT /clusters/{id}/ipallowlist 204",
            "POST /clusters/{id}/clients 200",
            "POST /clusters/{id}/secrets 204",
        ]);
        const cluster = only(emulator);
        assert.deepEqual([cluster.name, cluster.status, cluster.stageLabel, cluster.generation], ["orders", "Healthy", "prod", "Camunda 8.8.5"]);
        assert.deepEqual(cluster.secrets, { PAYMENTS_API_KEY: API_KEY });
        assert.deepEqual(cluster.ipallowlist, [{ ip: "203.0.113.0/24", description: "office" }]);
        assert.deepEqual(
            cluster.clients.map((c) => [c.name, c.permissions]),
            [["order-worker", ["Zeebe"]]],
        );
        const clusterLines = lines(up, "Cluster", "cluster");
        assert.ok(
            clusterLines.some((line) => /is Creating \(\d+ s\)$/.test(line)),
            clusterLines.join("\n"),
        );
        assert.equal(clusterLines.at(-1), `Cluster "cluster": cluster orders (${cluster.id}) is Healthy`);
        const outputs = up.result.outputs;
        assert.ok(isSecret(outputs.clientSecrets) || (outputs.clientSecrets as PropertyValue[]).every(isSecret), "the client secret is not a secret output");
        assert.deepEqual(unwrapSecrets(outputs.clientSecrets), [cluster.clients[0].clientSecret]);
        assert.equal(unwrapSecrets(outputs.zeebeAddresses as PropertyValue) instanceof Array, true);
        const state = up.result.state.resources;
        assert.ok(isSecret(state[`urn:pulumi:test::hosted::${TYPE("ClusterClient")}::worker`].outputs.clientSecret));
        assert.ok(isSecret(state[`urn:pulumi:test::hosted::${TYPE("ConnectorSecret")}::api-key`].outputs.value));
        stack.assertNoLeaks(up, [CLIENT.clientSecret, API_KEY, cluster.clients[0].clientSecret]);
    });

    it("a preview right after says nothing changes, with one GET per list endpoint and no write", async () => {
        const preview = await run("preview", spec);
        succeeded(preview);
        assert.deepEqual(
            preview.result.steps.filter((step) => step.type.startsWith(TYPE(""))).map((step) => step.op),
            ["same", "same", "same", "same"],
        );
        assert.deepEqual(adminLines(preview).sort(), [
            "GET /clusters/parameters 200",
            "GET /clusters/{id} 200",
            "GET /clusters/{id}/clients 200",
            "GET /clusters/{id}/secrets 200",
        ]);
    });

    it("name, description and stage label change in place (PATCH, read back); a secret's value is written in place; the allowlist shows what it adds and removes", async () => {
        const changed: Spec = {
            ...spec,
            cluster: { ...CLUSTER, name: "orders-eu", stageLabel: "stage" },
            secrets: [{ name: "api-key", secretName: "PAYMENTS_API_KEY", valueKey: "otherKey" }],
            allowlists: [{ name: "ingress", entries: [{ ip: "198.51.100.7", description: "vpn" }] }],
        };
        const preview = await run("preview", changed);
        succeeded(preview);
        assert.deepEqual(lines(preview, "Cluster", "cluster"), [
            `Cluster "cluster": updates cluster ${only(emulator).id}: name orders → orders-eu, stageLabel prod → stage`,
        ]);
        assert.deepEqual(lines(preview, "ConnectorSecret", "api-key"), ['ConnectorSecret "api-key": changes the value of secret PAYMENTS_API_KEY']);
        assert.deepEqual(lines(preview, "IpAllowlist", "ingress"), [
            `IpAllowlist "ingress": sets the allowlist of cluster ${only(emulator).id}: adds 198.51.100.7 (vpn); removes 203.0.113.0/24 (office)`,
        ]);
        const up = await run("up", changed);
        succeeded(up);
        assert.deepEqual(writes(up), ["PATCH /clusters/{id} 204", "PUT /clusters/{id}/ipallowlist 204", "PUT /clusters/{id}/secrets/PAYMENTS_API_KEY 204"]);
        const patch = up.requests.find((r) => r.method === "PATCH");
        assert.deepEqual(patch?.body, { name: "orders-eu", stageLabel: "stage" });
        assert.deepEqual([only(emulator).name, only(emulator).stageLabel, only(emulator).secrets.PAYMENTS_API_KEY], ["orders-eu", "stage", OTHER_KEY]);
        stack.assertNoLeaks(up, [CLIENT.clientSecret, API_KEY, OTHER_KEY]);
    });

    it("refresh reads every field back: a change made elsewhere shows as drift, and the next preview puts it back", async () => {
        const current: Spec = {
            ...spec,
            cluster: { ...CLUSTER, name: "orders-eu", stageLabel: "stage" },
            secrets: [{ name: "api-key", secretName: "PAYMENTS_API_KEY", valueKey: "otherKey" }],
            allowlists: [{ name: "ingress", entries: [{ ip: "198.51.100.7", description: "vpn" }] }],
        };
        const id = only(emulator).id;
        emulator().control.setConnectorSecret(id, "PAYMENTS_API_KEY", "changed-in-the-console");
        const unrefreshed = await run("preview", current);
        assert.deepEqual(lines(unrefreshed, "ConnectorSecret", "api-key"), [
            'ConnectorSecret "api-key": the value of secret PAYMENTS_API_KEY was changed outside the stack: up writes the program\'s',
        ]);
        const refresh = await run("refresh", current);
        succeeded(refresh);
        assert.equal(refresh.result.steps.find((step) => step.name === "api-key")?.op, "update");
        assert.ok(
            lines(refresh, "ConnectorSecret", "api-key").includes(
                'ConnectorSecret "api-key": the value of secret PAYMENTS_API_KEY in the cluster differs from the program\'s',
            ),
        );
        assert.ok(
            !refresh.result.stdout.includes("changed-in-the-console") && !refresh.result.stderr.includes("changed-in-the-console"),
            "the value is printed",
        );
        // The state now records the value the cluster has: the program's is a change again.
        const preview = await run("preview", current);
        assert.deepEqual(lines(preview, "ConnectorSecret", "api-key"), ['ConnectorSecret "api-key": changes the value of secret PAYMENTS_API_KEY']);
        succeeded(await run("up", current));
        assert.equal(only(emulator).secrets.PAYMENTS_API_KEY, OTHER_KEY);
    });

    it("triggers rotate the client's secret: the old client is deleted first (same name), the new secret is a secret output", async () => {
        const before = only(emulator).clients[0];
        const rotated: Spec = {
            ...spec,
            cluster: { ...CLUSTER, name: "orders-eu", stageLabel: "stage" },
            clients: [{ name: "worker", clientName: "order-worker", permissions: ["Zeebe"], triggers: "2026-11" }],
            secrets: [{ name: "api-key", secretName: "PAYMENTS_API_KEY", valueKey: "otherKey" }],
            allowlists: [{ name: "ingress", entries: [{ ip: "198.51.100.7", description: "vpn" }] }],
        };
        const preview = await run("preview", rotated);
        succeeded(preview);
        assert.deepEqual(lines(preview, "ClusterClient", "worker"), [
            `ClusterClient "worker": triggers changed: up replaces client order-worker (${before.clientId}), deleting it first (names are unique in a cluster); the new client has a new id and secret, and the old secret stops working`,
            `ClusterClient "worker": creates client order-worker of cluster ${only(emulator).id} (Zeebe); its secret becomes a secret output`,
        ]);
        const up = await run("up", rotated);
        succeeded(up);
        assert.deepEqual(writes(up), ["DELETE /clusters/{id}/clients/{client} 204", "POST /clusters/{id}/clients 200"]);
        const after = only(emulator).clients[0];
        assert.notEqual(after.clientId, before.clientId);
        assert.deepEqual(unwrapSecrets(up.result.outputs.clientSecrets), [after.clientSecret]);
        stack.assertNoLeaks(up, [CLIENT.clientSecret, before.clientSecret, after.clientSecret, API_KEY, OTHER_KEY]);
    });

    it("destroy deletes the secret (until it is no longer listed), the client, lifts the allowlist (an empty list), and deletes the cluster until it is gone", async () => {
        const destroy = await run("destroy", spec);
        succeeded(destroy);
        assert.deepEqual(writes(destroy), [
            "DELETE /clusters/{id}/secrets/PAYMENTS_API_KEY 204",
            "DELETE /clusters/{id}/clients/{client} 204",
            "PUT /clusters/{id}/ipallowlist 204",
            "DELETE /clusters/{id} 204",
        ]);
        const lifted = destroy.requests.find((r) => r.method === "PUT");
        assert.deepEqual(lifted?.body, { ipallowlist: [] });
        assert.ok(adminLines(destroy).includes("GET /clusters/{id} 404"), "destroy did not wait until the cluster was gone");
        assert.deepEqual(emulator().control.hostedClusters(), []);
    });
});

describe("hosted cluster: a cluster's generation, its fixed fields and its bad days", function () {
    const emulator = useHostedEmulator();
    const workDir = useWorkDir();
    const { run } = hostedStack(emulator, workDir);
    const pinned = { ...CLUSTER, autoUpdate: false, generation: "Camunda 8.8.5" };

    it("a generation change upgrades the cluster when it is the newest the channel allows, and is refused at preview otherwise", async () => {
        succeeded(await run("up", { cluster: pinned }));
        const tooOld = await run("preview", { cluster: { ...pinned, channel: "Stable", generation: "gen-8-10-alpha2" } });
        failed(tooOld);
        assert.match(
            errorsOf(tooOld),
            /generation: "gen-8-10-alpha2" is not a generation the channel Stable allows: use Camunda 8\.8\.5, Camunda 8\.9\.1 \(a name or its id\)/,
        );
        const preview = await run("preview", { cluster: { ...pinned, generation: "Camunda 8.9.1" } });
        succeeded(preview);
        assert.match(lines(preview, "Cluster", "cluster")[0], /updates cluster \S+: generation Camunda 8\.8\.5 → Camunda 8\.9\.1 \(the upgrade\)$/);
        const up = await run("up", { cluster: { ...pinned, generation: "Camunda 8.9.1" } });
        succeeded(up);
        assert.deepEqual(writes(up), ["PUT /clusters/{id}/upgrade 200"]);
        assert.deepEqual([only(emulator).generation, only(emulator).status], ["Camunda 8.9.1", "Healthy"]);
        assert.ok(
            lines(up, "Cluster", "cluster").some((line) => line.includes("is Updating")),
            "up did not wait for the upgrade",
        );
    });

    it("a new region replaces the cluster: preview says in words that its data goes; up creates the new one, then deletes the old", async () => {
        succeeded(await run("up", { cluster: pinned }));
        const old = only(emulator).id;
        const moved = { cluster: { ...pinned, region: "Iowa, North America (us-central1)" } };
        const preview = await run("preview", moved);
        succeeded(preview);
        assert.ok(preview.result.steps.some((step) => step.name === "cluster" && step.op === "replace"));
        assert.deepEqual(lines(preview, "Cluster", "cluster").slice(0, 1), [
            `Cluster "cluster": replacing deletes cluster orders (${old}) and all its data (region Belgium, Europe (europe-west1) → Iowa, North America (us-central1)): up creates the new cluster, then deletes this one`,
        ]);
        const up = await run("up", moved);
        succeeded(up);
        assert.deepEqual(writes(up), ["POST /clusters 200", "DELETE /clusters/{id} 204"]);
        assert.equal(only(emulator).region, "Iowa, North America (us-central1)");
        assert.notEqual(only(emulator).id, old);
    });

    it("getClusterParametersOutput lists the channels (with their generations), plan types and regions, in preview too", async () => {
        const preview = await run("preview", { parameters: true });
        succeeded(preview);
        const parameters = unwrapSecrets(preview.result.outputs.parameters) as {
            channels: { name: string; defaultGeneration: { name: string }; allowedGenerations: unknown[] }[];
            planTypes: { id: string }[];
            regions: { name: string }[];
        };
        assert.deepEqual(
            parameters.channels.map((channel) => [channel.name, channel.defaultGeneration.name, channel.allowedGenerations.length]),
            [
                ["Stable", "Camunda 8.8.5", 2],
                ["Alpha", "Camunda 8.10.0-alpha2", 1],
            ],
        );
        assert.deepEqual(
            parameters.planTypes.map((plan) => plan.id),
            ["plan-trial", "plan-basic", "plan-advanced"],
        );
        assert.equal(parameters.regions.length, 3);
    });

    it("a region with a typo is refused at preview, naming the valid ones; nothing but the parameters is read", async () => {
        const preview = await run("preview", { cluster: { ...CLUSTER, region: "Belgum" } });
        failed(preview);
        assert.match(
            errorsOf(preview),
            /resource 'cluster' has a problem: region: "Belgum" is not a region of the organization: use Belgium, Europe \(europe-west1\), Iowa, North America \(us-central1\), Frankfurt, Europe \(eu-central-1\) \(a name or its id\)/,
        );
        assert.deepEqual(adminLines(preview), ["GET /clusters/parameters 200"]);
    });

    it("creation that ends Unhealthy fails naming the state and keeps the cluster in the stack; the next up waits for the same cluster", async () => {
        emulator().control.updateSettings({ clusterCreateOutcome: "Unhealthy" });
        const up = await run("up", { cluster: CLUSTER });
        failed(up);
        const id = only(emulator).id;
        assert.match(
            errorsOf(up),
            new RegExp(`Cluster "cluster": Cluster ${id} is Unhealthy; it stays in the stack: the next up waits for the same cluster once it is repaired`),
        );
        const kept = up.result.state.resources[`urn:pulumi:test::hosted::${TYPE("Cluster")}::cluster`];
        assert.equal(kept?.id, id);
        assert.ok(kept.initErrors?.length, "the failure is not recorded as an init error");
        // Repaired in the web console: the next up waits for it (two Healthy reads) and sends nothing new.
        emulator().control.setHostedClusterStatus(id, "Healthy");
        const next = await run("up", { cluster: CLUSTER });
        succeeded(next);
        assert.deepEqual(writes(next), []);
        assert.equal(emulator().control.hostedClusters().length, 1);
    });

    it("a creation that outlasts timeoutSeconds fails naming the state and keeps the cluster; the next up waits for the same one", async () => {
        emulator().control.updateSettings({ clusterCreateMs: 1_500 });
        const up = await run("up", { cluster: { ...CLUSTER, timeoutSeconds: 1 } });
        failed(up);
        const id = only(emulator).id;
        assert.match(
            errorsOf(up),
            new RegExp(
                `Cluster ${id} was not Healthy after 1 s \\(still Creating\\); it stays in the stack: the next up waits for the same cluster \\(raise timeoutSeconds if it needs longer than 1 s\\)`,
            ),
        );
        const next = await run("up", { cluster: { ...CLUSTER, timeoutSeconds: 60 } });
        succeeded(next);
        assert.deepEqual(writes(next), []);
        assert.deepEqual([emulator().control.hostedClusters().length, only(emulator).status], [1, "Healthy"]);
    });

    it("an up killed while the cluster is Creating leaves no id in the stack; the next up refuses to create a second one, naming it; with existingClusterId it waits for that one", async function () {
        emulator().control.updateSettings({ clusterCreateMs: 60_000 });
        const killer = new AbortController();
        const { run: runInProcesses } = hostedStack(emulator, workDir, "process");
        const killed = await runInProcesses(
            "up",
            { cluster: CLUSTER },
            // Killed in the update pass: its preview pass is not the case.
            { skipPreview: true, signal: killer.signal, onLine: (line) => line.includes("is Creating") && killer.abort() },
        );
        assert.equal(killed.result.exitCode, 128 + 9, "the run was not killed");
        assert.equal(killed.result.state.resources[`urn:pulumi:test::hosted::${TYPE("Cluster")}::cluster`], undefined);
        assert.deepEqual(
            killed.result.state.pendingOperations.map((p) => p.operation),
            ["creating"],
        );
        const id = only(emulator).id;

        const again = await run("up", { cluster: CLUSTER });
        failed(again);
        assert.match(
            errorsOf(again),
            new RegExp(
                `name: a cluster named orders exists already \\(id ${id}, Creating, created [^)]+\\); to bring it under this stack set existingClusterId: "${id}", or choose another name`,
            ),
        );
        assert.deepEqual(writes(again), []);

        emulator().control.setHostedClusterStatus(id, "Healthy");
        const adopted = await run("up", { cluster: { ...CLUSTER, existingClusterId: id } });
        succeeded(adopted);
        assert.ok(adopted.result.stderr.includes("Attempting to deploy or update resources with 1 pending operations from previous deployment."));
        assert.deepEqual(writes(adopted), []);
        assert.equal(adopted.result.state.resources[`urn:pulumi:test::hosted::${TYPE("Cluster")}::cluster`]?.id, id);
        assert.equal(emulator().control.hostedClusters().length, 1);
    });

    it("taking over a cluster whose region differs is refused at preview, naming what only creation sets", async () => {
        const id = emulator().control.addHostedCluster({ name: "console-made", regionId: "region-iowa" });
        const preview = await run("preview", { cluster: { ...CLUSTER, existingClusterId: id } });
        failed(preview);
        assert.match(
            errorsOf(preview),
            new RegExp(
                `existingClusterId: cluster ${id} \\(console-made\\) differs in what only its creation sets \\(region Iowa, North America \\(us-central1\\) → Belgium, Europe \\(europe-west1\\)\\)`,
            ),
        );
    });

    it("a cluster deleted elsewhere leaves the stack at refresh", async () => {
        succeeded(await run("up", { cluster: CLUSTER }));
        const id = only(emulator).id;
        emulator().control.setHostedClusterStatus(id, null);
        await fetch(`${emulator().controlUrl}/reset`, { method: "POST", body: "{}" }).catch(() => undefined);
        const refresh = await run("refresh", { cluster: CLUSTER });
        succeeded(refresh);
        assert.equal(refresh.result.steps.find((step) => step.name === "cluster")?.op, "delete");
        assert.ok(
            lines(refresh, "Cluster", "cluster").some((line) => line.endsWith(`cluster orders (${id}) no longer exists: refresh removes it from the stack`)),
        );
    });
});

describe("hosted cluster: clients, connector secrets and allowlists of a cluster made elsewhere", function () {
    const emulator = useHostedEmulator();
    const workDir = useWorkDir();
    const { stack, run } = hostedStack(emulator, workDir);
    let clusterId = "";
    beforeEach(() => {
        clusterId = emulator().control.addHostedCluster({ name: "console-made" });
    });
    const refusal = async (spec: Spec, reason: RegExp) => {
        const preview = await run("preview", { clusterId, ...spec });
        failed(preview);
        assert.match(errorsOf(preview), reason);
        assert.deepEqual(writes(preview), []);
    };

    it("bad inputs are refused at check, naming the field: a permission in another case, an unknown one, an invalid CIDR, a secret name of 60 characters", async () => {
        await refusal(
            { clients: [{ name: "worker", clientName: "w", permissions: ["zeebe"] }] },
            /permissions\[0\] \(zeebe\) is not a permission: write it as the API does, Zeebe: use Zeebe, Operate, Tasklist, Optimize, Secrets/,
        );
        await refusal(
            { clients: [{ name: "worker", clientName: "w", permissions: ["Zeebe", "Admin"] }] },
            /permissions\[1\] \(Admin\) is not a permission: use Zeebe, Operate/,
        );
        await refusal(
            { allowlists: [{ name: "ingress", entries: [{ ip: "10.0.0.0/33" }] }] },
            /entries\[0\]\.ip has "10\.0\.0\.0\/33", whose prefix length is not 0 to 32/,
        );
        await refusal(
            { allowlists: [{ name: "ingress", entries: [{ ip: "10.0.0.1, nonsense" }] }] },
            /entries\[0\]\.ip has "nonsense", which is not an IPv4 or IPv6 address or CIDR range/,
        );
        await refusal({ secrets: [{ name: "key", secretName: "S".repeat(60), valueKey: "apiKey" }] }, /secretName must be shorter than 50 characters/);
    });

    it("an allowlist entry may list several ranges, IPv6 ones among them; the preview of a create shows what it replaces", async () => {
        const spec: Spec = {
            clusterId,
            allowlists: [{ name: "ingress", entries: [{ ip: "10.0.0.0/8, 2001:db8::/32", description: "offices" }, { ip: "198.51.100.7" }] }],
        };
        const preview = await run("preview", spec);
        succeeded(preview);
        assert.deepEqual(lines(preview, "IpAllowlist", "ingress"), [
            `IpAllowlist "ingress": sets the allowlist of cluster ${clusterId}: adds 10.0.0.0/8, 2001:db8::/32 (offices), 198.51.100.7 ()`,
        ]);
        succeeded(await run("up", spec));
        assert.deepEqual(only(emulator).ipallowlist, [
            { ip: "10.0.0.0/8, 2001:db8::/32", description: "offices" },
            { ip: "198.51.100.7", description: "" },
        ]);
    });

    it("a second allowlist for one cluster is refused at preview; without the feature the allowlist fails naming it", async () => {
        await refusal(
            {
                allowlists: [
                    { name: "first", entries: [] },
                    { name: "second", entries: [] },
                ],
            },
            /resource 'second' has a problem: clusterId: IpAllowlist "first" already manages the allowlist of cluster \S+ in this stack/,
        );
        emulator().control.updateSettings({ ipAllowlistFeature: false });
        await refusal(
            { allowlists: [{ name: "first", entries: [] }] },
            /shows no ipallowlist: the organization lacks the IP allowlist feature, or these credentials lack the IP allowlist permission \(an absent list is not an empty one\)/,
        );
    });

    it("a connector secret whose name exists is refused at preview naming adoptExisting; with it, preview says whether the value changes and up writes it in place", async () => {
        emulator().control.setConnectorSecret(clusterId, "API_KEY", "made-in-the-console");
        await refusal(
            { secrets: [{ name: "key", secretName: "API_KEY", valueKey: "apiKey" }] },
            /secretName: cluster \S+ has a secret named API_KEY already \(made outside the stack\): set adoptExisting: true to write this value into it, or choose another name/,
        );
        const adopt: Spec = { clusterId, secrets: [{ name: "key", secretName: "API_KEY", valueKey: "apiKey", adoptExisting: true }] };
        const preview = await run("preview", adopt);
        succeeded(preview);
        assert.deepEqual(lines(preview, "ConnectorSecret", "key"), ['ConnectorSecret "key": adopts existing secret API_KEY (its value changes)']);
        const up = await run("up", adopt);
        succeeded(up);
        assert.deepEqual(writes(up), ["PUT /clusters/{id}/secrets/API_KEY 204"]);
        assert.equal(only(emulator).secrets.API_KEY, API_KEY);
        stack.assertNoLeaks(up, [CLIENT.clientSecret, API_KEY]);
    });

    it("a client name taken outside the stack is refused at preview (a secret cannot be read again); a client deleted outside leaves the stack at refresh, and the next up creates it again", async () => {
        succeeded(await run("up", { clusterId, clients: [{ name: "worker", clientName: "worker" }] }));
        const first = only(emulator).clients[0];
        assert.deepEqual(first.permissions, ["Zeebe", "Operate", "Tasklist", "Optimize", "Secrets"]);
        await refusal(
            {
                clients: [
                    { name: "worker", clientName: "worker" },
                    { name: "twin", clientName: "worker" },
                ],
            },
            /resource 'twin' has a problem: clientName: ClusterClient "worker" already declares client worker of cluster \S+ in this stack: declare it once/,
        );
        emulator().control.removeHostedClusterClient(clusterId, first.clientId);
        const refresh = await run("refresh", { clusterId, clients: [{ name: "worker", clientName: "worker" }] });
        succeeded(refresh);
        assert.equal(refresh.result.steps.find((step) => step.name === "worker")?.op, "delete");
        const up = await run("up", { clusterId, clients: [{ name: "worker", clientName: "worker" }] });
        succeeded(up);
        assert.deepEqual(writes(up), ["POST /clusters/{id}/clients 200"]);
        assert.notEqual(only(emulator).clients[0].clientId, first.clientId);
    });

    it("a client of a cluster that is not ready yet: its details answer 412 until it is, which up waits out", async () => {
        const creating = emulator().control.addHostedCluster({ name: "still-creating", ready: false });
        emulator().control.setHostedClusterStatus(creating, "Creating");
        // The cluster becomes ready once up has met the 412 and says it waits.
        const up = await run(
            "up",
            { clusterId: creating, clients: [{ name: "worker", clientName: "worker", permissions: ["Zeebe"] }] },
            {
                onLine: (line) =>
                    line.includes("the cluster is not ready yet (412); waiting") && emulator().control.setHostedClusterStatus(creating, "Healthy"),
            },
        );
        succeeded(up);
        assert.ok(adminLines(up).includes("GET /clusters/{id}/clients/{client} 412"), adminLines(up).join("\n"));
        assert.ok(lines(up, "ClusterClient", "worker").some((line) => line.includes("the cluster is not ready yet (412); waiting")));
        assert.match(String(unwrapSecrets(up.result.outputs.zeebeAddresses as PropertyValue)), /zeebe\.emulated\.example/);
    });

    it("20 clients and 50 secrets: a preview reads each list once and sends nothing", async () => {
        const spec: Spec = {
            clusterId,
            clients: Array.from({ length: 20 }, (_, i) => ({ name: `client-${i}`, clientName: `worker-${i}`, permissions: ["Zeebe"] })),
            secrets: Array.from({ length: 50 }, (_, i) => ({ name: `secret-${i}`, secretName: `SECRET_${i}`, valueKey: "apiKey" })),
            allowlists: [{ name: "ingress", entries: [{ ip: "10.0.0.0/8" }] }],
        };
        succeeded(await run("up", spec));
        const preview = await run("preview", spec);
        succeeded(preview);
        assert.deepEqual(adminLines(preview).sort(), ["GET /clusters/{id} 200", "GET /clusters/{id}/clients 200", "GET /clusters/{id}/secrets 200"]);
        assert.equal(preview.tokenRequests.length, 0);
    });
});
