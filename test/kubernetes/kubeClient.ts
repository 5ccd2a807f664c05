// A small JSON client of a real Kubernetes API server, for the harness that plays the cluster's other parts (the
// kubelet, an operator applying manifests): requests with a client certificate or a bearer token, and watches read
// as lines of JSON. The product's own Kubernetes client is in sdk/; this shares nothing with it.
import * as https from "https";

export interface KubeAuth {
    ca: string;
    cert?: string;
    key?: string;
    token?: string;
}

export interface KubeAnswer {
    status: number;
    body: Record<string, unknown>;
}

export interface WatchEvent {
    type: "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK" | "ERROR";
    object: Record<string, unknown> & { metadata: { name: string; resourceVersion?: string } };
}

export class KubeClient {
    private readonly agent: https.Agent;
    private readonly watches = new Set<() => void>();

    constructor(
        readonly server: string,
        private readonly auth: KubeAuth,
    ) {
        this.agent = new https.Agent({ ca: auth.ca, cert: auth.cert, key: auth.key, keepAlive: true });
    }

    get(path: string): Promise<KubeAnswer> {
        return this.request("GET", path);
    }

    /** A request; `contentType` for patches (merge-patch by default). Answers any status: the caller decides. */
    request(method: string, path: string, body?: unknown, contentType = "application/json"): Promise<KubeAnswer> {
        const payload = body === undefined ? undefined : JSON.stringify(body);
        return new Promise((resolve, reject) => {
            const request = https.request(
                new URL(path, this.server),
                {
                    method,
                    agent: this.agent,
                    headers: {
                        accept: "application/json",
                        ...(payload
                            ? { "content-type": method === "PATCH" && contentType === "application/json" ? "application/merge-patch+json" : contentType }
                            : {}),
                        ...(this.auth.token ? { authorization: `Bearer ${this.auth.token}` } : {}),
                    },
                },
                (response) => {
                    let text = "";
                    response.setEncoding("utf8");
                    response.on("data", (chunk: string) => (text += chunk));
                    response.on("end", () => resolve({ status: response.statusCode ?? 0, body: parsed(text) }));
                },
            );
            request.on("error", reject);
            request.end(payload);
        });
    }

    /** The answer of a request that must succeed (2xx), else an error naming it and what the server said. */
    async must(method: string, path: string, body?: unknown, contentType?: string): Promise<Record<string, unknown>> {
        const answer = await this.request(method, path, body, contentType);
        if (answer.status < 200 || answer.status > 299) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 400)}`);
        return answer.body;
    }

    /** Watches a collection from now on (a list first, whose items arrive as ADDED); returns its end. */
    watch(path: string, onEvent: (event: WatchEvent) => void): () => void {
        let stopped = false;
        let current: { destroy(): void } | undefined;
        const run = async (): Promise<void> => {
            while (!stopped) {
                const list = await this.must("GET", path).catch(() => undefined);
                if (list === undefined) {
                    await new Promise((resolve) => setTimeout(resolve, 200));
                    continue;
                }
                for (const item of (list.items as WatchEvent["object"][]) ?? []) onEvent({ type: "ADDED", object: item });
                const version = (list.metadata as { resourceVersion: string }).resourceVersion;
                await new Promise<void>((resolve) => {
                    const separator = path.includes("?") ? "&" : "?";
                    const request = https.get(
                        new URL(`${path}${separator}watch=true&resourceVersion=${version}&allowWatchBookmarks=false`, this.server),
                        { agent: this.agent, headers: this.auth.token ? { authorization: `Bearer ${this.auth.token}` } : {} },
                        (response) => {
                            let buffer = "";
                            response.setEncoding("utf8");
                            response.on("data", (chunk: string) => {
                                buffer += chunk;
                                let newline: number;
                                while ((newline = buffer.indexOf("\n")) >= 0) {
                                    const line = buffer.slice(0, newline).trim();
                                    buffer = buffer.slice(newline + 1);
                                    if (line && !stopped) onEvent(JSON.parse(line) as WatchEvent);
                                }
                            });
                            response.on("end", resolve);
                            response.on("error", () => resolve());
                        },
                    );
                    request.on("error", () => resolve());
                    current = request;
                });
            }
        };
        void run();
        const stop = () => {
            stopped = true;
            current?.destroy();
            this.watches.delete(stop);
        };
        this.watches.add(stop);
        return stop;
    }

    close(): void {
        for (const stop of [...this.watches]) stop();
        this.agent.destroy();
    }
}

/** A JSON body; a plain-text one (the health endpoints) as `{ text }`. */
function parsed(text: string): Record<string, unknown> {
    if (text === "") return {};
    try {
        return JSON.parse(text) as Record<string, unknown>;
    } catch {
        return { text };
    }
}
