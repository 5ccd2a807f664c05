// How long a provider host lives, and how it stops. Two ways a run ends early reach a host:
//
// - The engine is gone (a pipeline's timeout, SIGKILL of the CLI's process group). The CLI starts each plugin in a
//   process group of its own, so no kill of the CLI reaches its hosts, and Node's dynamic-provider host has no check of
//   its own: it would go on waiting for a change, reading the cluster and acting on it, beside the user's next up. The
//   CLI gives every plugin a pipe as stdin and holds the other end; the kernel closes that end when the CLI dies, so the
//   host sees the end of its stdin at once (measured under the real CLI: see test/cli/stoppedUps.ts). A write to
//   stdout or stderr that breaks (EPIPE: nobody reads them any more) means the same. Either way the host exits there
//   and then: no request starts after it. A change the cluster accepted goes on there; the next up resumes it.
// - The engine cancels (Ctrl-C, SIGTERM: the CLI asks each provider to Cancel, then waits for the steps in flight).
//   `hostSignal` aborts: every client the providers made sends nothing more (see ConnectionSettings.signal) and their
//   waits end, each resource failing with what it leaves running recorded, so that the next up resumes it. The
//   dynamic-provider host answers Cancel itself and tells the provider nothing, so the provider hears the call arrive at
//   the host's gRPC server (an HTTP/2 server) through Node's diagnostics channel of HTTP/2 server streams, public from
//   Node 22.14 on; the plugin is told by its server (PlatformProvider.cancel).

import * as diagnostics from "diagnostics_channel";
import * as fs from "fs";
import type { IncomingHttpHeaders } from "http2";
import * as path from "path";

/** The gRPC method the engine calls on a provider when the run is cancelled. */
export const CANCEL_PATH = "/pulumirpc.ResourceProvider/Cancel";
/** Node's channel of HTTP/2 server streams, published with each stream's headers as it starts. */
export const HTTP2_STREAM_CHANNEL = "http2.server.stream.start";
/** The main module of @pulumi/pulumi's dynamic-provider host, as its launcher runs it. */
export const DYNAMIC_PROVIDER_HOST_MAIN = path.join("cmd", "dynamic-provider", "index.js");
/** The host's exit status when its engine is gone (nobody reads it; it tells a process table apart from a crash). */
const ENGINE_GONE_EXIT_CODE = 3;

const cancellation = new AbortController();

/** Aborted once the engine cancelled the run: clients made with it send nothing more, and waits on it end. */
export const hostSignal: AbortSignal = cancellation.signal;

/** The run was cancelled: from now on nothing is sent, and every wait in flight ends. */
export function cancelHost(): void {
    if (!cancellation.signal.aborted) cancellation.abort();
}

let watching = false;

/** From now on, this process exits as soon as its engine is gone (see above). Idempotent. */
export function stopWithEngine(): void {
    if (watching) return;
    watching = true;
    const gone = () => process.exit(ENGINE_GONE_EXIT_CODE);
    // Without these listeners a broken pipe is an uncaught error, which the host's handler writes to the same broken
    // pipe, again and again (a loop that holds a core and grows without bound).
    process.stdout.on("error", gone);
    process.stderr.on("error", gone);
    if (!stdinIsPipe()) return; // started by hand (a terminal, /dev/null): no engine's pipe to watch
    process.stdin.on("end", gone);
    process.stdin.on("error", gone);
    process.stdin.resume();
}

/** In the dynamic-provider host: stop with the engine, and hear its Cancel. Elsewhere (a test's process, a program): nothing. */
export function attachToDynamicProviderHost(): void {
    if (!inDynamicProviderHost() || watching) return;
    stopWithEngine();
    // Only the host's gRPC server serves HTTP/2 in a host (the package's clients are clients).
    diagnostics.subscribe(HTTP2_STREAM_CHANNEL, (message) => {
        if ((message as { headers?: IncomingHttpHeaders }).headers?.[":path"] === CANCEL_PATH) cancelHost();
    });
}

/** Whether this process is @pulumi/pulumi's dynamic-provider host (its main module is the host's script). */
function inDynamicProviderHost(): boolean {
    const main = require.main?.filename;
    return main !== undefined && main.endsWith(DYNAMIC_PROVIDER_HOST_MAIN);
}

function stdinIsPipe(): boolean {
    try {
        // BigInt stats: Node 20's realpathSync reads the type of the last plain stat of the process, and a pipe's made it
        // stop resolving links early, so every entry module required after this loaded again through the link's path: a
        // second copy of the package's modules (token cache, shared reads, cluster claims) in the host.
        const stat = fs.fstatSync(0, { bigint: true });
        return stat.isFIFO() || stat.isSocket();
    } catch {
        return false;
    }
}
