// The machine's process table (Linux /proc), as the suites look for processes a run left behind: a process is known by
// a variable of its environment, which every process a test starts inherits (the CLI passes its own to its plugins).
import * as fs from "fs";

export interface ProcessEntry {
    pid: number;
    ppid: number;
    /** Its command line, arguments joined by spaces. */
    command: string;
}

/** The live processes (zombies left out), with the environment variable `name` set to `value`. */
export function processesWith(name: string, value: string): ProcessEntry[] {
    const wanted = `${name}=${value}`;
    return liveProcesses().filter((entry) => {
        try {
            return fs.readFileSync(`/proc/${entry.pid}/environ`, "utf8").split("\0").includes(wanted);
        } catch {
            return false; // gone meanwhile
        }
    });
}

/** Every live process under `pid`. */
export function descendantsOf(pid: number, table: ProcessEntry[] = liveProcesses()): Set<number> {
    const children = new Map<number, number[]>();
    for (const entry of table) children.set(entry.ppid, [...(children.get(entry.ppid) ?? []), entry.pid]);
    const found = new Set<number>();
    const walk = (parent: number) => {
        for (const child of children.get(parent) ?? []) {
            if (found.has(child)) continue;
            found.add(child);
            walk(child);
        }
    };
    walk(pid);
    return found;
}

/** Polls `find` until it finds nothing or `timeoutMs` passed; what it found last (empty when all went). */
export async function untilGone(find: () => ProcessEntry[], timeoutMs: number): Promise<ProcessEntry[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
        const left = find();
        if (left.length === 0 || Date.now() >= deadline) return left;
        await new Promise((resolve) => setTimeout(resolve, 100));
    }
}

/** `pid command` lines, for a failure message. */
export function describeProcesses(entries: ProcessEntry[]): string {
    return entries.map((entry) => `  ${entry.pid} ${entry.command.slice(0, 200)}`).join("\n");
}

export function killAll(entries: ProcessEntry[]): void {
    for (const entry of entries) {
        try {
            process.kill(entry.pid, "SIGKILL");
        } catch {
            // gone already
        }
    }
}

function liveProcesses(): ProcessEntry[] {
    const entries: ProcessEntry[] = [];
    for (const name of fs.readdirSync("/proc")) {
        if (!/^\d+$/.test(name)) continue;
        try {
            // pid (comm) state ppid …: the command may hold spaces and parentheses, so read after the last ")".
            const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
            const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
            if (state === "Z" || state === "X") continue;
            const command = fs.readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0").join(" ").trim();
            entries.push({ pid: Number(name), ppid: Number(ppid), command });
        } catch {
            // exited meanwhile
        }
    }
    return entries;
}
