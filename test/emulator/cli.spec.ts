// The command-line entry point: one JSON line with the five URLs, every interface served, the
// flags honoured, and a clean exit on SIGTERM.

import { strict as assert } from "node:assert";
import { ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { request as httpsRequest } from "node:https";
import { createServer } from "node:net";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { http } from "./harness";
import { TYPESCRIPT_REQUIRE } from "../support/typescriptRequire";

const REPO_ROOT = join(__dirname, "..", "..");

interface Started {
    child: ChildProcessWithoutNullStreams;
    urls: Record<string, string>;
}

function startCli(args: string[]): Promise<Started> {
    const child = spawn(process.execPath, [...TYPESCRIPT_REQUIRE, join(__dirname, "cli.ts"), ...args], {
        cwd: REPO_ROOT,
        stdio: "pipe",
    });
    return new Promise((resolve, reject) => {
        let stderr = "";
        child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
        child.once("exit", (code) => reject(new Error(`emulator exited with ${code}: ${stderr}`)));
        createInterface({ input: child.stdout }).once("line", (line) => {
            try {
                resolve({ child, urls: JSON.parse(line) as Record<string, string> });
            } catch (error) {
                child.kill();
                reject(error);
            }
        });
    });
}

function stop(child: ChildProcessWithoutNullStreams, signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> {
    if (child.exitCode !== null) return Promise.resolve(child.exitCode);
    return new Promise((resolve) => {
        child.once("exit", (code) => resolve(code));
        child.kill(signal);
    });
}

/** A base port with the four ports after it free too (checked by binding them). */
async function freePortRange(size: number): Promise<number> {
    const bind = (port: number): Promise<ReturnType<typeof createServer> | undefined> =>
        new Promise((resolve) => {
            const server = createServer();
            server.once("error", () => resolve(undefined));
            server.listen(port, "127.0.0.1", () => resolve(server));
        });
    for (let attempt = 0; attempt < 20; attempt++) {
        const probe = await bind(0);
        const address = probe?.address();
        await new Promise((resolve) => probe?.close(resolve));
        if (!address || typeof address !== "object" || address.port + size > 65535) continue;
        const servers = await Promise.all(Array.from({ length: size }, (_, i) => bind(address.port + i)));
        await Promise.all(servers.map((s) => new Promise((resolve) => (s ? s.close(resolve) : resolve(undefined)))));
        if (servers.every(Boolean)) return address.port;
    }
    throw new Error("no free port range");
}

describe("emulator: command line", () => {
    const children: ChildProcessWithoutNullStreams[] = [];
    after(async () => {
        await Promise.all(children.map((child) => stop(child, "SIGKILL")));
    });

    it("prints the five URLs, serves every interface with the given layout, and exits on SIGTERM", async () => {
        const { child, urls } = await startCli(["--brokers", "4", "--partitions", "4", "--replication-factor", "2", "--partition-scaling", "--op-ms", "5"]);
        children.push(child);
        assert.deepEqual(Object.keys(urls), ["authUrl", "baseUrl", "managementUrl", "gatewayUrl", "controlUrl"]);
        for (const url of Object.values(urls)) assert.match(url, /^http:\/\/127\.0\.0\.1:\d+/);
        assert.match(urls.managementUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
        assert.match(urls.gatewayUrl, /^http:\/\/127\.0\.0\.1:\d+$/);

        const token = await http("POST", urls.authUrl, {
            rawBody: "grant_type=client_credentials&client_id=demo-client&client_secret=demo-secret&audience=127.0.0.1",
            headers: { "content-type": "application/x-www-form-urlencoded" },
        });
        assert.equal(token.status, 200);
        const members = await http("GET", `${urls.baseUrl}/members`, { headers: { authorization: `Bearer ${token.json.access_token}` } });
        assert.equal(members.status, 200);
        const cluster = await http("GET", `${urls.managementUrl}/actuator/cluster`);
        assert.equal(cluster.json.version, 1);
        assert.equal(cluster.json.brokers.length, 4);
        const topology = await http("GET", `${urls.gatewayUrl}/v2/topology`);
        assert.equal(topology.json.partitionsCount, 4);
        assert.equal(topology.json.replicationFactor, 2);
        const scaling = await http("PATCH", `${urls.managementUrl}/actuator/cluster?dryRun=true`, { body: { partitions: { count: 5 } } });
        assert.equal(scaling.status, 202, "--partition-scaling switches partition scaling on");
        const state = await http("GET", `${urls.controlUrl}/state`);
        assert.equal(state.json.settings.opMs, 5);

        assert.equal(await stop(child), 0);
    });

    it("uses consecutive ports from --port for auth, admin, management, gateway and control", async () => {
        const base = await freePortRange(5);
        const { child, urls } = await startCli(["--port", String(base)]);
        children.push(child);
        const ports = [urls.authUrl, urls.baseUrl, urls.managementUrl, urls.gatewayUrl, urls.controlUrl].map((u) => Number(new URL(u).port));
        assert.deepEqual(ports, [base, base + 1, base + 2, base + 3, base + 4]);
        assert.equal(new URL(urls.authUrl).pathname, "/oauth/token");
        const cluster = await http("GET", `${urls.managementUrl}/actuator/cluster`);
        assert.equal(cluster.json.brokers.length, 3, "three brokers by default");
        assert.equal(await stop(child, "SIGINT"), 0);
    });

    it("with --kubernetes: an API server stand-in whose StatefulSet runs the brokers as pods, and a kubeconfig (0600) that reaches the management API and the scale, removed on exit", async () => {
        const { child, urls } = await startCli(["--kubernetes", "--brokers", "2", "--replication-factor", "2"]);
        children.push(child);
        // The ClusterScale input: the StatefulSet through the API server (the management API at managementUrl).
        const route = urls.kubernetes as unknown as { namespace: string; statefulSet: string; kubeconfig: string };
        assert.deepEqual([route.namespace, route.statefulSet], ["camunda", "platform-zeebe"]);
        assert.equal(statSync(route.kubeconfig).mode & 0o777, 0o600);
        const kubeconfig = readFileSync(route.kubeconfig, "utf8");
        const field = (name: string) => new RegExp(`${name}: (\\S+)`).exec(kubeconfig)![1];
        const ca = Buffer.from(field("certificate-authority-data"), "base64").toString();
        const get = (path: string) =>
            new Promise<{ status: number; body: string }>((resolve, reject) => {
                const request = httpsRequest(new URL(path, field("server")), { ca, headers: { authorization: `Bearer ${field("token")}` } }, (response) => {
                    let body = "";
                    response.on("data", (chunk: Buffer) => (body += chunk.toString()));
                    response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
                });
                request.on("error", reject);
                request.end();
            });
        // Reads go through the service proxy of platform-gateway too.
        const cluster = await get(`/api/v1/namespaces/${route.namespace}/services/platform-gateway:9600/proxy/actuator/cluster`);
        assert.equal(cluster.status, 200, cluster.body);
        assert.equal((JSON.parse(cluster.body) as { version: number }).version, 1);
        const scale = await get(`/apis/apps/v1/namespaces/${route.namespace}/statefulsets/${route.statefulSet}/scale`);
        assert.equal(scale.status, 200, scale.body);
        assert.equal((JSON.parse(scale.body) as { spec: { replicas: number } }).spec.replicas, 2, "one pod per broker");
        const pods = await get(`/api/v1/namespaces/${route.namespace}/pods`);
        const names = (JSON.parse(pods.body) as { items: { metadata: { name: string } }[] }).items.map((pod) => pod.metadata.name);
        assert.deepEqual(names.sort(), ["platform-zeebe-0", "platform-zeebe-1"]);
        assert.equal(await stop(child), 0);
        assert.ok(!existsSync(route.kubeconfig), "the kubeconfig is removed on exit");
    });

    it("refuses unknown arguments with a usage message", async () => {
        const child = spawn(process.execPath, [...TYPESCRIPT_REQUIRE, join(__dirname, "cli.ts"), "--brokers", "x"], {
            cwd: REPO_ROOT,
        });
        let stderr = "";
        child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
        const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
        assert.equal(code, 2);
        assert.match(stderr, /usage: npm run emulator/);
    });
});
