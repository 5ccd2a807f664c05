// Passes one HTTP request on to a plain-HTTP target and its answer back: what a front or a proxy does.
import * as http from "http";

/** Forwards `request` to `target` (headers as given, unless `headers` replaces them); a failing target answers 502. */
export function forwardRequest(
    request: http.IncomingMessage,
    response: http.ServerResponse,
    target: URL,
    headers: http.OutgoingHttpHeaders = request.headers,
    onAnswer?: () => void,
): void {
    const upstream = http.request(target, { method: request.method, headers }, (answer) => {
        onAnswer?.();
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
    });
    upstream.on("error", () => {
        response.writeHead(502);
        response.end();
    });
    request.pipe(upstream);
}
