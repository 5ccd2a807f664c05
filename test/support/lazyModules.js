// Loaded with codeCache.js by every Node process a test run starts (see processPreload.js): packages (and the
// Automation API) that @pulumi/pulumi requires whenever it is loaded, but uses only for some calls, are loaded when it
// first uses them. A dynamic-provider host never does: under the real CLI a host took 1.5 CPU-seconds with them and 1.0
// without, and a run starts several hundred hosts. What @pulumi/pulumi is handed meanwhile stands in for the package:
// each use of it goes to the package, loaded then.
"use strict";
const Module = require("module");

const PULUMI = "/node_modules/@pulumi/pulumi/";
const DEFERRED = new Set([
    // The closure serializer parses functions with it (TypeScript's compiler, 9 MB).
    "typescript",
    // computeCodePaths reads a package tree with these.
    "@npmcli/arborist",
    "normalize-package-data",
    // The Automation API runs the CLI with it.
    "execa",
]);
/** The Automation API, which @pulumi/pulumi's index loads (a host or a program does not use it). */
const AUTOMATION = "./automation";

const nodeLoad = Module._load;
Module._load = function loadLazily(request, parent, isMain) {
    if (!deferred(request, parent?.filename)) return nodeLoad.apply(this, arguments);
    let filename;
    try {
        filename = Module._resolveFilename(request, parent, isMain);
    } catch {
        return nodeLoad.apply(this, arguments);
    }
    if (Module._cache[filename] !== undefined) return nodeLoad.apply(this, arguments);
    return standIn(() => nodeLoad.call(this, request, parent, isMain));
};

function deferred(request, from) {
    if (!from?.includes(PULUMI)) return false;
    return DEFERRED.has(request) || (request === AUTOMATION && from.endsWith(`${PULUMI}index.js`));
}

/**
 * Answers every question by loading the package, but two, which it answers as an importer's interop helpers
 * (`__importStar`, `__importDefault`) would: `__esModule` is true, so that they hand the stand-in on as it is instead of
 * copying the package's keys (which would load it), and `default` is the package itself unless it is an ES module.
 */
function standIn(load) {
    let loaded;
    const module = () => (loaded ??= load());
    return new Proxy(() => {}, {
        get: (_, key) => {
            if (key === "__esModule") return true;
            if (key === "default" && !module().__esModule) return module();
            return Reflect.get(module(), key);
        },
        has: (_, key) => Reflect.has(module(), key),
        set: (_, key, value) => Reflect.set(module(), key, value),
        ownKeys: () => Reflect.ownKeys(module()),
        getOwnPropertyDescriptor: (_, key) => {
            const descriptor = Reflect.getOwnPropertyDescriptor(module(), key);
            return descriptor && { ...descriptor, configurable: true };
        },
        getPrototypeOf: () => Reflect.getPrototypeOf(module()),
        apply: (_, self, args) => Reflect.apply(module(), self, args),
        construct: (_, args, target) => Reflect.construct(module(), args, target),
    });
}
