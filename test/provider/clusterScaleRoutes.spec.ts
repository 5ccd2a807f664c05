// Reaching the cluster from a real pipeline: a management API behind HTTPS with a private CA (given as the tls input
// or as PLATFORM_TLS_CA_FILE), one that requires a client certificate, and a runner whose traffic goes through a proxy.
// Each runs ClusterScale end to end through the real provider host.
import * as assert from "assert";
import * as path from "path";
import { DEMO_CLIENT } from "../emulator";
import { isSecret } from "../engine";
import { HttpsFront } from "../support/httpsFront";
import { RecordingProxy } from "../support/recordingProxy";
import { type TlsMaterial, makeTlsMaterial } from "../support/tlsMaterial";
import { ClusterScaleFixture, failed, mutating, output, succeeded } from "./clusterScaleSupport";

/** gRPC between the test engine and the provider host is loopback traffic: never through the proxy under test. */
const GRPC_DIRECT = { no_grpc_proxy: "127.0.0.1,localhost" };

describe("ClusterScale through HTTPS with a private CA, client certificates and proxies", function () {
    this.timeout(120_000);
    const fixture = new ClusterScaleFixture("in-process");
    let tls: TlsMaterial;
    let front: HttpsFront;
    let mutualFront: HttpsFront;
    let proxy: RecordingProxy;

    before(async () => {
        await fixture.start();
        tls = makeTlsMaterial();
        const server = { certificate: tls.serverCertificate, key: tls.serverKey };
        front = new HttpsFront({ target: fixture.emulator.managementUrl, ...server });
        mutualFront = new HttpsFront({ target: fixture.emulator.managementUrl, ...server, clientCa: tls.caCertificate });
        proxy = new RecordingProxy();
        await Promise.all([front.start(), mutualFront.start(), proxy.start()]);
    });
    after(async () => {
        await Promise.all([front?.stop(), mutualFront?.stop(), proxy?.stop()]);
        tls?.remove();
        await fixture.stop();
    });
    beforeEach(() => {
        fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3 });
        fixture.emulator.control.startBroker(3);
        proxy.seen.splice(0);
    });

    it("HTTPS with a private CA: preview fails naming the untrusted certificate; with the CA as the tls input, up works and keeps tls as a secret", async () => {
        const untrusted = await fixture.run("preview", { managementUrl: front.url, brokerCount: 4 });
        assert.match(
            failed(untrusted),
            /has a problem: tls: POST \/actuator\/cluster\/brokers\?dryRun=true: TLS handshake with 127\.0\.0\.1:\d+ failed \(.*\): the server's certificate is not trusted; give its CA as tls\.caCertificate/,
        );

        const up = await fixture.run(
            "up",
            { managementUrl: front.url, brokerCount: 4 },
            { secrets: { tls: JSON.stringify({ caCertificate: tls.caCertificate }) } },
        );
        succeeded(up);
        assert.deepStrictEqual(mutating(up.requests).length, 1);
        assert.ok(front.forwarded > 0);
        assert.ok(isSecret(up.resource!.outputs.tls), "the tls output is not a secret");
        const refresh = await fixture.run(
            "refresh",
            { managementUrl: front.url, brokerCount: 4 },
            { secrets: { tls: JSON.stringify({ caCertificate: tls.caCertificate }) } },
        );
        succeeded(refresh);
    });

    it("HTTPS with a private CA named by PLATFORM_TLS_CA_FILE", async () => {
        const up = await fixture.run("up", { managementUrl: front.url, brokerCount: 4 }, { env: { PLATFORM_TLS_CA_FILE: tls.caFile } });
        succeeded(up);
        assert.strictEqual(output(up, "partitionCount"), 3);
        assert.deepStrictEqual(mutating(up.requests).length, 1);
    });

    it("an endpoint that requires a client certificate: refused without one; with it, up works and the key shows nowhere", async () => {
        const without = await fixture.run("preview", { managementUrl: mutualFront.url, brokerCount: 4 }, { env: { PLATFORM_TLS_CA_FILE: tls.caFile } });
        assert.match(
            failed(without),
            /has a problem: tls: POST \/actuator\/cluster\/brokers\?dryRun=true: TLS handshake with 127\.0\.0\.1:\d+ failed \(ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED\): the server requires a client certificate it accepts; give tls\.clientCertificate and tls\.clientKey/,
        );
        assert.deepStrictEqual(mutating(without.requests), []);

        const withCertificate = {
            tls: JSON.stringify({ caCertificate: tls.caCertificate, clientCertificate: tls.clientCertificate, clientKey: tls.clientKey }),
        };
        const up = await fixture.run("up", { managementUrl: mutualFront.url, brokerCount: 4 }, { secrets: withCertificate });
        succeeded(up);
        assert.deepStrictEqual(mutating(up.requests).length, 1);
        const keyBody = tls.clientKey.split("\n")[1];
        for (const text of [up.result.stdout, up.result.stderr, fixture.stateText]) assert.ok(!text.includes(keyBody), "the client key leaked");
    });

    it("HTTP_PROXY: every management request goes through the proxy; NO_PROXY sends them direct", async () => {
        const env = { ...GRPC_DIRECT, HTTP_PROXY: proxy.url };
        const up = await fixture.run("up", { brokerCount: 4 }, { env });
        succeeded(up);
        const target = fixture.emulator.managementUrl;
        assert.ok(proxy.seen.length >= 3, proxy.seen.map((entry) => entry.line).join("\n"));
        assert.ok(
            proxy.seen.every((entry) => entry.line.includes(`${target}/actuator/cluster`)),
            proxy.seen.map((entry) => entry.line).join("\n"),
        );
        assert.ok(proxy.seen.some((entry) => entry.line.startsWith(`POST ${target}/actuator/cluster/brokers?`) && !entry.line.includes("dryRun")));
        assert.strictEqual(proxy.seen.length, up.requests.length, "a request bypassed the proxy");

        proxy.seen.splice(0);
        succeeded(await fixture.run("preview", { brokerCount: 4 }, { env: { ...env, NO_PROXY: "127.0.0.1" } }));
        assert.deepStrictEqual(proxy.seen, []);
    });

    it("HTTPS_PROXY with a private CA: TLS requests are tunnelled through the proxy (CONNECT)", async () => {
        const env = { ...GRPC_DIRECT, HTTPS_PROXY: proxy.url, PLATFORM_TLS_CA_FILE: tls.caFile };
        const up = await fixture.run("up", { managementUrl: front.url, brokerCount: 4 }, { env });
        succeeded(up);
        assert.ok(
            proxy.seen.length >= 1 && proxy.seen.every((entry) => entry.line === `CONNECT ${new URL(front.url).host}`),
            proxy.seen.map((entry) => entry.line).join("\n"),
        );
    });

    it("PLATFORM_LOG_LEVEL=debug: one line per request and per token, naming the resource, with no header value, token or secret; none by default", async () => {
        const auth = {
            auth: JSON.stringify({
                clientId: DEMO_CLIENT.clientId,
                clientSecret: DEMO_CLIENT.clientSecret,
                oauthUrl: fixture.emulator.authUrl,
                audience: DEMO_CLIENT.audience,
            }),
        };
        // A token cache of its own, so that this run asks the issuer.
        const tokens = path.join(path.dirname(tls.caFile), "debug-tokens");
        const up = await fixture.run("up", { brokerCount: 4 }, { secrets: auth, env: { PLATFORM_LOG_LEVEL: "debug", PLATFORM_TOKEN_CACHE_DIR: tokens } });
        succeeded(up);
        const debug = up.hostLines.filter((line) => line.includes(": debug: "));
        assert.ok(
            debug.every((line) => line.startsWith('ClusterScale "cluster": debug: ')),
            debug.join("\n"),
        );
        assert.ok(
            debug.some((line) => /debug: GET \/actuator\/cluster → 200 in \d+ ms$/.test(line)),
            debug.join("\n"),
        );
        assert.ok(
            debug.some((line) => /debug: POST \/actuator\/cluster\/brokers\?dryRun=true&replicationFactor=3 → 202 in \d+ ms$/.test(line)),
            debug.join("\n"),
        );
        assert.ok(
            debug.some((line) => /debug: POST \/actuator\/cluster\/brokers\?replicationFactor=3 → 202 in \d+ ms$/.test(line)),
            debug.join("\n"),
        );
        assert.ok(
            debug.some((line) => line.endsWith(`debug: token of client '${DEMO_CLIENT.clientId}' for audience '${DEMO_CLIENT.audience}' from the issuer`)),
            debug.join("\n"),
        );
        assert.ok(
            debug.some((line) => line.includes("from memory")),
            debug.join("\n"),
        );
        const everything = `${up.result.stdout}\n${up.result.stderr}`;
        assert.ok(!everything.includes(DEMO_CLIENT.clientSecret) && !/eyJ[\w-]+\.[\w-]+/.test(everything), "a secret or a token was printed");
        assert.strictEqual(debug.filter((line) => / → \d+ in /.test(line)).length, up.requests.length + 1, "one line per request (the token request included)");

        const quiet = await fixture.run("preview", { brokerCount: 4 }, { secrets: auth });
        succeeded(quiet);
        assert.ok(!quiet.hostLines.some((line) => line.includes(": debug: ")), quiet.result.stdout);
    });
});
