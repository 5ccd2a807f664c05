// A stack's deployment as the file backend holds it, with its secrets decrypted by the stack's passphrase: what
// `pulumi stack export --show-secrets` prints, read without a CLI run (each run derives the passphrase's key: 1,000,000
// rounds of PBKDF2, about 0.2 CPU-seconds). The passphrase secrets provider's scheme: the deployment's
// `secrets_providers.state.salt` is `v1:<salt>:<"pulumi" encrypted>`, the key PBKDF2-SHA256 of the passphrase and the
// salt, each secret `v1:<nonce>:<AES-256-GCM ciphertext and tag>`, all base64.
import * as crypto from "crypto";
import * as fs from "fs";
import * as path from "path";
import { type PropertyValue, SECRET_SIG, SECRET_SIG_KEY, isObject, isSecret, maskSecrets } from "../engine/propertyValues";
import { openSealed } from "../engine/secretsCrypter";
import type { StackExport } from "./cliStack";

const KDF_ROUNDS = 1_000_000;

type SavedDeployment = StackExport["deployment"] & { secrets_providers?: { type: string; state?: { salt?: string } } };

interface Checkpoint {
    version: number;
    checkpoint: { latest?: SavedDeployment };
}

/** Keys by salt: a stack's key is derived once. */
const keys = new Map<string, Buffer>();

/** The deployment as the file holds it, its secrets encrypted (as `stack export` prints it). */
export function savedDeployment(backendDir: string, stack: string): StackExport {
    const checkpoint = JSON.parse(fs.readFileSync(checkpointFile(backendDir, stack), "utf8")) as Checkpoint;
    return { version: checkpoint.version, deployment: checkpoint.checkpoint.latest ?? {} };
}

/** The deployment with its secrets decrypted (as `stack export --show-secrets` prints it). */
export function savedState(backendDir: string, stack: string, passphrase: string): StackExport {
    const { version, deployment } = savedDeployment(backendDir, stack);
    const provider = (deployment as SavedDeployment).secrets_providers;
    if (provider === undefined) return { version, deployment };
    if (provider.type !== "passphrase" || provider.state?.salt === undefined)
        throw new Error(`secrets provider ${provider.type}: only a passphrase's can be read`);
    const key = keyOf(provider.state.salt, passphrase);
    return { version, deployment: decrypted(deployment, key) as StackExport["deployment"] };
}

function checkpointFile(backendDir: string, stack: string): string {
    const stacks = path.join(backendDir, ".pulumi", "stacks");
    const [project] = fs.readdirSync(stacks).filter((name) => fs.existsSync(path.join(stacks, name, `${stack}.json`)));
    if (project === undefined) throw new Error(`no checkpoint of stack ${stack} under ${stacks}`);
    return path.join(stacks, project, `${stack}.json`);
}

function keyOf(salt: string, passphrase: string): Buffer {
    let key = keys.get(salt);
    if (key === undefined) {
        const [version, saltText, ...check] = salt.split(":");
        if (version !== "v1") throw new Error(`salt version ${version}: only v1 can be read`);
        key = crypto.pbkdf2Sync(passphrase, Buffer.from(saltText, "base64"), KDF_ROUNDS, 32, "sha256");
        if (decrypt(check.join(":"), key) !== "pulumi") throw new Error("the passphrase does not open this stack's secrets");
        keys.set(salt, key);
    }
    return key;
}

function decrypt(ciphertext: string, key: Buffer): string {
    const [version, nonce, sealed] = ciphertext.split(":");
    if (version !== "v1" || nonce === undefined || sealed === undefined) throw new Error("a secret not in the v1 form");
    return openSealed(key, nonce, sealed);
}

/** Each `{sig, ciphertext}` as the CLI shows it with --show-secrets: `{sig, plaintext}`. */
function decrypted(value: unknown, key: Buffer): unknown {
    if (Array.isArray(value)) return value.map((entry) => decrypted(entry, key));
    if (!isObject(value)) return value;
    if (isSecret(value) && typeof value.ciphertext === "string") {
        return { [SECRET_SIG_KEY]: SECRET_SIG, plaintext: decrypt(value.ciphertext, key) };
    }
    return Object.fromEntries(Object.entries(value).map(([name, entry]) => [name, decrypted(entry, key)]));
}

/** The root stack resource's outputs in a deployment, each secret as `stack output --json` shows it: `[secret]`. */
export function stackOutputsOf(deployment: StackExport["deployment"]): Record<string, unknown> {
    const stack = (deployment.resources ?? []).find((resource) => resource.type === "pulumi:pulumi:Stack");
    return Object.fromEntries(Object.entries(stack?.outputs ?? {}).map(([name, value]) => [name, maskSecrets(value as PropertyValue)]));
}
