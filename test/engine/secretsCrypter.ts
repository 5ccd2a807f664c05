// Encrypts secret values for the state file with a key derived from PULUMI_CONFIG_PASSPHRASE, like the engine's
// passphrase secrets provider: secrets never reach the file in plaintext.
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from "crypto";

/**
 * scrypt's cost by ciphertext version: v2's is 2^10 (2.5 ms a key), v1's Node's default 2^14 (60 ms), which a test run
 * paid several hundred times (a new stack is a new salt). v1 is still read: a state file written before stays readable.
 */
const COSTS: Record<string, number> = { v1: 16384, v2: 1024 };
const VERSION = "v2";
const TAG_BYTES = 16;

/** Derived keys by passphrase, salt and cost: the in-process engine stands for many CLI runs, each of which derives it once. */
const keys = new Map<string, Buffer>();

export class SecretsCrypter {
    constructor(
        private readonly passphrase: string,
        readonly salt: string,
    ) {}

    static newSalt(): string {
        return randomBytes(16).toString("base64");
    }

    encrypt(plaintext: string): string {
        const iv = randomBytes(12);
        const cipher = createCipheriv("aes-256-gcm", this.key(VERSION), iv);
        const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
        return `${VERSION}:${iv.toString("base64")}:${body.toString("base64")}`;
    }

    decrypt(ciphertext: string): string {
        const [version, iv, body] = ciphertext.split(":");
        if (COSTS[version] === undefined || !iv || !body) throw new Error("unrecognized secret ciphertext in the state file");
        try {
            return openSealed(this.key(version), iv, body);
        } catch {
            throw new Error("cannot decrypt the secrets in the state file: incorrect PULUMI_CONFIG_PASSPHRASE");
        }
    }

    private key(version: string): Buffer {
        const id = JSON.stringify([this.passphrase, this.salt, version]);
        let key = keys.get(id);
        if (key === undefined) keys.set(id, (key = scryptSync(this.passphrase, Buffer.from(this.salt, "base64"), 32, { N: COSTS[version] })));
        return key;
    }
}

/** AES-256-GCM: the text sealed in `sealed` (the ciphertext, then its 16-byte tag) under `key` and `nonce`, both base64. */
export function openSealed(key: Buffer, nonce: string, sealed: string): string {
    const bytes = Buffer.from(sealed, "base64");
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(nonce, "base64"));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]).toString("utf8");
}
