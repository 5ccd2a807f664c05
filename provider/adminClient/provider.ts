// The dynamic provider behind AdminClient: proves that a set of client credentials works and lists the
// organization's members. Nothing is created remotely; create, update and read all list the members.
//
// The client secret. A secret the program gives as an input stays an input, and create and update also
// output it as `clientSecret`: refresh gets only the old outputs, and would have no secret otherwise.
// The engine stores both encrypted (the same-named input is secret, and the resource lists the output in
// additionalSecretOutputs). A secret from stack config or the environment is read where it is used and
// is written nowhere: not into the checked inputs (the engine would store it in plain text, as it did not
// arrive as a secret input), not into the outputs. No output carries a token.
//
// Detecting a secret change. diff compares the secret input with the one in the old outputs: that is the
// secret the last create, update or refresh used. A secret from stack config or the environment is
// provider configuration, not desired state: as with any provider's credentials, changing it updates no
// resource (keeping a hash of it to compare would let anyone holding the state test guesses offline);
// the next create, update or refresh uses it. The client id, URLs and audience are compared wherever
// they come from: check writes their resolved values into the inputs, create into the outputs.
//
// A changed secret is proven. The token disk cache cannot tell which secret obtained its token, so an
// update whose secret input changed asks the issuer for a token with the new secret (once per process):
// a wrong new secret fails the update instead of riding on the old secret's cached token. create and
// refresh take a cached token when there is one, so that one token serves every resource and run.

import { randomUUID } from "crypto";
import type * as pulumi from "@pulumi/pulumi";
import { UNKNOWN, clientSecretFor, clientSecretProblem, resolveAdminSettings } from "../shared/adminSettings";
import type { AdminSettings, OrganizationMemberInfo } from "./types";
import { CONFIG_NAMESPACE, StackCredentialConfig, describeSources, readCredentialConfig } from "../shared/credentials";
import { secretChanged } from "../shared/secretChanged";
import { asResourceFailures } from "../shared/checkFailures";
import { connectionFor } from "../shared/connection";
import { attachToDynamicProviderHost } from "../shared/hostLifetime";
import { type MemberListing, listOrganizationMembers } from "./memberListing";
import { type TlsInput, checkTls } from "../shared/tlsInput";
import { PassLog } from "../shared/passes";
import { containsUnknown } from "../shared/unknowns";

/** Inputs as the engine sends them: the program's values (anything may arrive), plus what check adds. */
export interface AdminClientInputs {
    resourceName?: unknown;
    /** Whether the program runs a preview; check records it and leaves it out of the checked inputs. */
    dryRun?: unknown;
    clientId?: unknown;
    clientSecret?: unknown;
    oauthUrl?: unknown;
    audience?: unknown;
    baseUrl?: unknown;
    tls?: unknown;
}

export interface AdminClientOutputs extends AdminSettings {
    resourceName: string;
    members: OrganizationMemberInfo[];
    memberCount: number;
    tokenExpiresAt: string;
    /** The secret input the listing used, kept for refresh (encrypted by the engine). Never a secret from config or the environment. */
    clientSecret?: string;
    /** The tls input, kept for refresh (encrypted by the engine). */
    tls?: TlsInput;
}

type Outputs = Partial<AdminClientOutputs>;

const SETTING_NAMES: (keyof AdminSettings)[] = ["clientId", "oauthUrl", "audience", "baseUrl"];

export class AdminClientProvider implements pulumi.dynamic.ResourceProvider<AdminClientInputs, Outputs> {
    private stackConfig: StackCredentialConfig = {};
    /** The resources this host checked, and in which pass (the update after a preview says nothing new). */
    private readonly passes = new PassLog();

    async configure(request: pulumi.dynamic.ConfigureRequest): Promise<void> {
        attachToDynamicProviderHost();
        this.stackConfig = readCredentialConfig((name) => request.config.get(`${CONFIG_NAMESPACE}:${name}`));
    }

    /** Resolves the fallbacks and validates; never sends a request. */
    async check(_olds: AdminClientInputs, news: AdminClientInputs): Promise<pulumi.dynamic.CheckResult<AdminClientInputs>> {
        const { settings, failures } = resolveAdminSettings(news, this.stackConfig, process.env);
        const secretFailure = news.clientSecret === UNKNOWN ? undefined : clientSecretProblem(news.clientSecret, this.stackConfig, process.env);
        if (secretFailure) failures.push(secretFailure);
        const tls = checkTls(news.tls, (property, reason) => failures.push({ property, reason }));
        if (failures.length > 0) return { failures: asResourceFailures(failures) };

        this.passes.recordCheck(nameOf(news), news.dryRun === true);
        // The resolved settings, and the secret only if the program gave it (the engine keeps that one secret).
        const inputs: AdminClientInputs = { ...settings };
        if (news.resourceName !== undefined) inputs.resourceName = news.resourceName;
        if (news.clientSecret !== undefined) inputs.clientSecret = news.clientSecret;
        if (tls !== undefined) inputs.tls = tls;
        return { inputs };
    }

