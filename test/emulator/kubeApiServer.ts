// A stand-in for the Kubernetes API server's service proxy, in front of the emulator's management and gateway
// interfaces: `{server}/api/v1/namespaces/{namespace}/services/{service}:{port}/proxy/{path}` over HTTPS with a
// certificate of its own CA. Users authenticate with a bearer token or a client certificate (its CN is the user);
// RBAC on `services/proxy` maps the method to a verb. The API server's own refusals are JSON Status objects, as the
// real one answers them; the Authorization header never reaches the backend. With `workloads`, it also serves the
// brokers' StatefulSet, its pods and claims (workloadApi.ts).
import * as http from "http";
import * as https from "https";
import type { AddressInfo } from "net";
import type { TLSSocket } from "tls";
import type { BrokerWorkloads } from "./brokerWorkloads";
import { ResourceRules, WorkloadApi, status } from "./workloadApi";

export type ProxyVerb = "get" | "create" | "update" | "patch" | "delete";

export interface KubeUser {
    name: string;
    /** Verbs this user may use on services/proxy in the namespace. */
    verbs: ProxyVerb[];
    /** Verbs on the workload resources (`statefulsets/scale`: ["get", "patch"], `pods`: ["list", "watch"], ...). */
    rules?: ResourceRules;
}

export interface KubeApiServerOptions {
    namespace: string;
    service: string;
    /** Service port → the backend origin it reaches (e.g. 9600 → the management interface). */
    ports: Record<number, string>;
    /** Server certificate and key (PEM), signed by `ca`, which also signs client certificates. */
    certificate: string;
    key: string;
    ca: string;
    /** Bearer tokens → users. */
    tokens: Record<string, KubeUser>;
    /** Client certificate CNs → users. */
    certificateUsers: Record<string, KubeUser>;
    /** The brokers' StatefulSet, its pods and claims (see brokerWorkloads.ts); without it only the proxy is served. */
    workloads?: BrokerWorkloads;
}

const VERBS: Record<string, ProxyVerb> = { GET: "get", HEAD: "get", POST: "create", PUT: "update", PATCH: "patch", DELETE: "delete" };

export class KubeApiServer {
    private server: https.Server | undefined;
    /** When false, the service has no ready endpoints (the brokers are not running). */
    endpointsReady = true;
    /** Requests that reached a backend, as `METHOD path` of the backend. */
    readonly proxied: string[] = [];

    /** The workload resources' API, with its faults (undefined without workloads). */
    readonly workloadApi: WorkloadApi | undefined;

    constructor(private readonly options: KubeApiServerOptions) {
        this.workloadApi = options.workloads && new WorkloadApi(options.workloads);
    }

    get url(): string {
        return `https://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
    }

    async start(): Promise<void> {
        const { certificate, key, ca } = this.options;
        this.server = https.createServer({ cert: certificate, key, ca, requestCert: true, rejectUnauthorized: false }, (request, response) =>
            this.handle(request, response),
        );
        await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    }

    async stop(): Promise<void> {
        this.server?.closeAllConnections();
        await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    }

    private handle(request: http.IncomingMessage, response: http.ServerResponse): void {
        const user = this.authenticate(request);
        if (user === undefined) return status(response, 401, "Unauthorized", "Unauthorized");
        const url = new URL(request.url ?? "/", "https://api-server");
        const route = /^\/api\/v1\/namespaces\/([^/]+)\/services\/([^/]+)\/proxy(\/.*)?$/.exec(url.pathname);
        if (route === null) return this.workload(request, response, url, user);
        const [, namespace, serviceSpec, rest] = route;
        const [serviceName, portText] = decodeURIComponent(serviceSpec)
            .replace(/^https?:/, "")
            .split(":");
        const verb = VERBS[request.method ?? "GET"] ?? "get";
        if (namespace !== this.options.namespace || !user.verbs.includes(verb)) {
            const message = `services "${serviceName}" is forbidden: User "${user.name}" cannot ${verb} resource "services/proxy" in API group "" in the namespace "${namespace}"`;
            return status(response, 403, "Forbidden", message, { name: serviceName, kind: "services" });
        }
        // A real API server takes `dryRun` as its own on every request, and refuses it on a proxy (ConnectResource),
        // whatever the backend would have done with it (seen with kube-apiserver 1.36, test/kubernetes/).
        if (url.searchParams.has("dryRun")) return status(response, 400, "BadRequest", "dryRun is not supported");
        if (serviceName !== this.options.service) {
            return status(response, 404, "NotFound", `services "${serviceName}" not found`, { name: serviceName, kind: "services" });
        }
        const backend = portText === undefined ? undefined : this.options.ports[Number(portText)];
        if (backend === undefined) {
            return status(response, 404, "NotFound", `services "${serviceName}" does not have a port ${portText ?? "(none given)"}`, {
                name: serviceName,
                kind: "services",
            });
        }
        if (!this.endpointsReady) return status(response, 503, "ServiceUnavailable", `no endpoints available for service "${serviceName}"`);
        this.forward(request, response, new URL(`${rest ?? "/"}${url.search}`, backend));
    }

    private workload(request: http.IncomingMessage, response: http.ServerResponse, url: URL, user: KubeUser): void {
        const chunks: Buffer[] = [];
        request.on("data", (chunk: Buffer) => chunks.push(chunk));
        request.on("end", () => {
            if (this.workloadApi?.handle(request, response, url, user, Buffer.concat(chunks))) return;
            status(response, 404, "NotFound", "the server could not find the requested resource");
        });
    }

    private authenticate(request: http.IncomingMessage): KubeUser | undefined {
        const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
        if (bearer !== undefined) return this.options.tokens[bearer];
        const socket = request.socket as TLSSocket;
        if (!socket.authorized) return undefined;
        const commonName = socket.getPeerCertificate()?.subject?.CN;
        return typeof commonName === "string" ? this.options.certificateUsers[commonName] : undefined;
    }

    private forward(request: http.IncomingMessage, response: http.ServerResponse, target: URL): void {
        // The API server consumes the caller's credentials: the backend never sees them.
        const { authorization: _credentials, ...headers } = request.headers;
        this.proxied.push(`${request.method} ${target.pathname}${target.search}`);
        const upstream = http.request(target, { method: request.method, headers: { ...headers, host: target.host } }, (answer) => {
            response.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(response);
        });
        upstream.on("error", (error) => {
            response.writeHead(503, { "content-type": "text/plain" });
            response.end(`error trying to reach service: ${error.message}`);
        });
        request.pipe(upstream);
    }
}
