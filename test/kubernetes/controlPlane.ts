// A real Kubernetes control plane for a test: etcd, kube-apiserver and kube-controller-manager of the pinned release
// (built by `npm run tools:kubernetes`), on free loopback ports, with RBAC on, an admin client certificate (group
// system:masters), ServiceAccount tokens from the TokenRequest API, and the controllers the StatefulSet story needs
// (statefulset, garbage collector, PVC protection, endpoints, endpointslices, service accounts, namespaces). Pods get
// addresses of a /24 of their own, routed to this machine (a `local` route on lo: the API server refuses to proxy to
// loopback addresses, and Endpoints refuse them), so the API server's service proxy reaches what listens there. Its
// certificates are made with openssl. Everything it started ends with stop().
import { ChildProcess, execFileSync, spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { toolDir } from "../tools/toolsDir";
import { KUBERNETES_VERSION } from "../tools/kubernetes";
import { unusedPort } from "../support/ports";
import { makeCertificateAuthority } from "../support/tlsMaterial";
import { KubeClient } from "./kubeClient";

export interface ControlPlane {
    server: string;
    caCertificate: string;
    admin: KubeClient;
    /** The first three octets of the pods' addresses (`10.244.N`). */
    podNetwork: string;
    /** A kubeconfig file of the admin (client certificate): what `helm` runs with. */
    adminKubeconfigFile: string;
    /** A folder of this plane's own, removed with it. */
    workDir: string;
    /** A kubeconfig (YAML, everything inline) that presents `token`. */
    kubeconfigFor(token: string, user?: string): string;
    /** A token of the ServiceAccount, from the TokenRequest API. */
    serviceAccountToken(namespace: string, name: string): Promise<string>;
    /** What the API server and the controllers printed, for a failure's message. */
    logs(): string;
    stop(): Promise<void>;
}

const CONTROLLERS = [
    "statefulset-controller",
    "garbage-collector-controller",
    "endpoints-controller",
    "endpointslice-controller",
    "serviceaccount-controller",
    "persistentvolumeclaim-protection-controller",
    "namespace-controller",
    "resourcequota-controller",
];

/** The folder of the built programs; fails naming the command that builds them. */
export function kubernetesBin(): string {
    const bin = path.join(toolDir("kubernetes", `v${KUBERNETES_VERSION}`), "bin");
    for (const program of ["etcd", "kube-apiserver", "kube-controller-manager"]) {
        if (!fs.existsSync(path.join(bin, program))) throw new Error(`no ${program} in ${bin}: run \`npm run tools:kubernetes\` (needs Go)`);
    }
    return bin;
}

/**
 * Starts etcd, the API server and the controller manager. Their ports are picked free a moment before they bind them,
 * so another process of a parallel suite may take one in between (seen in CI: "bind: address already in use"): such
 * a start is made again on other ports, at most three times.
 */
export async function startControlPlane(): Promise<ControlPlane> {
    for (let attempt = 1; ; attempt++) {
        try {
            return await startControlPlaneOnce();
        } catch (error) {
            if (attempt >= 3 || !/address already in use/.test(error instanceof Error ? error.message : String(error))) throw error;
        }
    }
}

async function startControlPlaneOnce(): Promise<ControlPlane> {
    const bin = kubernetesBin();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "platform-k8s-"));
    const file = (name: string) => path.join(dir, name);
    const processes: ChildProcess[] = [];
    let podNetwork = "";
    let routed = false;
    const stop = async () => {
        for (const child of processes.reverse()) child.kill("SIGKILL");
        await Promise.all(
            processes.map((child) =>
                child.exitCode !== null || child.signalCode !== null ? undefined : new Promise((resolve) => child.once("exit", resolve)),
            ),
        );
        if (routed) execFileSync("ip", ["route", "del", "local", `${podNetwork}.0/24`, "dev", "lo"], { stdio: "ignore" });
        fs.rmSync(dir, { recursive: true, force: true });
    };
    try {
        makeCertificates(dir);
        podNetwork = routePodNetwork();
        routed = true;
        const [etcdClient, etcdPeer, apiPort] = [await unusedPort(), await unusedPort(), await unusedPort()];
        const start = (program: string, args: string[]) => {
            const log = fs.openSync(file(`${program}.log`), "w");
            const child = spawn(path.join(bin, program), args, { cwd: dir, stdio: ["ignore", log, log] });
            fs.closeSync(log);
            processes.push(child);
            return child;
        };
        start("etcd", [
            "--data-dir",
            file("etcd"),
            "--listen-client-urls",
            `http://127.0.0.1:${etcdClient}`,
            "--advertise-client-urls",
            `http://127.0.0.1:${etcdClient}`,
            "--listen-peer-urls",
            `http://127.0.0.1:${etcdPeer}`,
            "--initial-advertise-peer-urls",
            `http://127.0.0.1:${etcdPeer}`,
            "--initial-cluster",
            `default=http://127.0.0.1:${etcdPeer}`,
            "--unsafe-no-fsync",
            "--log-level",
            "warn",
        ]);
        start("kube-apiserver", [
            `--etcd-servers=http://127.0.0.1:${etcdClient}`,
            `--secure-port=${apiPort}`,
            "--bind-address=127.0.0.1",
            `--tls-cert-file=${file("apiserver.crt")}`,
            `--tls-private-key-file=${file("apiserver.key")}`,
            `--client-ca-file=${file("ca.crt")}`,
            "--authorization-mode=RBAC",
            "--service-cluster-ip-range=10.0.0.0/24",
            "--service-account-issuer=https://kubernetes.default.svc",
            `--service-account-key-file=${file("sa.pub")}`,
            `--service-account-signing-key-file=${file("sa.key")}`,
            // No address of its own to publish: the kubernetes Service's endpoints are left alone.
            "--advertise-address=10.0.0.1",
            "--endpoint-reconciler-type=none",
            "--enable-priority-and-fairness=false",
            "--profiling=false",
        ]);
        const server = `https://127.0.0.1:${apiPort}`;
        const caCertificate = fs.readFileSync(file("ca.crt"), "utf8");
        const admin = new KubeClient(server, {
            ca: caCertificate,
            cert: fs.readFileSync(file("admin.crt"), "utf8"),
            key: fs.readFileSync(file("admin.key"), "utf8"),
        });
        // etcd or the API server gone (a port taken meanwhile): said at once, with both logs.
        const exited = () => processes.some((child) => child.exitCode !== null || child.signalCode !== null);
        await until(
            async () => {
                if (exited())
                    throw new ExitedEarly(`etcd:\n${readLog(dir, "etcd").slice(-1500)}\nkube-apiserver:\n${readLog(dir, "kube-apiserver").slice(-1500)}`);
                return (await admin.get("/readyz").catch(() => ({ status: 0 }))).status === 200;
            },
            30_000,
            "the API server to be ready",
            () => readLog(dir, "kube-apiserver"),
        );
        fs.writeFileSync(file("admin.kubeconfig"), adminKubeconfig(server, dir), { mode: 0o600 });
        start("kube-controller-manager", [
            `--kubeconfig=${file("admin.kubeconfig")}`,
            "--leader-elect=false",
            "--secure-port=0",
            `--controllers=${CONTROLLERS.join(",")}`,
            "--concurrent-statefulset-syncs=5",
        ]);
        await until(
            async () => (await admin.get("/api/v1/namespaces/default/serviceaccounts/default")).status === 200,
            30_000,
            "the controllers to start",
            () => readLog(dir, "kube-controller-manager"),
        );
        return {
            server,
            caCertificate,
            admin,
            podNetwork,
            adminKubeconfigFile: file("admin.kubeconfig"),
            workDir: dir,
            kubeconfigFor: (token, user = "pipeline") => tokenKubeconfig(server, caCertificate, token, user),
            serviceAccountToken: async (namespace, name) => {
                const answer = await admin.must("POST", `/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`, {
                    apiVersion: "authentication.k8s.io/v1",
                    kind: "TokenRequest",
                    spec: { expirationSeconds: 3600 },
                });
                return (answer.status as { token: string }).token;
            },
            logs: () =>
                ["kube-apiserver", "kube-controller-manager", "etcd"].map((program) => `--- ${program}\n${readLog(dir, program).slice(-3000)}`).join("\n"),
            stop: async () => {
                admin.close();
                await stop();
            },
        };
    } catch (error) {
        await stop();
        throw error;
    }
}

