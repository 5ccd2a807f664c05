// How requests leave the process. Proxies come from the environment as for Pulumi's own CLI and providers
// (HTTPS_PROXY, HTTP_PROXY, NO_PROXY, lower-case forms too), through undici's proxy agent. Servers are trusted by
// Node's CAs (NODE_EXTRA_CA_CERTS included), the PEM bundle PLATFORM_TLS_CA_FILE names, and a CA given to the
// client; a client certificate is presented when given. Without any of these, requests use undici's global
// dispatcher. Dispatchers are shared by every client with the same settings in the process.

import { createHash } from "crypto";
import { readFileSync } from "fs";
import { type SecureContext, type SecureContextOptions, createSecureContext, rootCertificates } from "tls";
import type { Dispatcher } from "undici";
import { undici } from "./undici";

/** TLS trust and identity, as PEM text. */
export interface TlsSettings {
    /** CA certificate(s) to trust besides the system's (a private CA). */
    caCertificate?: string;
    /**
     * Trust caCertificate (and PLATFORM_TLS_CA_FILE) without Node's CAs: a kubeconfig's certificate authority, which
     * kubectl trusts alone.
     */
    caOnly?: boolean;
    /** Client certificate, for servers that require one (with clientKey). */
    clientCertificate?: string;
    /** Private key of the client certificate. A secret. */
    clientKey?: string;
    /** Accept any server certificate (a kubeconfig's insecure-skip-tls-verify). */
    skipVerify?: boolean;
    /** The name to verify the server certificate against (a kubeconfig's tls-server-name). */
    serverName?: string;
}

/** Where a client's requests go through, what they trust, and who watches them. */
export interface ConnectionSettings {
    tls?: TlsSettings;
    /** Headers sent with every request (a Kubernetes API server's bearer token). Their values are secrets. */
    headers?: Record<string, string>;
    /** Environment for the proxy variables and PLATFORM_TLS_CA_FILE (default process.env). */
    env?: Record<string, string | undefined>;
    /**
     * Debug lines, one per request (method, path, status, milliseconds, retry) and one per token (where it came
     * from). They never hold a header value, a token or a secret.
     */
    log?: (line: string) => void;
    /**
     * Once it fires, no request made with these settings starts (it fails with AbortedError before it is sent) and the
     * waits between them end; a request already sent runs to its answer. A host whose run was cancelled fires it.
     */
    signal?: AbortSignal;
}

const PROXY_VARIABLES = ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy"];

/** The dispatcher for these settings, or undefined for undici's global one (no proxy, no TLS settings). */
export function dispatcherFor(settings: ConnectionSettings | undefined): Dispatcher | undefined {
    const env = settings?.env ?? process.env;
    const tls = settings?.tls ?? {};
    const proxy = {
        httpProxy: env.http_proxy || env.HTTP_PROXY || undefined,
        httpsProxy: env.https_proxy || env.HTTPS_PROXY || undefined,
        noProxy: env.no_proxy || env.NO_PROXY || undefined,
    };
    const caFile = env.PLATFORM_TLS_CA_FILE || undefined;
    const proxied = PROXY_VARIABLES.some((name) => (env[name] ?? "") !== "");
    const custom = tls.caCertificate !== undefined || tls.clientCertificate !== undefined || tls.skipVerify === true || tls.serverName !== undefined;
    if (!proxied && caFile === undefined && !custom) return undefined;

    const key = createHash("sha256")
        .update(JSON.stringify([proxy, caFile, tls.caCertificate, tls.caOnly, tls.clientCertificate, tls.clientKey, tls.skipVerify, tls.serverName]))
        .digest("hex");
    let dispatcher = dispatchers.get(key);
    if (dispatcher === undefined) {
        const connect = tlsOptions(tls, caFile, env);
        // The same TLS options for direct connections and for tunnels through a proxy to the server. Plain http goes to
        // the proxy in absolute form, not tunnelled: proxies commonly allow CONNECT to port 443 only.
        const { Agent, EnvHttpProxyAgent } = undici();
        dispatcher = proxied ? new EnvHttpProxyAgent({ ...proxy, connect, requestTls: connect, proxyTunnel: false }) : new Agent({ connect });
        dispatchers.set(key, dispatcher);
    }
    return dispatcher;
}

interface ConnectOptions {
    /** Made once per dispatcher: parsing the trust store for every new connection costs tens of milliseconds. */
    secureContext?: SecureContext;
    rejectUnauthorized?: boolean;
    servername?: string;
}

function tlsOptions(tls: TlsSettings, caFile: string | undefined, env: Record<string, string | undefined>): ConnectOptions {
    const options: ConnectOptions = {};
    const context: SecureContextOptions = {};
    const extra = [tls.caCertificate, caFile === undefined ? undefined : readPem(caFile, "PLATFORM_TLS_CA_FILE")].filter(
        (pem): pem is string => pem !== undefined,
    );
    if (extra.length > 0 && tls.caOnly === true) {
        // Also the cheaper context: parsing Node's ~150 root certificates costs tens of milliseconds per dispatcher.
        context.ca = extra;
    } else if (extra.length > 0) {
        // A `ca` option replaces Node's trust store: keep the system's CAs and NODE_EXTRA_CA_CERTS beside the extra ones.
        const nodeExtra = env.NODE_EXTRA_CA_CERTS ? readPemIfPresent(env.NODE_EXTRA_CA_CERTS) : undefined;
        context.ca = [...rootCertificates, ...(nodeExtra === undefined ? [] : [nodeExtra]), ...extra];
    }
    if (tls.clientCertificate !== undefined) context.cert = tls.clientCertificate;
    if (tls.clientKey !== undefined) context.key = tls.clientKey;
    if (Object.keys(context).length > 0) options.secureContext = createSecureContext(context);
    if (tls.skipVerify === true) options.rejectUnauthorized = false;
    if (tls.serverName !== undefined) options.servername = tls.serverName;
    return options;
}

function readPem(path: string, what: string): string {
    try {
        return readFileSync(path, "utf8");
    } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
        throw new Error(`${what} names a file that cannot be read (${code}): ${path}`);
    }
}

function readPemIfPresent(path: string): string | undefined {
    try {
        return readFileSync(path, "utf8");
    } catch {
        return undefined;
    }
}

/** Dispatchers by settings, for the whole process. */
const dispatchers = new Map<string, Dispatcher>();
