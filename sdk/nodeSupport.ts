// The Node.js lines the package runs on, checked when it is loaded: an older Node fails here, naming the supported
// lines, instead of with a stack trace from deep inside a dependency at the first request. @pulumi/pulumi 3.249 and
// later need Node 22; the floor is 22.19 because undici 8, the maintained major the package moves to next, needs it,
// so that no 0.4 release raises it. Imported for its effect by every module through which the package's code is
// first loaded: the HTTP layer (so the package root and every provider entry module), the provider plugin's main
// module and `pulumi-platform/kubernetes`.

/** The oldest Node.js release the package runs on (package.json's `engines` says the same). */
export const OLDEST_NODE = "22.19.0";
export const SUPPORTED_NODE_LINES = "Node.js 22 (22.19 or later), 24 and 26";

/** Why this Node.js release cannot run the package, or undefined when it can. */
export function unsupportedNode(version: string): string | undefined {
    const [major, minor] = version.replace(/^v/, "").split(".").map(Number);
    const [oldestMajor, oldestMinor] = OLDEST_NODE.split(".").map(Number);
    if (major > oldestMajor || (major === oldestMajor && minor >= oldestMinor)) return undefined;
    const lastForOld = major <= 20 ? " Node.js 20 reached its end of life on 30 April 2026; pulumi-platform 0.3.x is the last release for it." : "";
    return `pulumi-platform runs on ${SUPPORTED_NODE_LINES}; this process runs Node.js ${version.replace(/^v/, "")}: upgrade Node.js.${lastForOld}`;
}

const unsupported = unsupportedNode(process.versions.node);
if (unsupported !== undefined) throw new Error(unsupported);
