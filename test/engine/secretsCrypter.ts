// Encrypts secret values for the state file with a key derived from PULUMI_CONFIG_PASSPHRASE, like the engine's
// passphrase secrets provider: secrets never reach the file in plaintext.
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from "crypto";

const VERSION = "v1";

/** Derived keys by passphrase and salt: the in-process engine stands for many CLI runs, each of which derives it once. */
const keys = new Map<string, Buffer>();

export class SecretsCrypter {
    private readonly key: Buffer;

    constructor(
        passphrase: string,
        readonly salt: string,
    ) {
        const id = JSON.stringify([passphrase, salt]);
        let key = keys.get(id);
        if (key === undefined) keys.set(id, (key = scryptSync(passphrase, Buffer.from(salt, "base64"), 32)));
        this.key = key;
    }

    static newSalt(): string {
        return randomBytes(16).toString("base64");
    }

    encrypt(plaintext: string): string {
        const iv = randomBytes(12);
        const cipher = createCipheriv("aes-256-gcm", this.key, iv);
        const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
        return `${VERSION}:${iv.toString("base64")}:${body.toString("base64")}`;
    }

    decrypt(ciphertext: string): string {
        const [version, iv, body] = ciphertext.split(":");
        if (version !== VERSION || !iv || !body) throw new Error("unrecognized secret ciphertext in the state file");
        const bytes = Buffer.from(body, "base64");
        const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64"));
        decipher.setAuthTag(bytes.subarray(bytes.length - 16));
        try {
            return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString("utf8");
        } catch {
            throw new Error("cannot decrypt the secrets in the state file: incorrect PULUMI_CONFIG_PASSPHRASE");
        }
    }
}
