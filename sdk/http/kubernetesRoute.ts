// The route to an in-cluster service through the Kubernetes API server's service proxy:
// `{server}/api/v1/namespaces/{namespace}/services/{service}:{port}/proxy{path}`, every method, body and query
// passed through. The kubeconfig decides the server and how to authenticate (bearer token, client certificate,
// exec plugins, the cluster's CA), resolved by @kubernetes/client-node's KubeConfig, an optional peer dependency
// loaded only when the route is used.

import { existsSync } from "fs";
import { pathToFileURL } from "url";
import type { ConnectionSettings } from "./transport";

export interface KubernetesServiceRoute {
    namespace: string;
    service: string;
    /** The Service port (its `port`, not the pods' targetPort). */
    port: number;
    /** kubeconfig YAML content or a file path; else KUBECONFIG (paths joined by ":"), else ~/.kube/config. */
    kubeconfig?: string;
    /** The kubeconfig context to use (default: its current-context). */
    context?: string;
}

export interface ApiServerAccess {
    /** The API server's origin (and path prefix), without a trailing slash. */
    server: string;
    /** Its CA, the client certificate and the bearer header the kubeconfig yields (all secrets but the CA). */
    connection: ConnectionSettings;
}

export interface ResolvedServiceRoute extends ApiServerAccess {
    /** Replaces the service's origin: requests go to `${baseUrl}${path}`. */
    baseUrl: string;
    /** The same route to another port of the service. */
    toPort(port: number): string;
}

type KubeClientModule = typeof import("@kubernetes/client-node");

/** The base URL and connection settings of the route; throws naming what is wrong with the kubeconfig. */
export async function resolveServiceRoute(route: KubernetesServiceRoute, base: ConnectionSettings = {}): Promise<ResolvedServiceRoute> {
    const { server, connection } = await resolveApiServer(route, base);
    const proxyUrl = (port: number) =>
        `${server}/api/v1/namespaces/${encodeURIComponent(route.namespace)}/services/${encodeURIComponent(`${route.service}:${port}`)}/proxy`;
    return { server, connection, baseUrl: proxyUrl(route.port), toPort: proxyUrl };
}

/** The API server a kubeconfig (and context) names, and how to reach it; throws naming what is wrong with the kubeconfig. */
export async function resolveApiServer(source: { kubeconfig?: string; context?: string }, base: ConnectionSettings = {}): Promise<ApiServerAccess> {
    const { KubeConfig } = await loadKubeClient();
    const config = new KubeConfig();
    const given = source.kubeconfig;
    try {
        if (given === undefined) config.loadFromDefault();
        else if (looksLikeYaml(given)) config.loadFromString(given);
        else if (existsSync(given)) config.loadFromFile(given);
        else throw new Error("it is neither kubeconfig YAML nor the path of an existing file");
        if (source.context !== undefined) {
            if (!config.getContextObject(source.context)) throw new Error(`it has no context "${source.context}"`);
            config.setCurrentContext(source.context);
        }
    } catch (error) {
        throw new Error(`the kubeconfig cannot be used: ${describe(error)}`);
    }
    const cluster = config.getCurrentCluster();
    if (cluster === null) {
        throw new Error(`the kubeconfig has no cluster for context "${config.getCurrentContext() || "(none)"}"`);
    }
    const options: {
        ca?: string | Buffer;
        cert?: string | Buffer;
        key?: string | Buffer;
        headers?: Record<string, string>;
        rejectUnauthorized?: boolean;
        servername?: string;
    } = {};
    try {
        await config.applyToHTTPSOptions(options);
    } catch (error) {
        throw new Error(`the kubeconfig's credentials cannot be obtained: ${describe(error)}`);
    }
    const tls = {
        ...base.tls,
        ...(options.ca !== undefined ? { caCertificate: options.ca.toString(), caOnly: true } : {}),
        ...(options.cert !== undefined ? { clientCertificate: options.cert.toString() } : {}),
        ...(options.key !== undefined ? { clientKey: options.key.toString() } : {}),
        ...(options.rejectUnauthorized === false ? { skipVerify: true } : {}),
        ...(options.servername !== undefined ? { serverName: options.servername } : {}),
    };
    const authorization = options.headers?.Authorization ?? options.headers?.authorization;
    return {
        server: cluster.server.replace(/\/+$/, ""),
        connection: { ...base, tls, ...(authorization !== undefined ? { headers: { ...base.headers, authorization } } : {}) },
    };
}

async function loadKubeClient(): Promise<KubeClientModule> {
    let entry: string;
    try {
        entry = require.resolve("@kubernetes/client-node");
    } catch {
        throw new Error("the Kubernetes route needs the package @kubernetes/client-node next to pulumi-platform: npm install @kubernetes/client-node@1");
    }
    // The package is an ES module: a real import(), which TypeScript would turn into require() in CommonJS output.
    const importModule = new Function("url", "return import(url)") as (url: string) => Promise<KubeClientModule>;
    return importModule(pathToFileURL(entry).href);
}

function looksLikeYaml(text: string): boolean {
    return text.includes("\n") || /^\s*(apiVersion|kind|clusters|contexts|users|current-context)\s*:/m.test(text) || text.trim().startsWith("{");
}

/** The error's first line; a YAML error only by its position (its snippet could hold a credential). */
function describe(error: unknown): string {
    const mark = (error as { name?: string; mark?: { line?: number } }).mark;
    if ((error as { name?: string }).name === "YAMLException") return `it is not valid YAML (line ${(mark?.line ?? 0) + 1})`;
    const message = error instanceof Error ? error.message : String(error);
    return message.split("\n")[0].trim().slice(0, 300);
}
