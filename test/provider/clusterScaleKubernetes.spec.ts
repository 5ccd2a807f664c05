// ClusterScale through the Kubernetes API server's service proxy, end to end through the real provider host: the
// API server stand-in in front of the emulator, kubeconfigs made in the test (a token user and a certificate user),
// the kubeconfig as an input, in KUBECONFIG or in stack config, and the API server's own refusals.
import * as assert from "assert";
import * as fs from "fs";
import * as path from "path";
import type { KubeApiServer } from "../emulator/kubeApiServer";
import { isSecret } from "../engine";
import { KUBE_USERS, apiServerStandIn, kubeconfigYaml } from "../support/kubeconfig";
import { type TlsMaterial, makeTlsMaterial } from "../support/tlsMaterial";
import { ClusterScaleFixture, failed, mutating, output, printed, succeeded } from "./clusterScaleSupport";

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

    it("a token user (kubeconfig as input): preview, up, refresh and the next preview all go through the proxy; the kubeconfig stays a secret", async () => {
        const args = { brokerCount: 4, kubernetes: route({ kubeconfig: tokenConfig() }) };
        const preview = await fixture.run("preview", args, { config: NO_URL });
        succeeded(preview);
        assert.ok(printed(preview, "up will apply 8 operations"), preview.result.stdout);
        assert.deepStrictEqual(mutating(preview.requests), []);

        const up = await fixture.run("up", args, { config: NO_URL });
        succeeded(up);
        assert.deepStrictEqual(mutating(up.requests).length, 1);
        assert.ok(
            apiServer.proxied.some((line) => line === "POST /actuator/cluster/brokers?replicationFactor=3"),
            apiServer.proxied.join("\n"),
        );
        assert.ok(
            apiServer.proxied.some((line) => line.startsWith("GET /v2/topology")),
            "the gateway was not reached through the route",
        );
        assert.strictEqual(output(up, "partitionCount"), 3);
        assert.match(up.resource!.id ?? "", /^kubernetes:\/\/camunda\/platform-gateway:9600\/actuator\/cluster$/);
        assert.ok(isSecret(up.resource!.outputs.kubernetes), "the kubernetes output is not a secret");
        for (const text of [up.result.stdout, up.result.stderr, fixture.stateText]) assert.ok(!text.includes(TOKEN), "the kubeconfig's token leaked");

        succeeded(await fixture.run("refresh", args, { config: NO_URL }));
        const again = await fixture.run("preview", args, { config: NO_URL });
        succeeded(again);
        assert.ok(
            again.result.steps.some((step) => step.name === "cluster" && step.op === "same"),
            again.result.stdout,
        );
    });

    it("a certificate user from KUBECONFIG, with a context named; and the kubeconfig from stack config kubernetes:kubeconfig", async () => {
        const file = path.join(path.dirname(tls.caFile), "kubeconfig");
        fs.writeFileSync(
            file,
            kubeconfigYaml(apiServer.url, tls.caCertificate, { clientCertificate: tls.clientCertificate, clientKey: tls.clientKey }, "ci-context"),
            { mode: 0o600 },
        );
        const up = await fixture.run("up", { brokerCount: 4, kubernetes: route({ context: "ci-context" }) }, { config: NO_URL, env: { KUBECONFIG: file } });
        succeeded(up);
        assert.deepStrictEqual(mutating(up.requests).length, 1);

        apiServer.proxied.splice(0);
        const fromConfig = await fixture.run(
            "preview",
            { brokerCount: 4, kubernetes: route() },
            { config: NO_URL, secrets: { "kubernetes:kubeconfig": tokenConfig() } },
        );
        succeeded(fromConfig);
        assert.ok(printed(fromConfig, "settings changed (kubernetes)", "nothing will be sent"), fromConfig.result.stdout);
        assert.ok(
            apiServer.proxied.some((line) => line.includes("dryRun=true")),
            "the dry run did not go through the API server",
        );
        assert.deepStrictEqual(mutating(fromConfig.requests), []);
    });

    it("the API server's refusals name the route and what to do: 401, 403 (services/proxy), and no endpoints", async () => {
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

        apiServer.endpointsReady = false;
        const down = await fixture.run("preview", { brokerCount: 4, kubernetes: route({ kubeconfig: tokenConfig() }) }, { config: NO_URL });
        succeeded(down);
        assert.ok(
            printed(down, "cannot reach the management API", 'no endpoints available for service \\"platform-gateway\\"') ||
                printed(down, "cannot reach the management API", 'no endpoints available for service "platform-gateway"'),
            down.result.stdout,
        );
    });

    it("switching from a URL to the Kubernetes route is a settings update that sends nothing", async () => {
        succeeded(await fixture.run("up", { brokerCount: 4 }));
        const preview = await fixture.run("preview", { brokerCount: 4, kubernetes: route({ kubeconfig: tokenConfig() }) }, { config: NO_URL });
        succeeded(preview);
        assert.ok(printed(preview, "settings changed (managementUrl, kubernetes)", "nothing will be sent"), preview.result.stdout);
        const up = await fixture.run("up", { brokerCount: 4, kubernetes: route({ kubeconfig: tokenConfig() }) }, { config: NO_URL });
        succeeded(up);
        assert.deepStrictEqual(mutating(up.requests), []);
    });
});
