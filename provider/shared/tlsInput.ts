// The `tls` input of ClusterScale and AdminClient: a private CA to trust and a client certificate, as PEM text.
// The provider receives it in plaintext; resources keep it as a secret (it may hold a private key).

import { z } from "zod";
import { checkObjectInput } from "./objectSchema";

const pem = z.string().includes("-----BEGIN ").nullish();

const tlsSchema = z
    .object({ caCertificate: pem, clientCertificate: pem, clientKey: pem })
    .refine((tls) => (tls.clientCertificate == null) === (tls.clientKey == null), {
        message: "tls.clientCertificate and tls.clientKey go together: give both or neither",
    });

const REASONS = Object.fromEntries(["caCertificate", "clientCertificate", "clientKey"].map((key) => [key, `tls.${key} must be PEM text (-----BEGIN …-----)`]));

export interface TlsInput {
    caCertificate?: string;
    clientCertificate?: string;
    clientKey?: string;
}

/** PEM text only; never echoes it in a failure (a key is a secret, and certificates are long). */
export function checkTls(value: unknown, fail: (property: string, reason: string) => void): TlsInput | undefined {
    const checked = checkObjectInput(
        value,
        "tls",
        tlsSchema,
        { shape: "caCertificate, and clientCertificate with clientKey (PEM text)", reasons: REASONS },
        fail,
    );
    if (checked.kind === "unknown") return value as TlsInput;
    if (checked.kind !== "valid") return undefined;
    const tls: TlsInput = {};
    for (const [key, text] of Object.entries(checked.value)) if (typeof text === "string") tls[key as keyof TlsInput] = text;
    return tls;
}
