// The `tls` input of ClusterScale and AdminClient: a private CA to trust and a client certificate, as PEM text.
// The provider receives it in plaintext; resources keep it as a secret (it may hold a private key).

import { objectInput } from "./objectInput";

export interface TlsInput {
    caCertificate?: string;
    clientCertificate?: string;
    clientKey?: string;
}

/** PEM text only; never echoes it in a failure (a key is a secret, and certificates are long). */
export function checkTls(value: unknown, fail: (property: string, reason: string) => void): TlsInput | undefined {
    const known = ["caCertificate", "clientCertificate", "clientKey"];
    const input = objectInput(value, "tls", known, "caCertificate, and clientCertificate with clientKey (PEM text)", fail);
    if (input.kind === "unknown") return value as TlsInput;
    if (input.kind !== "object") return undefined;
    const raw = input.fields;
    const tls: TlsInput = {};
    let ok = true;
    for (const key of known as (keyof TlsInput)[]) {
        const field = raw[key];
        if (field === undefined || field === null) continue;
        if (typeof field !== "string" || !field.includes("-----BEGIN ")) {
            fail(`tls.${key}`, `tls.${key} must be PEM text (-----BEGIN …-----)`);
            ok = false;
        } else {
            tls[key] = field;
        }
    }
    if (ok && (tls.clientCertificate === undefined) !== (tls.clientKey === undefined)) {
        fail("tls", "tls.clientCertificate and tls.clientKey go together: give both or neither");
        ok = false;
    }
    return ok ? tls : undefined;
}