/** Routes a /24 no other control plane on this machine holds (suites run in parallel; a killed run leaves its route). */
function routePodNetwork(): string {
    for (let attempt = 0; ; attempt++) {
        const network = `10.244.${10 + Math.floor(Math.random() * 240)}`;
        try {
            execFileSync("ip", ["route", "add", "local", `${network}.0/24`, "dev", "lo"], { stdio: "pipe" });
            return network;
        } catch (error) {
            if (attempt >= 20 || !String((error as { stderr?: Buffer }).stderr).includes("File exists")) throw error;
        }
    }
}

function makeCertificates(dir: string): void {
    const { sign } = makeCertificateAuthority(dir, "pulumi-platform test cluster CA");
    sign("apiserver", "/CN=kube-apiserver", "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n");
    sign("admin", "/O=system:masters/CN=test-admin", "extendedKeyUsage=clientAuth\n");
    const openssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
    openssl("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "sa.key");
    openssl("ec", "-in", "sa.key", "-pubout", "-out", "sa.pub");
}

function adminKubeconfig(server: string, dir: string): string {
    return [
        "apiVersion: v1",
        "kind: Config",
        `clusters: [{ name: test, cluster: { server: "${server}", certificate-authority: "${path.join(dir, "ca.crt")}" } }]`,
        `users: [{ name: admin, user: { client-certificate: "${path.join(dir, "admin.crt")}", client-key: "${path.join(dir, "admin.key")}" } }]`,
        "contexts: [{ name: test, context: { cluster: test, user: admin } }]",
        "current-context: test",
        "",
    ].join("\n");
}

export function tokenKubeconfig(server: string, ca: string, token: string, user: string): string {
    return [
        "apiVersion: v1",
        "kind: Config",
        `clusters: [{ name: test, cluster: { server: "${server}", certificate-authority-data: "${Buffer.from(ca).toString("base64")}" } }]`,
        `users: [{ name: ${user}, user: { token: "${token}" } }]`,
        `contexts: [{ name: test, context: { cluster: test, user: ${user} } }]`,
        "current-context: test",
        "",
    ].join("\n");
}

function readLog(dir: string, program: string): string {
    const file = path.join(dir, `${program}.log`);
    return fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
}

/** A process of the control plane ended while it was being waited for. */
class ExitedEarly extends Error {}

async function until(condition: () => Promise<boolean>, timeoutMs: number, what: string, log: () => string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
        const met = await condition().catch((error: unknown) => {
            if (error instanceof ExitedEarly) throw new Error(`a process ended before ${what}:\n${error.message}`);
            return false;
        });
        if (met) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`timed out waiting for ${what}:\n${log().slice(-3000)}`);
}
