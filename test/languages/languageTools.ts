// Where the languages tier finds its tools (built by `npm run tools:languages`), and how each language's program
// runs and gets its SDK: the SDK generated from plugin/schema.json by platform-codegen into the program's sdk/ folder,
// the plugin found on PATH (plugin/pulumi-resource-platform, as the README tells users without the Node host).
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { CliStack, type ProgramRunner } from "../cli/cliStack";
import { pulumiBin } from "../cli/pulumiBin";
import { PULUMI_SDK_MATCH } from "../tools/pulumi";
import { PYTHON_PULUMI_VERSION } from "../tools/python";
import { toolDir } from "../tools/toolsDir";
import { SCHEMA_FILE } from "../tools/writeSchema";
import { YAML_VERSION } from "../tools/yaml";
import { TYPESCRIPT_REQUIRE } from "../support/typescriptRequire";

const PLUGIN_DIR = path.dirname(SCHEMA_FILE);

export type Language = "python" | "go" | "yaml";

export interface LanguageSetup {
    runner: ProgramRunner;
    env: NodeJS.ProcessEnv;
    /** Generates the program's SDK into its folder; returns what its commands need besides. */
    prepare: (programDir: string) => NodeJS.ProcessEnv;
}

function built(file: string): string {
    if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`npm run tools:languages\` (needs Go and python3)`);
    return file;
}

export function generateSdk(language: "python" | "go" | "nodejs", out: string): void {
    const codegen = built(path.join(toolDir("platform-codegen", `v${PULUMI_SDK_MATCH}`), "bin", "platform-codegen"));
    execFileSync(codegen, [SCHEMA_FILE, language, out], { stdio: ["ignore", "ignore", "pipe"] });
}

export async function languageSetup(language: Language): Promise<LanguageSetup> {
    const pulumi = await pulumiBin(PULUMI_SDK_MATCH);
    const yamlHost = path.join(toolDir("pulumi-yaml", `v${YAML_VERSION}`), "bin");
    const env = { PATH: [PLUGIN_DIR, ...(language === "yaml" ? [built(yamlHost)] : []), pulumi, process.env.PATH ?? ""].join(path.delimiter) };
    switch (language) {
        case "python": {
            const python = built(path.join(toolDir("python-pulumi", `v${PYTHON_PULUMI_VERSION}`), "bin", "python"));
            return {
                runner: { command: python, args: [path.join(__dirname, "python_program_server.py")] },
                env,
                prepare: (programDir) => {
                    // As requirements.txt installs it: pip builds and installs the generated package (its
                    // requirements are in the environment already), here into a folder of the program's own.
                    const sdk = path.join(programDir, "sdk", "python");
                    const site = path.join(programDir, "sdk", "site-packages");
                    generateSdk("python", sdk);
                    execFileSync(
                        python,
                        ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", "--no-build-isolation", "--target", site, sdk],
                        {
                            stdio: ["ignore", "ignore", "pipe"],
                        },
                    );
                    return { PYTHONPATH: site };
                },
            };
        }
        case "go":
            return {
                runner: {
                    command: process.execPath,
                    args: [...TYPESCRIPT_REQUIRE, path.join(__dirname, "goProgramServer.ts")],
                },
                env: { ...env, GOFLAGS: "-mod=mod" },
                prepare: (programDir) => {
                    const sdk = path.join(programDir, "sdk", "go");
                    generateSdk("go", sdk);
                    fs.writeFileSync(
                        path.join(sdk, "go.mod"),
                        `module github.com/pulumi-platform/pulumi-platform/sdk/go\n\ngo 1.26\n\nrequire github.com/pulumi/pulumi/sdk/v3 v${PULUMI_SDK_MATCH}\n`,
                    );
                    return {};
                },
            };
        case "yaml":
            return { runner: "host", env, prepare: () => ({}) };
    }
}

/** A stack of the program at `example` in `language` under the CLI the tier runs, its SDK generated into its folder. */
export async function languageStack(
    language: Language,
    example: string,
    settings: { config?: Record<string, string>; secrets?: Record<string, string>; stack?: string },
): Promise<CliStack> {
    const setup = await languageSetup(language);
    const stack = await CliStack.create({ example, version: PULUMI_SDK_MATCH, runner: setup.runner, env: setup.env, ...settings });
    try {
        stack.addEnv(setup.prepare(stack.programDir));
    } catch (error) {
        stack.dispose();
        throw error;
    }
    return stack;
}
