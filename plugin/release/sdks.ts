// The SDKs a release carries, generated from the plugin's schema by the project's platform-codegen (Pulumi's own
// generators, see test/tools/codegen.ts): Python as a wheel and an sdist (pulumi_platform, with pulumi-plugin.json,
// built with the setuptools of the tools' Python environment), Go as a module of its own (go.mod, pulumi-plugin.json,
// its import path under the project's repository, its go.sum resolved by `go mod tidy`), and .NET as the generated
// sources of PulumiPlatform (no .NET SDK here to build or pack them).
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

export interface SdkTools {
    codegen: string;
    /** platform-codegen-dotnet: the .NET generator, of an older pkg/v3 (see test/tools/codegen.ts). */
    dotnetCodegen: string;
    python: string;
    pulumiSdkVersion: string;
}

/** The Go SDK's module path: the folder above the package, whose import path is the schema's go importBasePath. */
export function goModulePath(schema: string): string {
    const parsed = JSON.parse(fs.readFileSync(schema, "utf8")) as { language: { go: { importBasePath: string } } };
    return path.posix.dirname(parsed.language.go.importBasePath);
}

/** Builds the wheel and the sdist into `out`; answers their file names. */
export function writePythonSdk(tools: SdkTools, schema: string, out: string, work: string): string[] {
    const sdk = path.join(work, "python");
    execFileSync(tools.codegen, [schema, "python", sdk], { stdio: ["ignore", "ignore", "pipe"] });
    const dist = path.join(work, "python-dist");
    execFileSync(tools.python, ["setup.py", "--quiet", "sdist", "--dist-dir", dist, "bdist_wheel", "--dist-dir", dist], {
        cwd: sdk,
        stdio: ["ignore", "ignore", "pipe"],
        // setuptools stamps the archives' files with SOURCE_DATE_EPOCH when given.
        env: { ...process.env, SOURCE_DATE_EPOCH: "315532800" },
    });
    const built = fs.readdirSync(dist).sort();
    for (const file of built) fs.copyFileSync(path.join(dist, file), path.join(out, file));
    return built;
}

/** Writes the Go module into `out/sdk/go`; answers its folder, relative to `out`. */
export function writeGoSdk(tools: SdkTools, schema: string, out: string): string {
    const module = path.join(out, "sdk", "go");
    execFileSync(tools.codegen, [schema, "go", module], { stdio: ["ignore", "ignore", "pipe"] });
    fs.writeFileSync(
        path.join(module, "go.mod"),
        `module ${goModulePath(schema)}\n\ngo 1.26\n\nrequire github.com/pulumi/pulumi/sdk/v3 v${tools.pulumiSdkVersion}\n`,
    );
    execFileSync("go", ["mod", "tidy"], { cwd: module, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, GOFLAGS: "-mod=mod" } });
    return path.relative(out, module);
}

/** Writes the .NET SDK's sources into `out/sdk/dotnet`; answers its folder, relative to `out`. */
export function writeDotnetSdk(tools: SdkTools, schema: string, out: string): string {
    const sources = path.join(out, "sdk", "dotnet");
    execFileSync(tools.dotnetCodegen, [schema, "dotnet", sources], { stdio: ["ignore", "ignore", "pipe"] });
    return path.relative(out, sources);
}
