// An HTTPS endpoint in front of a plain HTTP one (the emulator's management or gateway interface), with a
// certificate of a private CA and, when asked, a required client certificate: what a corporate ingress looks like.
import * as http from "http";
import * as https from "https";
import type { AddressInfo } from "net";
import { forwardRequest } from "./forward";

export interface HttpsFrontOptions {
    /** Where requests go: an http origin. */
    target: string;
    certificate: string;
    key: string;
    /** When set, clients must present a certificate signed by this CA. */
    clientCa?: string;
}

export class HttpsFront {
    private server: https.Server | undefined;
    /** Requests that reached the target through this endpoint. */
    forwarded = 0;

    constructor(private readonly options: HttpsFrontOptions) {}

    get url(): string {
        return `https://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
    }

    async start(): Promise<void> {
        const { certificate, key, clientCa } = this.options;
        this.server = https.createServer(
            { cert: certificate, key, ...(clientCa ? { ca: clientCa, requestCert: true, rejectUnauthorized: true } : {}) },
            (request, response) => this.forward(request, response),
        );
        await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    }

    async stop(): Promise<void> {
        this.server?.closeAllConnections();
        await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    }

    private forward(request: http.IncomingMessage, response: http.ServerResponse): void {
        const target = new URL(request.url ?? "/", this.options.target);
        forwardRequest(request, response, target, { ...request.headers, host: target.host }, () => this.forwarded++);
    }
}