    async diff(_id: string, olds: Outputs, news: AdminClientInputs): Promise<pulumi.dynamic.DiffResult> {
        const changed: string[] = SETTING_NAMES.filter((name) => news[name] === UNKNOWN || olds[name] !== news[name]);
        if (secretInputChanged(olds, news)) changed.push("clientSecret");
        if (containsUnknown(news.tls) || secretChanged(olds.tls, news.tls)) changed.push("tls");
        if (changed.length > 0 && this.passes.passOf(nameOf(news)) === "preview") log(news, `${changed.join(", ")} changed: the members will be listed again`);
        return { changes: changed.length > 0 };
    }

    async create(inputs: AdminClientInputs): Promise<pulumi.dynamic.CreateResult<Outputs>> {
        const outs = await this.list(inputs, settingsOf(inputs), inputs.clientSecret, { tls: inputs.tls as TlsInput | undefined });
        return { id: randomUUID(), outs };
    }

    async update(_id: string, olds: Outputs, news: AdminClientInputs): Promise<pulumi.dynamic.UpdateResult<Outputs>> {
        const options = { verifySecret: secretInputChanged(olds, news), tls: news.tls as TlsInput | undefined };
        return { outs: await this.list(news, settingsOf(news), news.clientSecret, options) };
    }

    /** Refresh: lists the members again, so that membership drift shows. */
    async read(id: string, props?: Outputs): Promise<pulumi.dynamic.ReadResult<Outputs>> {
        const old = props ?? {};
        // The engine gives read only the old outputs: a secret input is there, kept by create or update.
        const outs = await this.list(old, settingsOf(old), old.clientSecret, { tls: old.tls });
        const before = old.memberCount;
        if (before !== undefined && before !== outs.memberCount) log(old, `was ${before} members before the refresh`);
        return { id, props: outs };
    }

    async delete(_id: string, props: Outputs): Promise<void> {
        log(props, "nothing to delete remotely (an AdminClient only reads the administration API); removed from the stack");
    }

    /** Lists the members with the given secret (an input, or kept from one), else the one from config or the environment. */
    private async list(
        resource: { resourceName?: unknown },
        settings: AdminSettings,
        givenSecret: unknown,
        options: { verifySecret?: boolean; tls?: TlsInput } = {},
    ): Promise<AdminClientOutputs> {
        const secret = clientSecretFor(givenSecret, this.stackConfig, process.env);
        if (secret === undefined) throw new Error(`No client secret: set ${describeSources("clientSecret")}`);
        const connection = connectionFor(`AdminClient "${nameOf(resource)}"`, options.tls);
        const listing = await listOrganizationMembers(settings, secret, { verifySecret: options.verifySecret, connection });
        log(resource, `${listing.members.length} members`);
        const outs = outputsOf(resource, settings, listing);
        // Only a secret that came as an input: one from config or the environment is stored nowhere.
        if (secret === givenSecret) outs.clientSecret = secret;
        if (options.tls !== undefined) outs.tls = options.tls;
        return outs;
    }
}

/** The provider object every AdminClient of the host process shares. */
export const adminClientProvider = new AdminClientProvider();

/** The entry point the serialized shim requires (ENTRY_POINTS.adminClient): a public contract, keep the name. */
export const provider = adminClientProvider;

function settingsOf(values: Partial<Record<keyof AdminSettings, unknown>>): AdminSettings {
    return {
        clientId: String(values.clientId ?? ""),
        oauthUrl: String(values.oauthUrl ?? ""),
        audience: String(values.audience ?? ""),
        baseUrl: String(values.baseUrl ?? ""),
    };
}

/**
 * Whether the secret input differs from the secret the last create, update or refresh used as an input
 * (kept in the outputs). Also true when only one of them exists: the secret moved between an input and
 * config, or the state was written before the outputs kept the secret.
 */
function secretInputChanged(olds: Outputs, news: AdminClientInputs): boolean {
    return news.clientSecret === UNKNOWN || olds.clientSecret !== news.clientSecret;
}

function outputsOf(resource: { resourceName?: unknown }, settings: AdminSettings, listing: MemberListing): AdminClientOutputs {
    return {
        resourceName: nameOf(resource),
        ...settings,
        members: listing.members,
        memberCount: listing.members.length,
        tokenExpiresAt: listing.tokenExpiresAt,
    };
}

function nameOf(resource: { resourceName?: unknown }): string {
    return typeof resource.resourceName === "string" ? resource.resourceName : "(unnamed)";
}

/** Provider lines reach the user unattached to any resource, so each one names its resource. */
function log(resource: { resourceName?: unknown }, message: string): void {
    console.log(`AdminClient "${nameOf(resource)}": ${message}`);
}
