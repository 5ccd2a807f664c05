// The object inputs (auth, tls, kubernetes), each checked by its zod schema: the failures name the field and the
// rule, never the value; values not known yet pass.
import * as assert from "assert";
import { checkAuth } from "../../provider/clusterScale/authInput";
import { checkKubernetesRoute } from "../../provider/shared/kubernetesRouteInput";
import { checkTls } from "../../provider/shared/tlsInput";
import { UNKNOWN } from "../../provider/shared/unknowns";

type Checker = (value: unknown, fail: (property: string, reason: string) => void) => unknown;

function failures(check: Checker, value: unknown): [string, string][] {
    const found: [string, string][] = [];
    check(value, (property, reason) => found.push([property, reason]));
    return found;
}

const PEM = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";

describe("object inputs", () => {
    it("auth: headers, or a grant; each problem names its field, and no value is repeated", () => {
        assert.deepStrictEqual(
            checkAuth({ headers: { Authorization: "Bearer s3cret" } }, () => assert.fail()),
            { headers: { Authorization: "Bearer s3cret" } },
        );
        assert.deepStrictEqual(
            checkAuth({ clientId: "c", clientSecret: "s3cret", oauthUrl: "http://127.0.0.1:1/token", audience: "" }, () => assert.fail()),
            {
                clientId: "c",
                clientSecret: "s3cret",
                oauthUrl: "http://127.0.0.1:1/token",
            },
        );
        assert.deepStrictEqual(failures(checkAuth, "s3cret"), [["auth", "auth must be an object with headers, or clientId, clientSecret and oauthUrl"]]);
        assert.deepStrictEqual(failures(checkAuth, { headers: { a: "b" }, clientId: "c" }), [
            ["auth", "auth takes either headers or a client-credentials grant (clientId, clientSecret, oauthUrl), not both"],
        ]);
        assert.deepStrictEqual(failures(checkAuth, { headers: { "bad name": "s3cret" } }), [
            ["auth.headers", 'auth.headers has an invalid header name "bad name"'],
        ]);
        assert.deepStrictEqual(failures(checkAuth, { headers: { a: 1 } }), [["auth.headers", "auth.headers must map header names to string values"]]);
        assert.deepStrictEqual(failures(checkAuth, { clientId: "c", oauthUrl: "http://user:s3cret@host/token" }), [
            ["auth.clientSecret", "auth.clientSecret is required (a non-empty string) for a client-credentials grant"],
            ["auth.oauthUrl", "auth.oauthUrl must be an absolute http(s) URL of the token endpoint, without credentials"],
        ]);
        assert.deepStrictEqual(failures(checkAuth, { clientId: UNKNOWN, clientSecret: "s", oauthUrl: "http://h/t" }), []);
    });

    it("tls: PEM text, a client certificate with its key", () => {
        assert.deepStrictEqual(
            checkTls({ caCertificate: PEM }, () => assert.fail()),
            { caCertificate: PEM },
        );
        assert.deepStrictEqual(failures(checkTls, { caCertificate: "not pem" }), [
            ["tls.caCertificate", "tls.caCertificate must be PEM text (-----BEGIN …-----)"],
        ]);
        assert.deepStrictEqual(failures(checkTls, { clientCertificate: PEM }), [
            ["tls", "tls.clientCertificate and tls.clientKey go together: give both or neither"],
        ]);
        assert.deepStrictEqual(failures(checkTls, { caCertificate: PEM, extra: 1 }), [
            ["tls", "tls has unknown field(s) extra: use caCertificate, clientCertificate, clientKey"],
        ]);
        assert.deepStrictEqual(failures(checkTls, UNKNOWN), []);
    });

    it("kubernetes: names, ports and non-empty texts", () => {
        assert.deepStrictEqual(
            checkKubernetesRoute({ namespace: "camunda", service: "gw", managementPort: 9600, kubeconfig: "apiVersion: v1" }, () => assert.fail()),
            {
                namespace: "camunda",
                service: "gw",
                managementPort: 9600,
                kubeconfig: "apiVersion: v1",
            },
        );
        assert.deepStrictEqual(failures(checkKubernetesRoute, { namespace: "Camunda", service: "gw", gatewayPort: 70_000, context: " " }), [
            ["kubernetes.namespace", "kubernetes.namespace must be a Kubernetes name: lower-case letters, digits and '-', at most 63 characters"],
            ["kubernetes.gatewayPort", "kubernetes.gatewayPort must be a port number from 1 to 65535"],
            ["kubernetes.context", "kubernetes.context must be a non-empty string"],
        ]);
        assert.deepStrictEqual(failures(checkKubernetesRoute, { namespace: "camunda", service: UNKNOWN }), []);
    });

    it("kubernetes: the brokers' StatefulSet and what happens to removed brokers' volumes", () => {
        assert.deepStrictEqual(
            checkKubernetesRoute({ namespace: "camunda", service: "gw", statefulSet: "platform-zeebe", volumesOfRemovedBrokers: "delete" }, () =>
                assert.fail(),
            ),
            { namespace: "camunda", service: "gw", statefulSet: "platform-zeebe", volumesOfRemovedBrokers: "delete" },
        );
        assert.deepStrictEqual(
            failures(checkKubernetesRoute, { namespace: "camunda", service: "gw", statefulSet: "Zeebe_Brokers", volumesOfRemovedBrokers: "wipe" }),
            [
                ["kubernetes.statefulSet", "kubernetes.statefulSet must be a Kubernetes name: lower-case letters, digits and '-', at most 63 characters"],
                ["kubernetes.volumesOfRemovedBrokers", 'kubernetes.volumesOfRemovedBrokers must be "retain" or "delete"'],
            ],
        );
        assert.deepStrictEqual(failures(checkKubernetesRoute, { namespace: "camunda", service: "gw", volumesOfRemovedBrokers: "delete" }), [
            ["kubernetes", "kubernetes.volumesOfRemovedBrokers needs kubernetes.statefulSet: the claims are the StatefulSet's"],
        ]);
    });
});
