// The local stand-in of the platform: token issuer, administration API, cluster management API and
// gateway topology on loopback ports, plus a control API for tests. See emulator.ts.

import { EmulatorControl } from "./controlApi";
import { EmulatorOptions, EmulatorUrls, PlatformEmulator } from "./emulator";

export type { EmulatorControl, NewHostedCluster, OutageInterface, ResetBody, SettingsBody } from "./controlApi";
export type { HostedClusterView } from "./admin/organization";
export type { EmulatorOptions, EmulatorUrls } from "./emulator";
export type { FaultSpec } from "./faults";
export type { RequestLogEntry } from "./requestLog";
export type { ClientCredentials, Member } from "./settings";
export { DEMO_CLIENT } from "./settings";

export interface RunningEmulator extends EmulatorUrls {
    /** The same operations as the control API, in-process. */
    control: EmulatorControl;
    close(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
    const emulator = await PlatformEmulator.start(options);
    return { ...emulator.urls(), control: emulator, close: () => emulator.close() };
}
