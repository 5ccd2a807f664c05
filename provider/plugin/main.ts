// The entry of the provider plugin `platform` (plugin/PulumiPlugin.yaml runs it through the Node language host;
// plugin/pulumi-resource-platform runs it with node directly): serves the engine's provider protocol.
import "../../sdk/nodeSupport"; // first: an older Node is refused before anything else loads
import * as fs from "fs";
import * as path from "path";
import { EngineLog, engineAddressOf } from "./engineLog";
import { PlanLines, providerPreviewDisabled } from "./planLines";
import { PlatformProvider } from "./platformProvider";
import { serveProvider } from "./providerServer";
import { stopWithEngine } from "../shared/hostLifetime";

const pluginDir = path.resolve(__dirname, "..", "..", "..", "plugin");
const schema = fs.readFileSync(path.join(pluginDir, "schema.json"), "utf8");
const version = (JSON.parse(schema) as { version: string }).version;
const engineAddress = engineAddressOf(process.argv.slice(2));
const log = engineAddress === undefined ? undefined : new EngineLog(engineAddress);
stopWithEngine();
// A failure nobody awaited is the call's own to report: the plugin serves on (as a dynamic-provider host does).
process.on("unhandledRejection", (error) => process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`));

// The engine reads the port from the first line; the providers' lines go to the engine after it, a plan's held until
// the engine says whether it runs a preview.
const plan = new PlanLines((line) => log?.line(line), !providerPreviewDisabled(process.env));
void serveProvider(new PlatformProvider(version, schema, () => log?.flushed() ?? Promise.resolve(), plan)).then((port) => {
    process.stdout.write(`${port}\n`);
    log?.capture((line) => plan.line(line));
});
