// The lock a command that writes the state holds, as the CLI's self-managed backends keep one (and Pulumi Cloud an
// update in progress): an up, a refresh or a destroy takes it and gives it back when it ends, so a killed one leaves it,
// and every later up, refresh or destroy refuses in the CLI's words until `pulumi cancel` lifts it. A preview neither
// takes nor checks it.
import * as fs from "fs";

export const LOCKED_MESSAGE =
    "the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete the lock file with `pulumi cancel`.";

export class StackLock {
    private readonly file: string;

    constructor(stateFile: string) {
        this.file = `${stateFile}.lock`;
    }

    get held(): boolean {
        return fs.existsSync(this.file);
    }

    take(): void {
        fs.writeFileSync(this.file, `${process.pid}\n`, { mode: 0o600 });
    }

    release(): void {
        fs.rmSync(this.file, { force: true });
    }
}
