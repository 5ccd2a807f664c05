// The soaks' kill: a run whose processes are killed (SIGKILL) this long after it printed a line of the phase. A run
// that never prints one is not killed.

export interface KillableOptions {
    signal: AbortSignal;
    onLine: (line: string) => void;
}

export async function killedAtLine<T>(run: (options: KillableOptions) => Promise<T>, phase: RegExp, afterMs: number): Promise<T> {
    const kill = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    try {
        return await run({
            signal: kill.signal,
            onLine: (line) => {
                if (timer === undefined && phase.test(line)) timer = setTimeout(() => kill.abort(), afterMs);
            },
        });
    } finally {
        clearTimeout(timer);
    }
}
