// Loaded with codeCache.js by every Node process a test run starts (see processPreload.js): two large packages that
// @pulumi/pulumi loads whenever it is loaded, TypeScript's compiler (its closure serializer parses functions with it)
// and npm's arborist (its computeCodePaths reads a package tree with it), are loaded the first time @pulumi/pulumi
// uses them instead. A dynamic-provider host never does; loading them was 0.5 of its 1.4 CPU-seconds, and a run
// starts several hundred hosts. What @pulumi/pulumi is handed stands in for the module: each use of it goes to the
// module, loaded then.
"use strict";
const Module = require("module");

const PULUMI = "/node_modules/@pulumi/pulumi/";
const LAZY = ["/node_modules/typescript/lib/typescript.js", "/node_modules/@npmcli/arborist/lib/index.js"];

const nodeLoad = Module._load;
Module._load = function loadLazily(request, parent, isMain) {
    if (parent?.filename?.includes(PULUMI) && !isMain) {
        let filename;
        try {
            filename = Module._resolveFilename(request, parent, isMain);
        } catch {
            return nodeLoad.apply(this, arguments);
        }
        if (Module._cache[filename] === undefined && LAZY.some((end) => filename.endsWith(end)))
            return standIn(() => nodeLoad.call(this, request, parent, isMain));
    }
    return nodeLoad.apply(this, arguments);
};

/**
 * Answers every question by loading the module, but one: `__esModule` is true, so that an importer's interop helper
 * (`__importStar`) hands the stand-in on as it is instead of copying the module's keys, which would load it.
 */
function standIn(load) {
    let loaded;
    const module = () => (loaded ??= load());
    return new Proxy(() => {}, {
        get: (_, key) => (key === "__esModule" ? true : Reflect.get(module(), key)),
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
