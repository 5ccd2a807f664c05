// The replace directives of a module's go.mod that a scratch module requiring it must repeat: those that point to
// another module version (a local folder does not travel with the module, and the scratch module requires the
// module's own published siblings instead).
import * as fs from "fs";
import * as path from "path";

export function nonLocalReplaces(moduleFolder: string): string[] {
    const text = fs.readFileSync(path.join(moduleFolder, "go.mod"), "utf8");
    const lines: string[] = [];
    const block = /^replace\s*\(([\s\S]*?)^\)/gm;
    for (const match of text.matchAll(block)) lines.push(...match[1].split("\n"));
    for (const match of text.matchAll(/^replace\s+([^(\s].*)$/gm)) lines.push(match[1]);
    return lines
        .map((line) => line.replace(/\/\/.*$/, "").trim())
        .filter((line) => line.includes("=>"))
        .filter((line) => {
            const target = line.split("=>")[1].trim();
            return !target.startsWith("./") && !target.startsWith("../") && !target.startsWith("/");
        })
        .map((line) => `replace ${line}`);
}
