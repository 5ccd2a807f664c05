// undici, loaded at the first request instead of with the SDK: a provider host whose calls send nothing (the Check
// of a resource already in the state, AdminClient's Check) never pays the ~35 ms that loading it costs.
import "../nodeSupport"; // an older Node is refused, naming the supported lines, when the SDK loads
import type * as Undici from "undici";

let loaded: typeof Undici | undefined;

export function undici(): typeof Undici {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
    return (loaded ??= require("undici") as typeof Undici);
}
