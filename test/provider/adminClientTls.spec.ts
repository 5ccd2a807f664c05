// AdminClient behind HTTPS with a private CA: the token issuer and the administration API both answer over TLS with a
// certificate the system does not trust. The tls input (kept as a secret for refresh) makes both reachable.
import assert from "node:assert/strict";
import { isSecret } from "../engine";
import { HttpsFront } from "../support/httpsFront";
import { type TlsMaterial, makeTlsMaterial } from "../support/tlsMaterial";
import { AdminStack, CLIENT, succeeded, useAdminEmulator, useWorkDir } from "./adminClientSupport";

describe("AdminClient behind HTTPS with a private CA", function () {
    const emulator = useAdminEmulator();
    const workDir = useWorkDir();
    const stack = new AdminStack(emulator, workDir);
    let tls: TlsMaterial;
    let issuer: HttpsFront;
    let admin: HttpsFront;

    before(async () => {
        tls = makeTlsMaterial();
        const server = { certificate: tls.serverCertificate, key: tls.serverKey };
        issuer = new HttpsFront({ target: new URL(emulator().authUrl).origin, ...server });
        admin = new HttpsFront({ target: emulator().baseUrl, ...server });
        await Promise.all([issuer.start(), admin.start()]);
    });
    after(async () => {
        await Promise.all([issuer?.stop(), admin?.stop()]);
        tls?.remove();
    });

    const settings = () => ({
        config: {
            "platform:clientId": CLIENT.clientId,
            "platform:oauthUrl": `${issuer.url}${new URL(emulator().authUrl).pathname}`,
            "platform:baseUrl": `${admin.url}${new URL(emulator().baseUrl).pathname}`,
            "platform:audience": CLIENT.audience,
        },
        secrets: { "platform:clientSecret": CLIENT.clientSecret },
    });

    it("without the CA, up fails naming the untrusted certificate; with it as the tls input, up and refresh list the members", async () => {
        const { config, secrets } = settings();
        const untrusted = await stack.run("up", { config, secrets });
        assert.equal(untrusted.result.exitCode, 1);
        assert.match(untrusted.result.stderr, /the server's certificate is not trusted; give its CA as tls\.caCertificate/);

        const withCa = { ...secrets, tls: JSON.stringify({ caCertificate: tls.caCertificate }) };
        const up = await stack.run("up", { config, secrets: withCa });
        succeeded(up);
        assert.equal(up.memberRequests.length, 1);
        assert.ok(issuer.forwarded >= 1 && admin.forwarded >= 1);
        const resource = Object.values(up.result.state.resources).find((entry) => entry.type.endsWith(":AdminClient"))!;
        assert.ok(isSecret(resource.outputs.tls), "the tls output is not a secret");

        const refresh = await stack.run("refresh", { config, secrets: withCa });
        succeeded(refresh);
        // Listed in the refresh's preview pass and in the refresh.
        assert.equal(refresh.memberRequests.length, 2);
        stack.assertNoLeaks(refresh);
    });
});
