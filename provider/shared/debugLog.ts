// PLATFORM_LOG_LEVEL=debug: one line per request and per token, each naming the resource. Off by default.

/** The SDK's debug lines, prefixed with the resource's subject (`ClusterScale "cluster"`); undefined when off. */
export function debugLogFor(subject: string): ((line: string) => void) | undefined {
    if ((process.env.PLATFORM_LOG_LEVEL ?? "").trim().toLowerCase() !== "debug") return undefined;
    return (line) => console.log(`${subject}: debug: ${line}`);
}
