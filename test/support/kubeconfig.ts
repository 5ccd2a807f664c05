// The Kubernetes side of a test: the API server stand-in in front of the emulator, with its users (a token user with
// the verbs ClusterScale needs, a viewer that may only read, and a certificate user), and kubeconfigs for it.
import { KubeApiServer } from "../emulator/kubeApiServer";
import type { TlsMaterial } from "./tlsMaterial";

/** The users of the stand-in: tokens and the client certificate's CN (tlsMaterial's client certificate). */
export const KUBE_USERS = { token: "k8s-token-5d1f0c9e7a", viewerToken: "viewer-token-42", certificateName: "platform-ci" };

/** The stand-in for service `platform-gateway` in namespace `camunda`: port 9600 → management, 8080 → gateway. */
export function apiServerStandIn(tls: TlsMaterial, managementUrl: string, gatewayUrl: string): KubeApiServer {
    const writer = { verbs: ["get", "create", "patch"] as ("get" | "create" | "patch")[] };
    return new KubeApiServer({
        namespace: "camunda",
        service: "platform-gateway",
        ports: { 9600: managementUrl, 8080: gatewayUrl },
        certificate: tls.serverCertificate,
        key: tls.serverKey,
        ca: tls.caCertificate,
        tokens: { [KUBE_USERS.token]: { name: "ci", ...writer }, [KUBE_USERS.viewerToken]: { name: "viewer", verbs: ["get"] } },
        certificateUsers: { [KUBE_USERS.certificateName]: { name: KUBE_USERS.certificateName, ...writer } },
    });
}
export interface KubeconfigUser {
    token?: string;
    clientCertificate?: string;
    clientKey?: string;
}

export function kubeconfigYaml(server: string, caCertificate: string, user: KubeconfigUser, context = "test"): string {
    const base64 = (text: string) => Buffer.from(text).toString("base64");
    const credentials =
        user.token !== undefined
            ? `    token: ${user.token}`
            : `    client-certificate-data: ${base64(user.clientCertificate ?? "")}\n    client-key-data: ${base64(user.clientKey ?? "")}`;
    return [
        "apiVersion: v1",
        "kind: Config",
        "clusters:",
        "- name: test-cluster",
        "  cluster:",
        `    server: ${server}`,
        `    certificate-authority-data: ${base64(caCertificate)}`,
        "users:",
        "- name: test-user",
        "  user:",
        credentials,
        "contexts:",
        `- name: ${context}`,
        "  context:",
        "    cluster: test-cluster",
        "    user: test-user",
        `current-context: ${context}`,
        "",
    ].join("\n");
}
