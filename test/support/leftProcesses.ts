// After each test, in every tier: no process the test started may outlive it. Every process a test process starts
// carries that process's mark in its environment (programs, hosts, the CLI and the plugins the CLI starts inherit
// it); one that is no longer under the test process (its starter died, as a killed CLI's provider hosts do) is left
// behind. A host notices at once that its engine is gone, and exiting takes a moment, so the check gives them 10 s;
// then it fails naming them, and kills them so that they spoil no later test.
import { describeProcesses, descendantsOf, killAll, processesWith, untilGone } from "./processTable";

const MARK = "PLATFORM_TEST_STARTED_BY";
const GRACE_MS = 10_000;

process.env[MARK] = String(process.pid);

/** The processes this test process started, directly or not, that are no longer under it. */
export function leftBehind() {
    const under = descendantsOf(process.pid);
    return processesWith(MARK, String(process.pid)).filter((entry) => entry.pid !== process.pid && !under.has(entry.pid));
}

export const mochaHooks = {
    async afterEach(this: Mocha.Context): Promise<void> {
        if (leftBehind().length === 0) return;
        this.timeout(GRACE_MS + 5_000);
        const left = await untilGone(leftBehind, GRACE_MS);
        if (left.length === 0) return;
        killAll(left);
        throw new Error(`processes the test started were still running ${GRACE_MS / 1000} s after it ended:\n${describeProcesses(left)}`);
    },
};
