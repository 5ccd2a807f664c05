// One JSON file per stack: what the engine keeps for each resource, keyed by URN. Secret values are stored
// encrypted (see SecretsCrypter); every write replaces the file atomically.
import * as fs from "fs";
import * as path from "path";
import { SecretsCrypter } from "./secretsCrypter";
import { isObject, isSecret, PropertyMap, PropertyValue, SECRET_SIG, SECRET_SIG_KEY } from "./propertyValues";

export interface ResourceState {
    type: string;
    /** false for component resources (no provider, no id). */
    custom: boolean;
    id?: string;
    parent?: string;
    inputs: PropertyMap;
    outputs: PropertyMap;
    /** URNs this resource depends on (its parent excluded). */
    dependencies: string[];
    /** Set by a partial failure; the next `up` updates the resource. */
    initErrors?: string[];
    /** Deleted by a delete-before-replace whose create has not happened yet. */
    pendingReplacement?: boolean;
    /** The provider of a custom resource, `<provider urn>::<provider id>` (the default provider of its package). */
    provider?: string;
}

/** A resource replaced create-before-delete whose old instance still has to be deleted. */
export interface PendingDelete extends ResourceState {
    urn: string;
}

/** A provider call that was under way: still listed only when the run was interrupted during it. */
export interface PendingOperation {
    urn: string;
    type: string;
    operation: "creating" | "updating" | "deleting";
}

export interface StackState {
    resources: Record<string, ResourceState>;
    pendingDeletes: PendingDelete[];
    pendingOperations: PendingOperation[];
}

interface StateFileContent extends StackState {
    version: 1;
    secretsSalt?: string;
}

export function emptyState(): StackState {
    return { resources: {}, pendingDeletes: [], pendingOperations: [] };
}

export function defaultStateFile(programDir: string, stack: string): string {
    return path.join(programDir, ".pulumi-state", `${stack}.json`);
}

export class StateFile {
    private crypter?: SecretsCrypter;
    private salt?: string;

    constructor(
        readonly file: string,
        private readonly passphrase: string | undefined,
    ) {}

    load(): StackState {
        if (!fs.existsSync(this.file)) return emptyState();
        const content = JSON.parse(fs.readFileSync(this.file, "utf8")) as StateFileContent;
        if (content.version !== 1) throw new Error(`${this.file}: unsupported state file version ${String(content.version)}`);
        this.salt = content.secretsSalt;
        const stored = {
            resources: content.resources,
            pendingDeletes: content.pendingDeletes ?? [],
            pendingOperations: content.pendingOperations ?? [],
        } as unknown as PropertyValue;
        const decrypted = this.mapSecrets(stored, (secret) => ({
            [SECRET_SIG_KEY]: SECRET_SIG,
            value: JSON.parse(this.crypt().decrypt(String(secret.ciphertext))) as PropertyValue,
        }));
        return decrypted as unknown as StackState;
    }

    save(state: StackState): void {
        const encrypted = this.mapSecrets(state as unknown as PropertyValue, (secret) => ({
            [SECRET_SIG_KEY]: SECRET_SIG,
            ciphertext: this.crypt().encrypt(JSON.stringify(secret.value)),
        })) as unknown as StackState;
        const content: StateFileContent = {
            version: 1,
            ...(this.salt ? { secretsSalt: this.salt } : {}),
            resources: encrypted.resources,
            pendingDeletes: encrypted.pendingDeletes,
            pendingOperations: encrypted.pendingOperations,
        };
        fs.mkdirSync(path.dirname(this.file), { recursive: true });
        const temporary = `${this.file}.${process.pid}.tmp`;
        fs.writeFileSync(temporary, JSON.stringify(content, null, 2) + "\n", { mode: 0o600 });
        fs.renameSync(temporary, this.file);
    }

    private crypt(): SecretsCrypter {
        if (this.crypter) return this.crypter;
        if (this.passphrase === undefined) {
            throw new Error("the state holds secret values: set PULUMI_CONFIG_PASSPHRASE to encrypt and decrypt them");
        }
        this.salt ??= SecretsCrypter.newSalt();
        this.crypter = new SecretsCrypter(this.passphrase, this.salt);
        return this.crypter;
    }

    private mapSecrets(value: PropertyValue, f: (secret: { [key: string]: PropertyValue }) => PropertyValue): PropertyValue {
        if (isSecret(value)) return f(value);
        if (Array.isArray(value)) return value.map((v) => this.mapSecrets(v, f));
        if (isObject(value)) {
            const result: PropertyMap = {};
            for (const [key, v] of Object.entries(value)) result[key] = this.mapSecrets(v, f);
            return result;
        }
        return value;
    }
}
