// Building a Go program of a published module here: a scratch module that requires it (repeating the replace
// directives of the module that a plain `go install …@version` refuses), its modules from the Go module proxy, and a
// build with the release's flags. A failure says what is missing: Go, the module proxy, or disk.
import { execFileSync, spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

export interface GoModule {
    /** The scratch module's go.mod lines after `module` and `go` (require, replace, tool, godebug). */
    goMod: string[];
    /** The packages to build, each to `<bin>/<name>`. */
    programs: { name: string; pkg: string }[];
    /** `-ldflags` of the build (versions set with -X). */
    ldflags: string;
    tags?: string;
    env?: Record<string, string>;
    /** Source files of the project's own, copied into the scratch module by relative path (built as `./<dir>`). */
    files?: Record<string, string>;
}

export class ToolBuildError extends Error {}

/** Builds the programs into `bin`; the scratch module is removed afterwards. Prints what it does to stderr. */
export async function buildGoPrograms(label: string, module: GoModule, bin: string): Promise<void> {
    await requireGo();
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), `platform-${label}-`));
    try {
        fs.writeFileSync(path.join(scratch, "go.mod"), ["module local/platformtools", "", "go 1.26", "", ...module.goMod, ""].join("\n"));
        for (const [relative, source] of Object.entries(module.files ?? {})) {
            fs.mkdirSync(path.dirname(path.join(scratch, relative)), { recursive: true });
            fs.copyFileSync(source, path.join(scratch, relative));
        }
        const env = { ...process.env, GOTOOLCHAIN: process.env.GOTOOLCHAIN ?? "local", GOFLAGS: "-mod=mod", CGO_ENABLED: "0", ...module.env };
        progress(`${label}: resolving modules (go mod tidy)`);
        await go(["mod", "tidy"], scratch, env, "resolve the modules");
        fs.mkdirSync(bin, { recursive: true });
        for (const program of module.programs) {
            progress(`${label}: building ${program.name}`);
            const args = ["build", "-trimpath", "-ldflags", module.ldflags, "-o", path.join(bin, program.name)];
            if (module.tags) args.push("-tags", module.tags);
            await go([...args, program.pkg], scratch, env, `build ${program.name}`);
        }
    } finally {
        fs.rmSync(scratch, { recursive: true, force: true });
    }
}

/** The folder of a module in the module cache (downloading it first). */
export async function moduleDir(modulePath: string, version: string): Promise<string> {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "platform-module-"));
    try {
        const out = await go(
            ["mod", "download", "-json", `${modulePath}@${version}`],
            scratch,
            { ...process.env, GOTOOLCHAIN: "local", GOFLAGS: "-mod=mod" },
            `download ${modulePath}`,
        );
        return (JSON.parse(out) as { Dir: string }).Dir;
    } finally {
        fs.rmSync(scratch, { recursive: true, force: true });
    }
}

export function progress(line: string): void {
    process.stderr.write(`${line}\n`);
}

export async function requireGo(): Promise<void> {
    try {
        await run("go", ["version"], process.cwd(), process.env);
    } catch {
        throw new ToolBuildError("Go is missing: the real tools are built from their Go modules with `go` (1.26 or later) on PATH");
    }
}

/** Runs `go` with these arguments; a failure says what could not be done, and what is missing. */
export async function go(args: string[], cwd: string, env: NodeJS.ProcessEnv, what: string): Promise<string> {
    try {
        return await run("go", args, cwd, env);
    } catch (error) {
        throw new ToolBuildError(`cannot ${what}: ${diagnose(String((error as Error).message))}`);
    }
}

/** Names what is missing from what go printed. */
function diagnose(output: string): string {
    const tail = output.trim().split("\n").slice(-12).join("\n");
    if (/no space left on device/i.test(output)) return `the disk is full (go needs a few GB for the module cache and the build)\n${tail}`;
    if (/proxy\.golang\.org|dial tcp|i\/o timeout|connection refused|no such host|TLS handshake/i.test(output) && /(reading|dial|lookup)/i.test(output)) {
        return `the Go module proxy cannot be reached or refuses a module (GOPROXY=${process.env.GOPROXY ?? "default"})\n${tail}`;
    }
    if (/403 Forbidden|not available/i.test(output)) return `the Go module proxy does not serve a module this build needs\n${tail}`;
    return tail;
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
    return new Promise((resolve, reject) => {
        const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
        let out = "";
        let err = "";
        child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
        child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
        child.on("error", reject);
        child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`${err}${out}`))));
    });
}

/** What a built program prints for its version (trimmed); empty when it is missing or fails. */
export function printedVersion(program: string, args: string[], env: NodeJS.ProcessEnv = process.env): string {
    try {
        return execFileSync(program, args, { encoding: "utf8", env, stdio: ["ignore", "pipe", "ignore"] }).trim();
    } catch {
        return "";
    }
}
