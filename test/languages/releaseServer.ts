// A release location on loopback, as a GitHub release serves its assets: GET <url>/<asset> answers the file of the
// release folder of that name (a 404 for any other), and what was asked for is kept. The CLI is pointed at it with
// PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES, the schema's real pluginDownloadURL rewritten to this URL.
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";

export class ReleaseServer {
    private readonly server = http.createServer((request, response) => this.answer(request, response));
    /** The paths asked for, in order. */
    readonly asked: string[] = [];
    /** Assets answered with other bytes than the folder's (a corrupted download). */
    readonly corrupted = new Set<string>();

    constructor(private readonly folder: string) {}

    async start(): Promise<string> {
        await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
        return this.url();
    }

    url(): string {
        return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/releases`;
    }

    /** The environment that sends the CLI's downloads from the release location `server` here. */
    overrides(server: string): Record<string, string> {
        return { PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: `^${server.replace(/[.]/g, "\\.")}=${this.url()}` };
    }

    async stop(): Promise<void> {
        this.server.closeAllConnections();
        await new Promise<void>((resolve) => this.server.close(() => resolve()));
    }

    private answer(request: http.IncomingMessage, response: http.ServerResponse): void {
        const asked = new URL(request.url ?? "/", "http://release").pathname;
        this.asked.push(asked);
        const name = asked.replace(/^\/releases\//, "");
        const file = path.join(this.folder, name);
        if (request.method !== "GET" || name.includes("/") || !fs.existsSync(file)) {
            response.writeHead(404).end();
            return;
        }
        const bytes = fs.readFileSync(file);
        if (this.corrupted.has(name)) bytes[bytes.length >> 1] ^= 0xff;
        response.writeHead(200, { "content-type": "application/gzip", "content-length": String(bytes.length) }).end(bytes);
    }
}
