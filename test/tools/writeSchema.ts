// npm run schema: writes plugin/schema.json from the resources' declarations (provider/plugin/schema.ts), with the
// package's version, formatted as the formatter keeps every file. test/provider/pluginSchema.spec.ts fails when the
// file and the declarations differ.
import * as fs from "fs";
import * as path from "path";
import * as prettier from "prettier";
import { type PackageInfo, packageSchema } from "../../provider/plugin/schema";

export const REPOSITORY = path.resolve(__dirname, "..", "..");
export const SCHEMA_FILE = path.join(REPOSITORY, "plugin", "schema.json");

/** package.json's version and repository (its URL without git+ and .git). */
export function packageInfo(): PackageInfo {
    const manifest = JSON.parse(fs.readFileSync(path.join(REPOSITORY, "package.json"), "utf8")) as { version: string; repository: { url: string } };
    return { version: manifest.version, repository: manifest.repository.url.replace(/^git\+/, "").replace(/\.git$/, "") };
}

async function write(): Promise<void> {
    const options = { ...(await prettier.resolveConfig(SCHEMA_FILE)), filepath: SCHEMA_FILE };
    fs.writeFileSync(SCHEMA_FILE, await prettier.format(JSON.stringify(packageSchema(packageInfo())), options));
}

if (require.main === module) void write();
