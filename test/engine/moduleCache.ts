// A new Node process loads every module anew. The in-process engine (runPulumi's inProcess) stands for several such
// processes in one: before a program or a provider host starts, it forgets the modules that process would load fresh,
// so module state (token caches, claims, pass logs) starts empty as it would there.
import * as path from "path";

/** This package's compiled modules: what a program and a serialized provider load through `pulumi-platform`. */
export const PACKAGE_DIST = path.join(path.resolve(__dirname, "..", ".."), "dist") + path.sep;

/** Drops every module loaded from below these directories from the module cache. */
export function forgetModules(...directories: string[]): void {
    const prefixes = directories.map((directory) => (directory.endsWith(path.sep) ? directory : directory + path.sep));
    for (const key of Object.keys(require.cache)) if (prefixes.some((prefix) => key.startsWith(prefix))) delete require.cache[key];
}
