// A new Node process loads every module anew. The in-process engine (runPulumi's inProcess) stands for several such
// processes in one: before a program or a provider host starts, it forgets the modules that process would load fresh,
// so module state (token caches, claims, pass logs) starts empty as it would there.
//
// What a forgotten module of this package costs when it loads again is kept small: V8's compiled code of its file is
// kept, taken after the run that first loaded it, so the functions that run used are compiled already. Its top level
// still runs anew: the state is fresh, only the parse and the compilation are saved (about a tenth of the CPU of the
// suites that run the in-process engine most).
import Module from "module";
import * as path from "path";
import * as vm from "vm";

/** This package's compiled modules: what a program and a serialized provider load through `pulumi-platform`. */
export const PACKAGE_DIST = path.join(path.resolve(__dirname, "..", ".."), "dist") + path.sep;

/** Drops every module loaded from below these directories from the module cache. */
export function forgetModules(...directories: string[]): void {
    keepCompiledCode();
    const prefixes = directories.map((directory) => (directory.endsWith(path.sep) ? directory : directory + path.sep));
    for (const key of Object.keys(require.cache)) if (prefixes.some((prefix) => key.startsWith(prefix))) delete require.cache[key];
}

interface CompiledFile {
    source: string;
    /** The script of the first load, until its code is taken; then the code. */
    script?: vm.Script;
    code?: Buffer;
}

const compiled = new Map<string, CompiledFile>();

interface InternalModule {
    exports: unknown;
    require(id: string): unknown;
}

interface ModuleInternals {
    prototype: { _compile(this: InternalModule, content: string, filename: string): unknown };
    wrap(source: string): string;
    _resolveFilename(request: string, parent: InternalModule, isMain: boolean, options?: { paths?: string[] }): string;
    _resolveLookupPaths(request: string, parent: InternalModule): string[] | null;
    _extensions: unknown;
    _cache: unknown;
}

let installed = false;

function keepCompiledCode(): void {
    if (installed) return;
    installed = true;
    const internals = Module as unknown as ModuleInternals;
    const compile = internals.prototype._compile;
    internals.prototype._compile = function (this: InternalModule, content: string, filename: string) {
        // A dynamic import() in code compiled through vm finds no loader: such a file is compiled by Node itself.
        if (!filename.startsWith(PACKAGE_DIST) || content.includes("import(")) return compile.call(this, content, filename);
        let file = compiled.get(filename);
        if (file?.source !== content) compiled.set(filename, (file = { source: content }));
        if (file.script !== undefined) {
            file.code = file.script.createCachedData();
            file.script = undefined;
        }
        const script = new vm.Script(internals.wrap(content), {
            filename,
            cachedData: file.code,
        });
        if (file.code === undefined || script.cachedDataRejected === true) file.script = script;
        const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
        return wrapper.call(this.exports, this.exports, requireFor(this, internals), this, filename, path.dirname(filename));
    };
}

/** The `require` a module's code gets, as Node makes it. */
function requireFor(module: InternalModule, internals: ModuleInternals): NodeJS.Require {
    const require = ((id: string) => module.require(id)) as NodeJS.Require;
    const resolve = ((request: string, options?: { paths?: string[] }) => internals._resolveFilename(request, module, false, options)) as NodeJS.RequireResolve;
    resolve.paths = (request: string) => internals._resolveLookupPaths(request, module);
    require.resolve = resolve;
    require.main = process.mainModule;
    require.extensions = internals._extensions as NodeJS.RequireExtensions;
    require.cache = internals._cache as NodeJS.Dict<NodeModule>;
    return require;
}
