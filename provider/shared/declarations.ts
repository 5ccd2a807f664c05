// The input types several resources share, declared once for the package schema (see ../plugin/schema.ts): their
// fields, types and descriptions. Each resource's checks stay its own (they word the failures); a type test holds
// these to the TypeScript API (test/provider/declarations.spec.ts).
import { z } from "zod";

export const tlsDeclaration = z
    .object({
        caCertificate: z.string().optional().describe("CA certificate(s) to trust besides the system's (and besides PLATFORM_TLS_CA_FILE), PEM text."),
        clientCertificate: z.string().optional().describe("Client certificate, for endpoints that require one (with clientKey), PEM text."),
        clientKey: z.string().optional().describe("Private key of the client certificate, PEM text."),
    })
    .meta({ id: "Tls", description: "TLS for APIs behind HTTPS with a private CA or client certificates (PEM text)." });

export const adminCredentialsDeclaration = z
    .object({
        clientId: z.string().optional().describe("Else the environment variable PLATFORM_CONSOLE_CLIENT_ID."),
        clientSecret: z.string().optional().describe("Else the environment variable PLATFORM_CONSOLE_CLIENT_SECRET."),
        oauthUrl: z.string().optional().describe("The token issuer's endpoint. Else PLATFORM_OAUTH_URL."),
        audience: z.string().optional().describe("Else PLATFORM_CONSOLE_OAUTH_AUDIENCE, else the host name of baseUrl."),
        baseUrl: z.string().optional().describe("Base URL of the administration API. Else PLATFORM_CONSOLE_BASE_URL."),
        tls: tlsDeclaration.optional().describe("A private CA to trust and a client certificate, for the token issuer and the administration API."),
    })
    .meta({
        id: "AdminCredentials",
        description:
            "How an administration resource reaches the API: each setting falls back to an environment variable. Stored as a secret; a client secret from the environment is never stored.",
    });
