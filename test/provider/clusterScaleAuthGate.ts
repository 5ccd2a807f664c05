// A management API that needs credentials: a loopback gate in front of the emulator's management port that
// answers 401 to any request without the expected header, and forwards the others. The emulator's own
// management API (like the real one by default) takes no credentials.
import * as http from "http";
import * as net from "net";

export class AuthGate {
    /** Requests turned away with 401. */
    refused = 0;
    private readonly server: http.Server;

    /** `accepts` looks at a request's headers and says whether they carry the credentials. */
    constructor(
        private readonly target: string,
        private readonly accepts: (headers: http.IncomingHttpHeaders) => boolean,
    ) {
        this.server = http.createServer((request, response) => void this.handle(request, response));
    }

    get url(): string {
        return `http://127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
    }

    async start(): Promise<void> {
        await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    }

    async stop(): Promise<void> {
        this.server.closeAllConnections();
        await new Promise<void>((resolve) => this.server.close(() => resolve()));
    }

    private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
        const chunks: Buffer[] = [];
        for await (const chunk of request) chunks.push(chunk as Buffer);
        if (!this.accepts(request.headers)) {
            this.refused++;
            response.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ message: "Unauthorized" }));
            return;
        }
        try {
            const answer = await fetch(`${this.target}${request.url}`, {
                method: request.method,
                headers: { "content-type": request.headers["content-type"] ?? "application/json", accept: "application/json" },
                body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
            });
            const body = await answer.text();
            response.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" }).end(body);
        } catch {
            response.writeHead(502, { "content-type": "application/json" }).end(JSON.stringify({ message: "Bad Gateway" }));
        }
    }
}
