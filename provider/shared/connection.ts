// The connection settings of every client a provider makes for a resource: its TLS settings, its debug lines, and the
// host's cancellation (a cancelled run sends nothing more; see hostLifetime.ts).
import type { ConnectionSettings, TlsSettings } from "../../sdk/http/transport";
import { debugLogFor } from "./debugLog";
import { hostSignal } from "./hostLifetime";

export function connectionFor(subject: string, tls?: TlsSettings): ConnectionSettings {
    return { tls, log: debugLogFor(subject), signal: hostSignal };
}
