// Kubeconfigs made for a test: one cluster (the API server stand-in, trusted through its CA) and one user, with a
// bearer token or a client certificate, as YAML text.
export interface KubeconfigUser {
    token?: string;
    clientCertificate?: string;
    clientKey?: string;
}

export function kubeconfigYaml(server: string, caCertificate: string, user: KubeconfigUser, context = "test"): string {
    const base64 = (text: string) => Buffer.from(text).toString("base64");
    const credentials = user.token !== undefined
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
