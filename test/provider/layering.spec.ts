// What several resources use lives below them: provider/shared/ imports from no resource's folder, and no resource's
// folder imports from another's, so each resource can be served by another door without the others. The doors above
// them all (provider/plugin/, as index.ts for TypeScript) may import every resource; no resource imports a door.
import assert from "node:assert/strict";
import * as fs from "fs";
import * as path from "path";

const PROVIDER = path.resolve(__dirname, "..", "..", "provider");

function sourcesUnder(dir: string): string[] {
    return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const full = path.join(dir, entry.name);
        return entry.isDirectory() ? sourcesUnder(full) : entry.name.endsWith(".ts") ? [full] : [];
    });
}

/** The provider folders a file imports from (resolved relative imports that land in provider/<folder>/). */
function foldersImported(file: string): string[] {
    const text = fs.readFileSync(file, "utf8");
    const specifiers = [...text.matchAll(/from "(\.[^"]+)"/g)].map((match) => match[1]);
    return specifiers
        .map((specifier) => path.relative(PROVIDER, path.resolve(path.dirname(file), specifier)))
        .filter((relative) => !relative.startsWith("..") && relative.includes(path.sep))
        .map((relative) => relative.split(path.sep)[0]);
}

describe("provider/: the layering of resources and what they share", () => {
    const DOORS = ["plugin"];
    const folders = fs
        .readdirSync(PROVIDER, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && !DOORS.includes(entry.name))
        .map((entry) => entry.name);

    it("provider/shared imports from no resource's folder", () => {
        const upward = sourcesUnder(path.join(PROVIDER, "shared")).flatMap((file) =>
            foldersImported(file)
                .filter((folder) => folder !== "shared")
                .map((folder) => `${path.relative(PROVIDER, file)} → ${folder}/`),
        );
        assert.deepEqual(upward, []);
    });

    it("no resource's folder imports from another resource's folder", () => {
        const across = folders
            .filter((folder) => folder !== "shared")
            .flatMap((folder) =>
                sourcesUnder(path.join(PROVIDER, folder)).flatMap((file) =>
                    foldersImported(file)
                        .filter((other) => other !== folder && other !== "shared")
                        .map((other) => `${path.relative(PROVIDER, file)} → ${other}/`),
                ),
            );
        assert.deepEqual(across, []);
    });

    it("no resource's folder, nor shared/, imports a door (provider/plugin/)", () => {
        const up = folders.flatMap((folder) =>
            sourcesUnder(path.join(PROVIDER, folder)).flatMap((file) =>
                foldersImported(file)
                    .filter((other) => DOORS.includes(other))
                    .map((other) => `${path.relative(PROVIDER, file)} → ${other}/`),
            ),
        );
        assert.deepEqual(up, []);
    });
});
