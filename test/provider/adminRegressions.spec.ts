// The administration resources' defects found by a seeded run against a fake written from the OpenAPI description,
// each a test named after its case, run against both answers the API may give where the description is silent
// (a Cluster with or without `labels`; a pending invitation listed with an empty name or with its email).
import assert from "node:assert/strict";
import type { RequestLogEntry, RunningEmulator } from "../emulator";
import { useEmulator } from "../support/emulator";
import { AdminRun, AdminStack, CLIENT, linesOf, platformConfig, succeeded, useWorkDir } from "./adminClientSupport";

const CLUSTER = { name: "orders", channel: "Stable", region: "Belgium, Europe (europe-west1)", planType: "Basic", stageLabel: "dev" };
const writes = (run: AdminRun) =>
    run.requests
        .filter((r: RequestLogEntry) => r.interface === "admin" && r.method !== "GET")
        .map((r) => `${r.method} ${r.path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, "{id}").replace(/client-[0-9a-f]{12}/g, "{client}")} ${r.status}`);
const ops = (run: AdminRun) => run.result.steps.filter((step) => step.type.includes("dynamic/platform:")).map((step) => `${step.name} ${step.op}`);

const useAdminEmulator = () =>
    useEmulator({ opMs: 10, rateLimitBlockSeconds: 0, clients: [CLIENT], clusterCreateMs: 100, clusterUpdateMs: 100, clusterDeleteMs: 50 });

function stackOf(emulator: () => RunningEmulator, workDir: () => string, engine: "in-process" | "process" = "in-process") {
    const stack = new AdminStack(emulator, workDir, "state.json", engine);
    return (
        command: "preview" | "up" | "refresh",
        program: "hosted" | "organization-members",
        spec: unknown,
        options: { signal?: AbortSignal; onLine?: (line: string) => void; skipPreview?: boolean } = {},
    ) => {
        const { config, secrets } = platformConfig(emulator());
        const key = program === "hosted" ? "spec" : "members";
        return stack.run(command, { program, config: { ...config, [key]: JSON.stringify(spec) }, secrets, ...options });
    };
}

describe("administration resources: a preview right after up is clean, whichever way the API fills in what it leaves undocumented", function () {
    const emulator = useAdminEmulator();
    const workDir = useWorkDir();
    const run = stackOf(emulator, workDir);

    for (const clusterLabels of [false, true]) {
        it(`a Cluster that sets stageLabel, against a server that ${clusterLabels ? "lists it among labels" : "leaves labels out"}: no update after up, and refresh keeps it`, async () => {
            emulator().control.updateSettings({ clusterLabels });
            succeeded(await run("up", "hosted", { cluster: CLUSTER }));
            const preview = await run("preview", "hosted", { cluster: CLUSTER });
            succeeded(preview);
            assert.deepEqual(ops(preview), ["cluster same"], preview.result.stdout);
            const again = await run("up", "hosted", { cluster: CLUSTER });
            succeeded(again);
            assert.deepEqual(writes(again), [], "an up with nothing to do sent a write");

            const refresh = await run("refresh", "hosted", { cluster: CLUSTER });
            succeeded(refresh);
            assert.deepEqual(ops(refresh), ["cluster same"], refresh.result.stdout);
            const said = linesOf(refresh, "cluster", "Cluster").some((line) => line.includes("refresh cannot see it, and keeps the one this stack set (dev)"));
            assert.equal(said, !clusterLabels, refresh.result.stdout);
            succeeded(await run("preview", "hosted", { cluster: CLUSTER }));

            // A stage label the program changes is still sent, and only once.
            const staged = { ...CLUSTER, stageLabel: "test" };
            const changePreview = await run("preview", "hosted", { cluster: staged });
            assert.ok(
                linesOf(changePreview, "cluster", "Cluster").some((line) => line.includes("stageLabel dev → test")),
                changePreview.result.stdout,
            );
            const change = await run("up", "hosted", { cluster: staged });
            succeeded(change);
            assert.deepEqual(writes(change), ["PATCH /clusters/{id} 204"]);
            assert.equal(emulator().control.hostedClusters()[0].stageLabel, "test");
            assert.deepEqual(ops(await run("preview", "hosted", { cluster: staged })), ["cluster same"]);
        });
    }

    for (const invitationName of ["empty", "email"] as const) {
        it(`after an invitation the next preview shows no update, the listing naming the pending invitation ${invitationName === "empty" ? '""' : "by its email"}`, async () => {
            emulator().control.updateSettings({ invitationName, seats: 10 });
            const members = [{ name: "m1", email: "m1@example.com", roles: ["developer"] }];
            const up = await run("up", "organization-members", members);
            succeeded(up);
            assert.deepEqual(writes(up), ["POST /members/m1%40example.com 204"]);
            const preview = await run("preview", "organization-members", members);
            succeeded(preview);
            assert.deepEqual(ops(preview), ["m1 same"], preview.result.stdout);
            assert.deepEqual(linesOf(preview, "m1", "OrganizationMember"), []);
            // Refresh records what the organization lists, and the preview after it is clean too.
            succeeded(await run("refresh", "organization-members", members));
            assert.deepEqual(ops(await run("preview", "organization-members", members)), ["m1 same"]);
            // The person accepts: still nothing to do.
            emulator().control.updateSettings({
                members: [
                    ...emulator()
                        .control.members()
                        .map((m) => (m.email === "m1@example.com" ? { ...m, name: "M One", invitePending: false } : m)),
                ],
            });
            assert.deepEqual(ops(await run("preview", "organization-members", members)), ["m1 same"]);
        });
    }
});

