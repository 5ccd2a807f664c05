// The route through the Kubernetes API server's service proxy, against the API server stand-in: the kubeconfig's
// token or client certificate authenticates, the backend never sees them, and the API server's own refusals
// (401, 403, 404, 503) come back as its Status answers.
import assert from "node:assert/strict";
import { ClusterClient } from "../../sdk/cluster/clusterClient";
import { PlatformError, TlsError } from "../../sdk/errors";
import { resolveServiceRoute } from "../../sdk/http/kubernetesRoute";
import type { KubeApiServer } from "../emulator/kubeApiServer";
import { KUBE_USERS, apiServerStandIn, kubeconfigYaml } from "../support/kubeconfig";
import { type TlsMaterial, makeTlsMaterial } from "../support/tlsMaterial";
import { rejection, useEmulator } from "./support";

describe("sdk: the route through the Kubernetes API server's service proxy", function () {
    this.timeout(30_000);
    const emulator = useEmulator();
    let tls: TlsMaterial;
    let apiServer: KubeApiServer;
    const TOKEN = KUBE_USERS.token;

    before(async () => {
        tls = makeTlsMaterial();
        apiServer = apiServerStandIn(tls, emulator().managementUrl, emulator().gatewayUrl);
        await apiServer.start();
    });
    after(async () => {
        await apiServer?.stop();
        tls?.remove();
    });
    beforeEach(() => {
        apiServer.endpointsReady = true;
    });

    const clusterThrough = async (kubeconfig: string, service = "platform-gateway", port = 9600, env: Record<string, string> = {}) => {
        const route = await resolveServiceRoute({ namespace: "camunda", service, port, kubeconfig });
        return new ClusterClient({ managementUrl: route.baseUrl, connection: { ...route.connection, env } });
    };

    it("the kubeconfig's CA is trusted alone, as kubectl trusts it: a CA Node trusts through NODE_EXTRA_CA_CERTS does not vouch for the API server", async () => {
        const other = makeTlsMaterial();
        try {
            const env = { NODE_EXTRA_CA_CERTS: tls.caFile };
            const refused = await rejection(
                (await clusterThrough(kubeconfigYaml(apiServer.url, other.caCertificate, { token: TOKEN }), undefined, undefined, env)).getCluster({
                    retry: false,
                }),
            );
            assert.ok(refused instanceof TlsError, String(refused));
            assert.equal(
                (await (await clusterThrough(kubeconfigYaml(apiServer.url, tls.caCertificate, { token: TOKEN }), undefined, undefined, env)).getCluster())
                    .version,
                1,
            );
        } finally {
            other.remove();
        }
    });

    it("a token user reads the cluster through the proxy path; a dry run is refused by the API server itself, as a real one does; the token never reaches the backend", async () => {
        const cluster = await clusterThrough(kubeconfigYaml(apiServer.url, tls.caCertificate, { token: TOKEN }));
        assert.match(cluster.managementUrl, /\/api\/v1\/namespaces\/camunda\/services\/platform-gateway%3A9600\/proxy$/);
        assert.equal((await cluster.getCluster()).version, 1);
        const refused = await rejection(cluster.scaleBrokers([0, 1, 2], { dryRun: true, replicationFactor: 2 }));
        assert.ok(refused instanceof PlatformError && refused.status === 400 && refused.apiServerReason === "BadRequest", String(refused));
        assert.match(refused.message, /dryRun is not supported/);
        assert.ok(
            apiServer.proxied.every((line) => !line.includes("dryRun")),
            apiServer.proxied.join("\n"),
        );
    });

    it("a client-certificate user from a kubeconfig file works the same", async () => {
        const { writeFileSync } = await import("node:fs");
        const file = `${tls.caFile}.kubeconfig`;
        writeFileSync(file, kubeconfigYaml(apiServer.url, tls.caCertificate, { clientCertificate: tls.clientCertificate, clientKey: tls.clientKey }), {
            mode: 0o600,
        });
        assert.equal((await (await clusterThrough(file)).getCluster()).version, 1);
    });

    it("the API server's refusals: 401 for an unknown token, 403 naming services/proxy, 404 for another service, 503 without endpoints", async () => {
        const wrong = await rejection(
            (await clusterThrough(kubeconfigYaml(apiServer.url, tls.caCertificate, { token: "not-a-known-token" }))).getCluster({ retry: false }),
        );
        assert.ok(wrong instanceof PlatformError && wrong.status === 401, String(wrong));
        assert.equal(wrong.apiServerReason, "Unauthorized");
        assert.ok(!wrong.message.includes("not-a-known-token"));

        const viewer = await clusterThrough(kubeconfigYaml(apiServer.url, tls.caCertificate, { token: KUBE_USERS.viewerToken }));
        assert.equal((await viewer.getCluster()).version, 1);
        const forbidden = await rejection(viewer.scaleBrokers([0, 1, 2], { dryRun: true }));
        assert.ok(forbidden instanceof PlatformError && forbidden.status === 403, String(forbidden));
        assert.match(forbidden.message, /User "viewer" cannot create resource "services\/proxy" in API group "" in the namespace "camunda"/);

        const missing = await rejection(
            (await clusterThrough(kubeconfigYaml(apiServer.url, tls.caCertificate, { token: TOKEN }), "nope")).getCluster({ retry: false }),
        );
        assert.ok(missing instanceof PlatformError && missing.status === 404 && missing.apiServerReason === "NotFound", String(missing));

        apiServer.endpointsReady = false;
        const unavailable = await rejection(
            (await clusterThrough(kubeconfigYaml(apiServer.url, tls.caCertificate, { token: TOKEN }))).getCluster({ retry: false }),
        );
        assert.ok(
            unavailable instanceof PlatformError && unavailable.status === 503 && unavailable.apiServerReason === "ServiceUnavailable",
            String(unavailable),
        );
        assert.match(unavailable.message, /no endpoints available for service "platform-gateway"/);
    });

    it("a kubeconfig that is neither YAML nor a file, or names an unknown context, is refused without a request", async () => {
        await assert.rejects(
            resolveServiceRoute({ namespace: "camunda", service: "platform-gateway", port: 9600, kubeconfig: "/nowhere/config" }),
            /the kubeconfig cannot be used: it is neither kubeconfig YAML nor the path of an existing file/,
        );
        const yaml = kubeconfigYaml(apiServer.url, tls.caCertificate, { token: TOKEN });
        await assert.rejects(
            resolveServiceRoute({ namespace: "camunda", service: "platform-gateway", port: 9600, kubeconfig: yaml, context: "other" }),
            /the kubeconfig cannot be used: .*other/,
        );
    });
});
