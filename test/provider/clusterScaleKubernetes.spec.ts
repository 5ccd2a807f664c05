// ClusterScale through the Kubernetes API server's service proxy, end to end through the real provider host: the
// API server stand-in in front of the emulator, kubeconfigs made in the test (a token user and a certificate user),
// the kubeconfig as an input, in KUBECONFIG or in stack config, and the API server's own refusals. A real API server
// refuses `dryRun` on its proxy (test/kubernetes/ shows it), so the route cannot plan: every preview fails naming the
// way out (the management API at managementUrl, kubernetes.statefulSet for the brokers).
import * as assert from "assert";
import * as fs from "fs";
import * as path from "path";
import type { KubeApiServer } from "../emulator/kubeApiServer";
import { KUBE_USERS, apiServerStandIn, kubeconfigYaml } from "../support/kubeconfig";
import { type TlsMaterial, makeTlsMaterial } from "../support/tlsMaterial";
import { ClusterScaleFixture, failed, mutating, succeeded } from "./clusterScaleSupport";

const TOKEN = KUBE_USERS.token;
const NO_URL = { "platform:managementUrl": "" };

describe("ClusterScale through the Kubernetes API server (service proxy)", function () {
    this.timeout(120_000);
    const fixture = new ClusterScaleFixture("in-process");
    let tls: TlsMaterial;
    let apiServer: KubeApiServer;
    const route = (extra: Record<string, unknown> = {}) => ({ namespace: "camunda", service: "platform-gateway", gatewayPort: 8080, ...extra });
    const tokenConfig = (token = TOKEN) => kubeconfigYaml(apiServer.url, tls.caCertificate, { token });

    before(async () => {
        await fixture.start();
        tls = makeTlsMaterial();
        apiServer = apiServerStandIn(tls, fixture.emulator.managementUrl, fixture.emulator.gatewayUrl);
        await apiServer.start();
    });
    after(async () => {
        await apiServer?.stop();
        tls?.remove();
        await fixture.stop();
    });
    beforeEach(() => {
        fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
        fixture.emulator.control.startBroker(3);
        apiServer.endpointsReady = true;
        apiServer.proxied.splice(0);
    });

    /** The route's preview: a real API server refuses the management API's dry run on its proxy, in its own words. */
    const refusedDryRun = (run: Awaited<ReturnType<typeof fixture.run>>) => {
        const refusal = failed(run);
        assert.match(
            refusal,
            /the Kubernetes API server does not pass the management API's dry runs through its service proxy \(400: dryRun is not supported\)/,
        );
        assert.match(refusal, /set managementUrl .* and leave kubernetes.service out; kubernetes.statefulSet still keeps the brokers' StatefulSet in step/);
        assert.deepStrictEqual(mutating(run.requests), [], "something was sent to the management API");
        return refusal;
    };

    it("through the proxy, the preview's dry run is refused by the API server (as a real one does), and the error names the way out; nothing is sent", async () => {
        const preview = await fixture.run("preview", { brokerCount: 4, kubernetes: route({ kubeconfig: tokenConfig() }) }, { config: NO_URL });
        const refusal = refusedDryRun(preview);
        assert.ok(!`${preview.result.stdout}${refusal}`.includes(TOKEN), "the kubeconfig's token was printed");
        assert.ok(
            apiServer.proxied.every((line) => !line.includes("dryRun")),
            "a dry run reached the management API through the proxy",
        );
        const up = await fixture.run("up", { brokerCount: 4, kubernetes: route({ kubeconfig: tokenConfig() }) }, { config: NO_URL });
        refusedDryRun(up);
    });

    it("a certificate user from KUBECONFIG with a context named, and a kubeconfig from stack config kubernetes:kubeconfig, are accepted (the answer is the dry run's refusal, not 401 or 403)", async () => {
        const file = path.join(path.dirname(tls.caFile), "kubeconfig");
        fs.writeFileSync(
            file,
            kubeconfigYaml(apiServer.url, tls.caCertificate, { clientCertificate: tls.clientCertificate, clientKey: tls.clientKey }, "ci-context"),
            { mode: 0o600 },
        );
        refusedDryRun(
            await fixture.run("preview", { brokerCount: 4, kubernetes: route({ context: "ci-context" }) }, { config: NO_URL, env: { KUBECONFIG: file } }),
        );
        refusedDryRun(
            await fixture.run("preview", { brokerCount: 4, kubernetes: route() }, { config: NO_URL, secrets: { "kubernetes:kubeconfig": tokenConfig() } }),
        );
    });

    it("the API server's refusals name the route and what to do: 401, 403 (services/proxy)", async () => {
        const unknownToken = await fixture.run(
            "preview",
            { brokerCount: 4, kubernetes: route({ kubeconfig: tokenConfig("not-known-token") }) },
            { config: NO_URL },
        );
        const refused = failed(unknownToken);
        assert.match(refused, /resource 'cluster' has a problem: kubernetes: the Kubernetes API server did not accept the kubeconfig's credentials \(401\)/);
        // Pulumi's engine prints a failing property's value, a secret's plaintext included: the kubeconfig (with its
        // token) must not be that value.
        assert.ok(!`${unknownToken.result.stdout}${refused}`.includes("not-known-token"), "the kubeconfig's token was printed");

        const viewer = await fixture.run(
            "preview",
            { brokerCount: 4, kubernetes: route({ kubeconfig: tokenConfig(KUBE_USERS.viewerToken) }) },
            { config: NO_URL },
        );
        const forbidden = failed(viewer);
        assert.ok(!`${viewer.result.stdout}${forbidden}`.includes(KUBE_USERS.viewerToken), "the kubeconfig's token was printed");
        assert.match(forbidden, /needs the verbs get, create and patch on services\/proxy in the namespace/);
        assert.match(forbidden, /User "viewer" cannot create resource "services\/proxy"/);
    });

    it("a stack that moves from a URL to the proxy route is refused at preview the same way, and keeps its layout", async () => {
        succeeded(await fixture.run("up", { brokerCount: 4 }));
        refusedDryRun(await fixture.run("preview", { brokerCount: 4, kubernetes: route({ kubeconfig: tokenConfig() }) }, { config: NO_URL }));
    });
});