describe("ClusterClient: an up killed right after the client was created leaves a pipeline a way out (replaceExisting)", function () {
    const emulator = useAdminEmulator();
    const workDir = useWorkDir();

    it("the next up refuses naming replaceExisting; with it, preview says the existing client's secret stops working and up makes it anew, once", async function () {
        this.timeout(180_000);
        const clusterId = emulator().control.addHostedCluster({ name: "console-made" });
        const killer = new AbortController();
        const inProcesses = stackOf(emulator, workDir, "process");
        const clients = [{ name: "worker", clientName: "order-worker", permissions: ["Zeebe"] }];
        const killed = await inProcesses(
            "up",
            "hosted",
            { clusterId, clients },
            {
                // Killed in the update pass: its preview pass is not the case.
                skipPreview: true,
                signal: killer.signal,
                onLine: (line) => line.includes("created client order-worker") && killer.abort(),
            },
        );
        assert.equal(killed.result.exitCode, 128 + 9, "the run was not killed");
        const orphan = emulator().control.hostedClusters()[0].clients;
        assert.equal(orphan.length, 1);

        const run = stackOf(emulator, workDir);
        const refused = await run("up", "hosted", { clusterId, clients });
        assert.notEqual(refused.result.exitCode, 0);
        assert.match(
            refused.result.errors.join("\n"),
            /made outside the stack, or by an up killed before it recorded it\); .*set replaceExisting: true to delete it and make it anew/,
        );
        assert.deepEqual(writes(refused), []);

        const replacing = clients.map((client) => ({ ...client, replaceExisting: true }));
        const preview = await run("preview", "hosted", { clusterId, clients: replacing });
        succeeded(preview);
        assert.deepEqual(linesOf(preview, "worker", "ClusterClient"), [
            `ClusterClient "worker": replaces client order-worker (${orphan[0].clientId}) of cluster ${clusterId}, made outside the stack (replaceExisting): up deletes it and creates it anew (Zeebe); the existing client's secret stops working, the new one becomes a secret output`,
        ]);
        assert.deepEqual(writes(preview), []);
        const up = await run("up", "hosted", { clusterId, clients: replacing });
        succeeded(up);
        assert.deepEqual(writes(up), ["DELETE /clusters/{id}/clients/{client} 204", "POST /clusters/{id}/clients 200"]);
        const now = emulator().control.hostedClusters()[0].clients;
        assert.equal(now.length, 1);
        assert.notEqual(now[0].clientId, orphan[0].clientId);
        assert.deepEqual(ops(await run("preview", "hosted", { clusterId, clients: replacing })), ["worker same"]);
        assert.ok(!JSON.stringify(up.result.stdout + up.result.stderr).includes(now[0].clientSecret), "the new secret was printed");
        assert.ok(!JSON.stringify(up.result.stdout + up.result.stderr).includes(CLIENT.clientSecret), "the admin secret was printed");
    });
});
