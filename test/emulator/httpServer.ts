// One loopback HTTP listener per interface. Requests are read whole and handed to a dispatcher as
// plain values; the dispatcher answers with a Reply, or RESET to drop the connection unanswered.
// A listener can be taken down for a while (outage): it stops listening, drops open connections,
// and listens again on the same port later.

import { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse, createServer } from "node:http";
import { Socket } from "node:net";

export const HOST = "127.0.0.1";
const MAX_BODY_BYTES = 1024 * 1024;

export interface Call {
    method: string;
    /** The path exactly as sent, without the query string. */
    path: string;
    query: URLSearchParams;
    headers: IncomingHttpHeaders;
    body: Buffer;
    remoteAddress: string;
    /** Epoch milliseconds when the request arrived. */
    receivedAt: number;
}

export interface Reply {
    status: number;
    headers?: Record<string, string>;
    body?: string;
}

/** Drop the connection without answering. */
export const RESET = Symbol("reset");
export type Answer = Reply | typeof RESET;

export type Dispatcher = (call: Call) => Promise<Answer> | Answer;

export function jsonReply(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
    return { status, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(value) };
}

export function textReply(status: number, text: string): Reply {
    return { status, headers: { "content-type": "text/plain;charset=UTF-8" }, body: text };
}

export class InterfaceListener {
    private readonly server: Server;
    private readonly sockets = new Set<Socket>();
    private port = 0;
    private reopenTimer: NodeJS.Timeout | undefined;
    private closed = false;

    constructor(
        readonly name: string,
        private readonly dispatch: Dispatcher,
    ) {
        this.server = createServer((req, res) => void this.handle(req, res));
        this.server.on("connection", (socket: Socket) => {
            this.sockets.add(socket);
            socket.on("close", () => this.sockets.delete(socket));
        });
        // Without this a client that vanishes mid-request would surface as an uncaught error.
        this.server.on("clientError", (_error, socket) => socket.destroy());
    }

    get url(): string {
        return `http://${HOST}:${this.port}`;
    }

    async listen(port: number): Promise<void> {
        await new Promise<void>((resolve, reject) => {
            const onError = (error: Error): void => reject(error);
            this.server.once("error", onError);
            this.server.listen(port, HOST, () => {
                this.server.off("error", onError);
                resolve();
            });
        });
        const address = this.server.address();
        if (address && typeof address === "object") this.port = address.port;
    }

    /** Refuses connections for `ms` milliseconds, then listens again on the same port. */
    async outage(ms: number): Promise<void> {
        if (this.closed || this.reopenTimer) throw new Error(`the ${this.name} interface is already down`);
        await this.stopListening();
        this.reopenTimer = setTimeout(() => void this.reopen(), ms);
        this.reopenTimer.unref();
    }

    isDown(): boolean {
        return this.reopenTimer !== undefined;
    }

    async close(): Promise<void> {
        this.closed = true;
        if (this.reopenTimer) clearTimeout(this.reopenTimer);
        this.reopenTimer = undefined;
        await this.stopListening();
    }

    private async stopListening(): Promise<void> {
        const stopped = this.server.listening ? new Promise<void>((resolve) => this.server.close(() => resolve())) : Promise.resolve();
        for (const socket of this.sockets) socket.destroy();
        this.sockets.clear();
        await stopped;
    }

    private async reopen(): Promise<void> {
        if (this.closed) return;
        try {
            await this.listen(this.port);
            this.reopenTimer = undefined;
        } catch {
            // The port is briefly unavailable; try again shortly.
            this.reopenTimer = setTimeout(() => void this.reopen(), 50);
            this.reopenTimer.unref();
        }
    }

    private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
        const receivedAt = Date.now();
        let answer: Answer;
        try {
            const body = await readBody(req);
            if (body === undefined) {
                answer = jsonReply(413, { message: "Request body too large" });
            } else {
                const target = req.url ?? "/";
                const queryStart = target.indexOf("?");
                answer = await this.dispatch({
                    method: (req.method ?? "GET").toUpperCase(),
                    path: queryStart === -1 ? target : target.slice(0, queryStart),
                    query: new URLSearchParams(queryStart === -1 ? "" : target.slice(queryStart + 1)),
                    headers: req.headers,
                    body,
                    remoteAddress: req.socket.remoteAddress ?? "",
                    receivedAt,
                });
            }
        } catch (error) {
            answer = jsonReply(500, { message: `Emulator error: ${error instanceof Error ? error.message : String(error)}` });
        }
        if (answer === RESET) {
            req.socket.destroy();
            return;
        }
        if (res.destroyed) return;
        res.writeHead(answer.status, answer.headers ?? {});
        res.end(answer.body ?? "");
    }
}

/** Reads the whole body; undefined when it exceeds the size limit. */
async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
        const buffer = chunk as Buffer;
        size += buffer.length;
        if (size > MAX_BODY_BYTES) return undefined;
        chunks.push(buffer);
    }
    return Buffer.concat(chunks);
}
