// The `tls` input of the resources that reach an API over HTTPS (ClusterScale, and the administration resources'
// `credentials`).
import type * as pulumi from "@pulumi/pulumi";

/** TLS for APIs behind HTTPS with a private CA or client certificates (PEM text). */
export interface TlsArgs {
    /** CA certificate(s) to trust besides the system's (and besides PLATFORM_TLS_CA_FILE). */
    caCertificate?: pulumi.Input<string>;
    /** Client certificate, for endpoints that require one (with clientKey). */
    clientCertificate?: pulumi.Input<string>;
    /** Private key of the client certificate. */
    clientKey?: pulumi.Input<string>;
}
