// The one leak scan of the suites. In the reliability suite every run's printed output, error messages, stack outputs and
// state file go through it as the run ends, and it keeps them, so that the suite's last test can scan
// everything again against every secret and token known by then. A leak is: a client secret or other
// credential the suite handed out, a token the emulator issued (read back from the token disk caches, the only
// place allowed to hold one), or anything shaped like the emulator's tokens (JWTs).
import * as assert from "assert";
import * as fs from "fs";
import * as path from "path";

export const JWT_PATTERN = /eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/;

export interface Leak {
    /** Where the text came from, e.g. `bad inputs/brokers -1: stdout`. */
    where: string;
    /** What leaked, described without repeating it. */
    what: string;
}

export class SecretLedger {
    private readonly secrets = new Map<string, string>();
    private readonly tokens = new Set<string>();
    private readonly produced: { where: string; text: string }[] = [];
    private readonly tokenDirs = new Set<string>();

    /** A credential that must never show (named for the report, never repeated in it). */
    addSecret(name: string, value: string): void {
        if (value !== "") this.secrets.set(value, name);
    }

    /** A token obtained outside the code under test (by the test itself). */
    addToken(token: string): void {
        this.tokens.add(token);
    }

    /** A directory of the token disk cache: its tokens are leaks anywhere else. */
    watchTokenCache(directory: string): void {
        this.tokenDirs.add(path.resolve(directory));
        this.collectTokens();
    }

    /** Keeps `texts` for the final scan and returns what leaked in them. */
    record(where: string, texts: Record<string, string>): Leak[] {
        this.collectTokens();
        const leaks: Leak[] = [];
        for (const [part, text] of Object.entries(texts)) {
            this.produced.push({ where: `${where}: ${part}`, text });
            leaks.push(...this.scan(`${where}: ${part}`, text));
        }
        return leaks;
    }

    /** Fails with the leaks found in `texts` (recorded for the final scan as well). */
    assertClean(where: string, texts: Record<string, string>): void {
        const leaks = this.record(where, texts);
        assert.deepStrictEqual(leaks, [], `leaks in ${where}:\n${leaks.map((leak) => `${leak.where}: ${leak.what}`).join("\n")}`);
    }

    /** Everything recorded, plus every file under `roots` but the token caches, against every secret and token known now. */
    scanEverything(roots: readonly string[]): { leaks: Leak[]; texts: number; files: number; secrets: number; tokens: number } {
        this.collectTokens();
        const leaks: Leak[] = [];
        for (const { where, text } of this.produced) leaks.push(...this.scan(where, text));
        let files = 0;
        for (const root of roots) {
            for (const file of filesUnder(root)) {
                if ([...this.tokenDirs].some((dir) => file.startsWith(dir + path.sep))) continue;
                files++;
                leaks.push(...this.scan(file, fs.readFileSync(file, "utf8")));
            }
        }
        return { leaks, texts: this.produced.length, files, secrets: this.secrets.size, tokens: this.tokens.size };
    }

    get knownTokens(): number {
        return this.tokens.size;
    }

    private scan(where: string, text: string): Leak[] {
        const leaks: Leak[] = [];
        for (const [secret, name] of this.secrets) if (text.includes(secret)) leaks.push({ where, what: `the ${name}` });
        let n = 0;
        for (const token of this.tokens) {
            n++;
            if (text.includes(token)) leaks.push({ where, what: `issued token #${n}` });
        }
        if (JWT_PATTERN.test(text)) leaks.push({ where, what: "something shaped like a token (JWT)" });
        return leaks;
    }

    private collectTokens(): void {
        for (const dir of this.tokenDirs) {
            for (const file of filesUnder(dir)) {
                if (!file.endsWith(".json")) continue;
                try {
                    const entry = JSON.parse(fs.readFileSync(file, "utf8")) as { accessToken?: unknown };
                    if (typeof entry.accessToken === "string") this.tokens.add(entry.accessToken);
                } catch {
                    // A cache file being replaced right now: read again at the next scan.
                }
            }
        }
    }
}

function filesUnder(root: string): string[] {
    if (!fs.existsSync(root)) return [];
    const found: string[] = [];
    for (const entry of fs.readdirSync(root, { withFileTypes: true })) {
        const full = path.join(root, entry.name);
        if (entry.isDirectory()) found.push(...filesUnder(full));
        else if (entry.isFile()) found.push(full);
    }
    return found;
}
