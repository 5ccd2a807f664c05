// The entry of the provider plugin `platform` (plugin/PulumiPlugin.yaml runs it through the Node language host;
// plugin/pulumi-resource-platform runs it with node directly): serves the engine's provider protocol.
import * as fs from "fs";
import * as path from "path";
import { main } from "@pulumi/pulumi/provider";
import { EngineLog, engineAddressOf } from "./engineLog";
import { PlatformProvider } from "./platformProvider";
import { stopWithEngine } from "../shared/hostLifetime";

const pluginDir = path.resolve(__dirname, "..", "..", "..", "plugin");
const schema = fs.readFileSync(path.join(pluginDir, "schema.json"), "utf8");
const version = (JSON.parse(schema) as { version: string }).version;
const args = process.argv.slice(2);
const engineAddress = engineAddressOf(args);
const log = engineAddress === undefined ? undefined : new EngineLog(engineAddress);
stopWithEngine();

// main prints the port the engine reads first; the providers' lines go to the engine after it.
void main(new PlatformProvider(version, schema, () => log?.flushed() ?? Promise.resolve()), args).then(() => log?.capture());
