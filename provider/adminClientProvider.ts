// The dynamic provider behind AdminClient: proves that a set of client credentials works and lists the
// organization's members. Nothing is created remotely; create, update and read all list the members.
//
// The client secret. A secret the program gives as an input stays an input, which the engine stores
// encrypted. A secret from stack config or the environment is read where it is used and never written
// into the checked inputs: the engine would store it there in plain text, as it did not arrive as a
// secret input. No output carries the secret or a token.
//
// Detecting a secret change. diff sees only the old outputs, which never hold the secret, but check
// sees the old inputs (decrypted by the engine): it compares the old and new secret inputs and tells
// diff through the plain boolean `clientSecretChanged`. A secret from stack config or the environment
// is provider configuration, not desired state: as with any provider's credentials, changing it
// updates no resource (keeping a hash of it to compare would let anyone holding the state test guesses
// offline); the next create, update or refresh uses it. The client id, URLs and audience are compared
// wherever they come from: check writes their resolved values into the inputs, create into the outputs.

import { randomUUID } from "crypto";
import type * as pulumi from "@pulumi/pulumi";
import { UNKNOWN, clientSecretFor, clientSecretProblem, resolveAdminSettings } from "./adminClientInputs";
import type { AdminSettings, OrganizationMember } from "./adminClientTypes";
import { CONFIG_NAMESPACE, StackCredentialConfig, describeSources, readCredentialConfig } from "./credentials";
import { MemberListing, listOrganizationMembers } from "./memberListing";

/** Inputs as the engine sends them: the program's values (anything may arrive), plus what check adds. */
export interface AdminClientInputs {
    resourceName?: unknown;
    clientId?: unknown;
    clientSecret?: unknown;
    oauthUrl?: unknown;
    audience?: unknown;
    baseUrl?: unknown;
    /** Set by check when the secret input differs from the one in the state. */
    clientSecretChanged?: boolean;
}

export interface AdminClientOutputs extends AdminSettings {
    resourceName: string;
    members: OrganizationMember[];
    memberCount: number;
    tokenExpiresAt?: string;
}

type Outputs = Partial<AdminClientOutputs>;

const SETTING_NAMES: (keyof AdminSettings)[] = ["clientId", "oauthUrl", "audience", "baseUrl"];

export class AdminClientProvider implements pulumi.dynamic.ResourceProvider<AdminClientInputs, Outputs> {
    private stackConfig: StackCredentialConfig;

    constructor() {
        // Assigned here: the closure serializer drops field initializers.
        this.stackConfig = {};
    }

    async configure(request: pulumi.dynamic.ConfigureRequest): Promise<void> {
        this.stackConfig = readCredentialConfig((name) => request.config.get(`${CONFIG_NAMESPACE}:${name}`));
    }

    /** Resolves the fallbacks and validates; never sends a request. */
    async check(olds: AdminClientInputs, news: AdminClientInputs): Promise<pulumi.dynamic.CheckResult<AdminClientInputs>> {
        const { settings, failures } = resolveAdminSettings(news, this.stackConfig, process.env);
        const secretFailure = news.clientSecret === UNKNOWN ? undefined : clientSecretProblem(news.clientSecret, this.stackConfig, process.env);
        if (secretFailure) failures.push(secretFailure);
        if (failures.length > 0) return { failures };

        // The resolved settings, and the secret only if the program gave it (the engine keeps that one secret).
        const inputs: AdminClientInputs = { ...settings };
        if (news.resourceName !== undefined) inputs.resourceName = news.resourceName;
        if (news.clientSecret !== undefined) inputs.clientSecret = news.clientSecret;
        const existing = Object.keys(olds).length > 0;
        if (existing && (news.clientSecret === UNKNOWN || olds.clientSecret !== news.clientSecret)) inputs.clientSecretChanged = true;
        return { inputs };
    }

    async diff(_id: string, olds: Outputs, news: AdminClientInputs): Promise<pulumi.dynamic.DiffResult> {
        const changed: string[] = SETTING_NAMES.filter((name) => news[name] === UNKNOWN || olds[name] !== news[name]);
        if (news.clientSecretChanged === true) changed.push("clientSecret");
        if (changed.length > 0) log(news, `${changed.join(", ")} changed: the members will be listed again`);
        return { changes: changed.length > 0 };
    }

    async create(inputs: AdminClientInputs): Promise<pulumi.dynamic.CreateResult<Outputs>> {
        const outs = await this.list(inputs, settingsOf(inputs), inputs.clientSecret);
        return { id: randomUUID(), outs };
    }

    async update(_id: string, _olds: Outputs, news: AdminClientInputs): Promise<pulumi.dynamic.UpdateResult<Outputs>> {
        return { outs: await this.list(news, settingsOf(news), news.clientSecret) };
    }

    /** Refresh: lists the members again, so that membership drift shows. */
    async read(id: string, props?: Outputs): Promise<pulumi.dynamic.ReadResult<Outputs>> {
        const old = props ?? {};
        // The engine gives read only the outputs, so a secret given as an input cannot be seen here.
        const outs = await this.list(old, settingsOf(old), undefined, " (refresh cannot see a clientSecret given as an input)");
        const before = old.memberCount;
        if (before !== undefined && before !== outs.memberCount) log(old, `was ${before} members before the refresh`);
        return { id, props: outs };
    }

    async delete(_id: string, props: Outputs): Promise<void> {
        log(props, "nothing to delete remotely (an AdminClient only reads the administration API); removed from the stack");
    }

    private async list(
        resource: { resourceName?: unknown },
        settings: AdminSettings,
        givenSecret: unknown,
        whyMissing = "",
    ): Promise<AdminClientOutputs> {
        const secret = clientSecretFor(givenSecret, this.stackConfig, process.env);
        if (secret === undefined) throw new Error(`No client secret: set ${describeSources("clientSecret")}${whyMissing}`);
        const listing = await listOrganizationMembers(settings, secret);
        log(resource, `${listing.members.length} members`);
        return outputsOf(resource, settings, listing);
    }
}

/** The one provider object every AdminClient uses (so it is serialized and configured once). */
export const adminClientProvider = new AdminClientProvider();

function settingsOf(values: Partial<Record<keyof AdminSettings, unknown>>): AdminSettings {
    return {
        clientId: String(values.clientId ?? ""),
        oauthUrl: String(values.oauthUrl ?? ""),
        audience: String(values.audience ?? ""),
        baseUrl: String(values.baseUrl ?? ""),
    };
}

function outputsOf(resource: { resourceName?: unknown }, settings: AdminSettings, listing: MemberListing): AdminClientOutputs {
    const outs: AdminClientOutputs = {
        resourceName: nameOf(resource),
        ...settings,
        members: listing.members,
        memberCount: listing.members.length,
    };
    // Only set when known: an undefined property cannot be sent to the engine.
    if (listing.tokenExpiresAt !== undefined) outs.tokenExpiresAt = listing.tokenExpiresAt;
    return outs;
}

function nameOf(resource: { resourceName?: unknown }): string {
    return typeof resource.resourceName === "string" ? resource.resourceName : "(unnamed)";
}

/** Provider lines reach the user unattached to any resource, so each one names its resource. */
function log(resource: { resourceName?: unknown }, message: string): void {
    console.log(`AdminClient "${nameOf(resource)}": ${message}`);
}
