// A forward proxy on loopback that records what passes: plain requests in absolute form (http://host/path) and
// CONNECT tunnels (https). What a corporate runner's proxy does, minus the policy.
import * as http from "http";
import * as net from "net";
import type { AddressInfo } from "net";
import { forwardRequest } from "./forward";

export interface ProxiedRequest {
    /** `GET http://127.0.0.1:1234/actuator/cluster`, or `CONNECT 127.0.0.1:1234`. */
    line: string;
}

export class RecordingProxy {
    private server: http.Server | undefined;
    private readonly sockets = new Set<net.Socket>();
    readonly seen: ProxiedRequest[] = [];

    get url(): string {
        return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
    }

    async start(): Promise<void> {
        this.server = http.createServer((request, response) => this.forward(request, response));
        this.server.on("connect", (request: http.IncomingMessage, client: net.Socket, head: Buffer) => this.tunnel(request, client, head));
        this.server.on("connection", (socket: net.Socket) => {
            this.sockets.add(socket);
            socket.on("close", () => this.sockets.delete(socket));
        });
        await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    }

    async stop(): Promise<void> {
        for (const socket of this.sockets) socket.destroy();
        await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    }

    private forward(request: http.IncomingMessage, response: http.ServerResponse): void {
        this.seen.push({ line: `${request.method} ${request.url}` });
        forwardRequest(request, response, new URL(request.url ?? ""));
    }

    private tunnel(request: http.IncomingMessage, client: net.Socket, head: Buffer): void {
        this.seen.push({ line: `CONNECT ${request.url}` });
        const [host, port] = (request.url ?? "").split(":");
        const upstream = net.connect(Number(port), host, () => {
            client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
            upstream.write(head);
            upstream.pipe(client);
            client.pipe(upstream);
        });
        this.sockets.add(upstream);
        upstream.on("close", () => this.sockets.delete(upstream));
        upstream.on("error", () => client.destroy());
        client.on("error", () => upstream.destroy());
    }
}
