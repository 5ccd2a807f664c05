// The one emulator lifecycle of the suites: one emulator per describe block, reset to the given layout and settings
// before each test (unless the block tells one story across its tests), closed afterwards.
import { EmulatorOptions, RunningEmulator, startEmulator } from "../emulator";

export interface UseEmulatorOptions {
    /** Reset to `settings` before each test (default true). */
    resetEach?: boolean;
    /** Also run before each test, after the reset (e.g. forgetting the process's tokens). */
    beforeEachTest?: () => void;
}

export function useEmulator(settings: EmulatorOptions = {}, options: UseEmulatorOptions = {}): () => RunningEmulator {
    let emulator: RunningEmulator | undefined;
    before(async () => {
        emulator = await startEmulator(settings);
    });
    beforeEach(() => {
        if (options.resetEach !== false) emulator?.control.reset(settings);
        options.beforeEachTest?.();
    });
    after(async () => {
        await emulator?.close();
    });
    return () => {
        if (!emulator) throw new Error("emulator not started");
        return emulator;
    };
}
