// Certificates made for a test with the openssl command line: a private CA, a server certificate for 127.0.0.1 and
// localhost signed by it, and a client certificate signed by it. Nothing here is trusted by the system.
import { execFileSync } from "child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";

export interface TlsMaterial {
    caCertificate: string;
    serverCertificate: string;
    serverKey: string;
    clientCertificate: string;
    clientKey: string;
    /** A file holding the CA certificate (for PLATFORM_TLS_CA_FILE). */
    caFile: string;
    /** Removes the files. */
    remove(): void;
}

export function makeTlsMaterial(): TlsMaterial {
    const dir = mkdtempSync(join(tmpdir(), "platform-tls-"));
    const file = (name: string) => join(dir, name);
    const { sign } = makeCertificateAuthority(dir, "pulumi-platform test CA");
    sign("server", "/CN=127.0.0.1", "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n");
    sign("client", "/CN=platform-ci", "extendedKeyUsage=clientAuth\n");
    const read = (name: string) => readFileSync(file(name), "utf8");
    return {
        caCertificate: read("ca.crt"),
        serverCertificate: read("server.crt"),
        serverKey: read("server.key"),
        clientCertificate: read("client.crt"),
        clientKey: read("client.key"),
        caFile: file("ca.crt"),
        remove: () => rmSync(dir, { recursive: true, force: true }),
    };
}

let shared: TlsMaterial | undefined;

/**
 * One set for the whole process, for the fixtures that only need some CA (not one of their own): openssl costs a
 * quarter of a CPU-second per set. Its files go when the process exits; its `remove` does nothing.
 */
export function sharedTlsMaterial(): TlsMaterial {
    if (shared === undefined) {
        const made = makeTlsMaterial();
        process.once("exit", () => made.remove());
        shared = { ...made, remove: () => undefined };
    }
    return shared;
}

/**
 * A private CA in `dir` (ca.crt, ca.key) and what signs with it: `sign(name, subject, extensions)` writes `<name>.key`
 * and `<name>.crt` (EC P-256, two days) there.
 */
export function makeCertificateAuthority(dir: string, commonName: string): { sign(name: string, subject: string, extensions: string): void } {
    const openssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
    const newKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
    openssl("req", "-x509", ...newKey, "-keyout", "ca.key", "-out", "ca.crt", "-days", "2", "-subj", `/CN=${commonName}`);
    return {
        sign(name, subject, extensions) {
            writeFileSync(join(dir, `${name}.ext`), extensions);
            openssl("req", ...newKey, "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", subject);
            openssl(
                "x509",
                "-req",
                "-in",
                `${name}.csr`,
                "-CA",
                "ca.crt",
                "-CAkey",
                "ca.key",
                "-CAcreateserial",
                "-out",
                `${name}.crt`,
                "-days",
                "2",
                "-extfile",
                `${name}.ext`,
            );
        },
    };
}
