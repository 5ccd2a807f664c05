// Another client that writes the StatefulSet's count at a chosen moment of ClusterScale's up: an HTTPS front of the
// real API server (a CA of the test's own, the caller's token passed through). Armed one way, it holds back the answer
// of the next read of /scale until the other write is done: ClusterScale's write then names a stale resourceVersion and
// meets the API server's own 409 Conflict. Armed the other way, it makes the other write right before a chosen request
// reaches the API server: ClusterScale's look at that moment reads what the other client wrote.
import * as http from "http";
import * as https from "https";
import type { AddressInfo } from "net";
import { makeTlsMaterial, type TlsMaterial } from "../support/tlsMaterial";
import { type ControlPlane, tokenKubeconfig } from "./controlPlane";

export class ScaleInterloper {
    private server: https.Server | undefined;
    private readonly tls: TlsMaterial = makeTlsMaterial();
    private readonly upstream: https.Agent;
    private armed: (() => Promise<void>) | undefined;
    private before: { matches: (request: SeenRequest) => boolean; write: () => Promise<void> } | undefined;
    /** Statuses of the scale writes that went through, in order. */
    readonly scaleWrites: number[] = [];

    constructor(private readonly plane: ControlPlane) {
        this.upstream = new https.Agent({ ca: plane.caCertificate, keepAlive: true });
    }

    async start(): Promise<void> {
        this.server = https.createServer({ cert: this.tls.serverCertificate, key: this.tls.serverKey }, (request, response) => this.forward(request, response));
        await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    }

    /** A kubeconfig that reaches the API server through this front with the token. */
    kubeconfigFor(token: string): string {
        const url = `https://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
        return tokenKubeconfig(url, this.tls.caCertificate, token, "pipeline");
    }

    /** The next read of /scale is answered only after `write` (the other client's) is done. */
    beforeNextScaleAnswer(write: () => Promise<void>): void {
        this.armed = write;
    }

    /** The next request that `matches` (given the scale writes so far) reaches the API server only after `write` is done. */
    beforeNextRequest(matches: (request: SeenRequest) => boolean, write: () => Promise<void>): void {
        this.before = { matches, write };
    }

    async stop(): Promise<void> {
        this.server?.closeAllConnections();
        await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
        this.upstream.destroy();
        this.tls.remove();
    }

    private forward(request: http.IncomingMessage, response: http.ServerResponse): void {
        const target = new URL(request.url ?? "/", this.plane.server);
        const before = this.before;
        if (before?.matches({ method: request.method ?? "GET", path: target.pathname, scaleWrites: this.scaleWrites })) {
            this.before = undefined;
            before.write().then(
                () => this.send(request, response, target),
                (error: Error) => {
                    response.writeHead(500);
                    response.end(`the other client's write failed: ${error.message}`);
                },
            );
            return;
        }
        this.send(request, response, target);
    }

    private send(request: http.IncomingMessage, response: http.ServerResponse, target: URL): void {
        const scale = /\/statefulsets\/[^/]+\/scale$/.test(target.pathname);
        const upstream = https.request(
            target,
            { method: request.method, headers: { ...request.headers, host: target.host }, agent: this.upstream },
            (answer) => {
                const pass = () => {
                    if (scale && request.method === "PUT") this.scaleWrites.push(answer.statusCode ?? 0);
                    response.writeHead(answer.statusCode ?? 502, answer.headers);
                    answer.pipe(response);
                };
                const write = scale && request.method === "GET" ? this.armed : undefined;
                if (write === undefined) return pass();
                this.armed = undefined;
                write().then(pass, (error: Error) => {
                    response.writeHead(500);
                    response.end(`the other client's write failed: ${error.message}`);
                });
            },
        );
        upstream.on("error", () => {
            response.writeHead(502);
            response.end();
        });
        request.pipe(upstream);
    }
}

/** A request as the front sees it, with the statuses of ClusterScale's scale writes before it. */
export interface SeenRequest {
    method: string;
    path: string;
    scaleWrites: readonly number[];
}
