// How requests leave the process: through the proxy the environment names, trusting a private CA given as PEM text
// or in PLATFORM_TLS_CA_FILE, presenting a client certificate. Real HTTPS endpoints and a real proxy on loopback.
import assert from "node:assert/strict";
import { ClusterClient } from "../../sdk/cluster/clusterClient";
import { PlatformError, TlsError } from "../../sdk/errors";
import type { ConnectionSettings } from "../../sdk/http/transport";
import { HttpsFront } from "../support/httpsFront";
import { RecordingProxy } from "../support/recordingProxy";
import { type TlsMaterial, makeTlsMaterial } from "../support/tlsMaterial";
import { rejection, useEmulator } from "./support";

describe("sdk transport: private CAs, client certificates and proxies", function () {
    this.timeout(30_000);
    const emulator = useEmulator();
    let tls: TlsMaterial;
    let front: HttpsFront;
    let mutualFront: HttpsFront;
    let proxy: RecordingProxy;

    before(async () => {
        tls = makeTlsMaterial();
        front = new HttpsFront({ target: emulator().managementUrl, certificate: tls.serverCertificate, key: tls.serverKey });
        mutualFront = new HttpsFront({ target: emulator().managementUrl, certificate: tls.serverCertificate, key: tls.serverKey, clientCa: tls.caCertificate });
        proxy = new RecordingProxy();
        await Promise.all([front.start(), mutualFront.start(), proxy.start()]);
    });
    after(async () => {
        await Promise.all([front?.stop(), mutualFront?.stop(), proxy?.stop()]);
        tls?.remove();
    });
    beforeEach(() => proxy.seen.splice(0));

    const cluster = (managementUrl: string, connection: ConnectionSettings) => new ClusterClient({ managementUrl, connection: { env: {}, ...connection } });

    it("an HTTPS endpoint with a private CA: refused as untrusted without the CA, read with it given as PEM text or in PLATFORM_TLS_CA_FILE", async () => {
        const error = await rejection(cluster(front.url, {}).getCluster({ retry: false }));
        assert.ok(error instanceof TlsError, String(error));
        assert.match(error.message, /the server's certificate is not trusted; give its CA as tls\.caCertificate, or a PEM bundle in PLATFORM_TLS_CA_FILE/);
        assert.equal((await cluster(front.url, { tls: { caCertificate: tls.caCertificate } }).getCluster()).version, 1);
        assert.equal((await cluster(front.url, { env: { PLATFORM_TLS_CA_FILE: tls.caFile } }).getCluster()).version, 1);
    });

    it("caOnly (a kubeconfig's CA): the given CA alone is trusted, not a CA Node trusts through NODE_EXTRA_CA_CERTS", async () => {
        const other = makeTlsMaterial();
        try {
            const env = { NODE_EXTRA_CA_CERTS: tls.caFile };
            assert.equal((await cluster(front.url, { env, tls: { caCertificate: other.caCertificate } }).getCluster()).version, 1);
            const error = await rejection(cluster(front.url, { env, tls: { caCertificate: other.caCertificate, caOnly: true } }).getCluster({ retry: false }));
            assert.ok(error instanceof TlsError, String(error));
            assert.equal((await cluster(front.url, { env, tls: { caCertificate: tls.caCertificate, caOnly: true } }).getCluster()).version, 1);
        } finally {
            other.remove();
        }
    });

    it("an endpoint that requires a client certificate: refused without one, read with it", async () => {
        const error = await rejection(cluster(mutualFront.url, { tls: { caCertificate: tls.caCertificate } }).getCluster({ retry: false }));
        assert.ok(error instanceof PlatformError, String(error));
        const state = await cluster(mutualFront.url, {
            tls: { caCertificate: tls.caCertificate, clientCertificate: tls.clientCertificate, clientKey: tls.clientKey },
        }).getCluster();
        assert.equal(state.version, 1);
        assert.ok(!error.message.includes("PRIVATE KEY"));
    });

    it("HTTP_PROXY carries plain requests, HTTPS_PROXY tunnels TLS ones, and NO_PROXY (or none set) goes direct", async () => {
        await cluster(emulator().managementUrl, { env: { HTTP_PROXY: proxy.url } }).getCluster();
        assert.deepEqual(
            proxy.seen.map((entry) => entry.line),
            [`GET ${emulator().managementUrl}/actuator/cluster`],
        );

        proxy.seen.splice(0);
        await cluster(front.url, { env: { https_proxy: proxy.url }, tls: { caCertificate: tls.caCertificate } }).getCluster();
        assert.deepEqual(
            proxy.seen.map((entry) => entry.line),
            [`CONNECT ${new URL(front.url).host}`],
        );

        proxy.seen.splice(0);
        await cluster(emulator().managementUrl, { env: { HTTP_PROXY: proxy.url, NO_PROXY: "127.0.0.1" } }).getCluster();
        await cluster(emulator().managementUrl, {}).getCluster();
        assert.deepEqual(proxy.seen, []);
    });
});
