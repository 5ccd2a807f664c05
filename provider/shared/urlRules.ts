// The rules every URL input follows: absolute, http or https, and no user name or password (a URL is kept in the
// state and shown in log lines, so a password in it would leak). An origin input (a management or gateway URL)
// also carries no path, query or fragment. Each input words its own failure; the rules are here once.

export type UrlProblem = "not absolute" | "not http" | "credentials" | "not an origin";

/** What breaks the rules in `text` (trimmed first), or undefined. */
export function httpUrlProblem(text: string, options: { originOnly?: boolean } = {}): UrlProblem | undefined {
    const url = parsedUrl(text);
    if (url === undefined) return "not absolute";
    if (url.protocol !== "http:" && url.protocol !== "https:") return "not http";
    if (url.username !== "" || url.password !== "") return "credentials";
    if (options.originOnly && (url.search !== "" || url.hash !== "" || (url.pathname !== "/" && url.pathname !== ""))) return "not an origin";
    return undefined;
}

/** scheme://host[:port] of a URL that follows the origin rules; undefined otherwise. */
export function httpOrigin(text: string): string | undefined {
    return httpUrlProblem(text, { originOnly: true }) === undefined ? parsedUrl(text)?.origin : undefined;
}

/** The URL's protocol ("ftp:"), for a failure that names it; undefined when the text is no URL. */
export function protocolOf(text: string): string | undefined {
    return parsedUrl(text)?.protocol;
}

/** The host name of a URL, or undefined. */
export function hostNameOf(text: string): string | undefined {
    return parsedUrl(text)?.hostname || undefined;
}

function parsedUrl(text: string): URL | undefined {
    try {
        return new URL(text.trim());
    } catch {
        return undefined;
    }
}
