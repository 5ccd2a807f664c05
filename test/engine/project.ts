// A Pulumi program on disk: Pulumi.yaml (name, main), the stack's config (Pulumi.<stack>.yaml plus the
// command line), with keys namespaced the way the engine does it.
import * as fs from "fs";
import * as path from "path";

export interface Project {
    name: string;
    /** Absolute program directory (where Pulumi.yaml is): the cwd of the program and of the provider host. */
    dir: string;
    /** Absolute path of the entry module: `main` of Pulumi.yaml, else the directory itself (its index). */
    entry: string;
}

export interface ConfigValue {
    value: string;
    secret: boolean;
}

/** Full stack config by namespaced key (`project:key`, `aws:region`). */
export type StackConfig = Record<string, ConfigValue>;

// js-yaml ships with @pulumi/pulumi (which parses these same files with it); load it from there.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a module found at run time, by path
const yaml = require(require.resolve("js-yaml", { paths: [path.dirname(require.resolve("@pulumi/pulumi/package.json"))] })) as {
    load(text: string): unknown;
};

export function loadProject(programDir: string): Project {
    const dir = path.resolve(programDir);
    const file = path.join(dir, "Pulumi.yaml");
    if (!fs.existsSync(file)) throw new Error(`no Pulumi.yaml in ${dir}`);
    const document = readYamlObject(file);
    const name = document.name;
    if (typeof name !== "string" || name === "") throw new Error(`${file}: "name" is required`);
    const main = document.main;
    if (main !== undefined && typeof main !== "string") throw new Error(`${file}: "main" must be a path`);
    return { name, dir, entry: path.resolve(dir, main ?? ".") };
}

/**
 * Project config defaults, then Pulumi.<stack>.yaml, then the command line. Encrypted (`secure:`) values cannot be
 * read without the Pulumi CLI: pass them with --secret instead.
 */
export function loadStackConfig(project: Project, stack: string, plain: Record<string, string>, secrets: Record<string, string>): StackConfig {
    const config: StackConfig = {};
    const set = (key: string, value: string, secret: boolean) => {
        config[namespaced(project.name, key)] = { value, secret };
    };
    const projectFile = path.join(project.dir, "Pulumi.yaml");
    for (const [key, declared] of Object.entries(asObject(readYamlObject(projectFile).config, projectFile))) {
        const value = isPlainObject(declared) ? (declared.default ?? declared.value) : declared;
        if (value !== undefined) set(key, configText(value), false);
    }
    const stackFile = path.join(project.dir, `Pulumi.${stack}.yaml`);
    if (fs.existsSync(stackFile)) {
        for (const [key, value] of Object.entries(asObject(readYamlObject(stackFile).config, stackFile))) {
            if (isPlainObject(value) && "secure" in value) {
                throw new Error(`${stackFile}: "${key}" is encrypted; pass it with --secret ${key}=VALUE instead`);
            }
            set(key, configText(value), false);
        }
    }
    for (const [key, value] of Object.entries(plain)) set(key, value, false);
    for (const [key, value] of Object.entries(secrets)) set(key, value, true);
    return config;
}

export function namespaced(projectName: string, key: string): string {
    return key.includes(":") ? key : `${projectName}:${key}`;
}

/** Config values are text; structured values travel as JSON text, as the engine passes them. */
function configText(value: unknown): string {
    return typeof value === "string" ? value : JSON.stringify(value);
}

function readYamlObject(file: string): Record<string, unknown> {
    return asObject(yaml.load(fs.readFileSync(file, "utf8")) ?? {}, file);
}

function asObject(value: unknown, file: string): Record<string, unknown> {
    if (value === undefined || value === null) return {};
    if (!isPlainObject(value)) throw new Error(`${file}: expected a mapping`);
    return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
    return typeof value === "object" && value !== null && !Array.isArray(value);
}
