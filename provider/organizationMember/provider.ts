// The dynamic provider behind OrganizationMember: a person of the organization, invited or adopted, with the roles
// the program gives. One `GET /members` serves every member resource of a provider host (sdk/sharedList.ts), and the
// host's own writes are applied to it. The owner is never changed or removed. What happens to a person is decided in
// decision.ts; this file reads the list, asks the decision, and acts.
//
// Loaded in the provider host by the shim the state stores (see ../shared/providerShim.ts): `provider` below is a
// public entry point. The credentials never reach a log line or an error.

import type * as pulumi from "@pulumi/pulumi";
import { sameEmail } from "../../sdk/adminApiClient";
import type { Member } from "../../sdk/adminSchemas";
import { PlatformError } from "../../sdk/errors";
import type { AdminCredentials } from "../shared/adminCredentials";
import { AdminProvider, type Tell } from "../shared/adminProvider";
import { messageOf } from "../shared/messageOf";
import { isNew } from "../shared/passes";
import { asResourceFailures } from "../shared/checkFailures";
import { claimOnce } from "../shared/claims";
import { secretChanged } from "../shared/secretChanged";
import { containsUnknown } from "../shared/unknowns";
import { MemberInputs, checkMemberInputs } from "./inputs";
import { MemberAction, MemberRecord, decideMember, doneLine, isOwner, previewLine, recordAfter, recordChanges, sameRoles, sends } from "./decision";

type Raw = Record<string, unknown>;

/**
 * What the state holds: the public outputs, the resource's name, and the credentials as check resolved them (for
 * refresh and destroy, which get only these; a secret output, and without the client secret when it came from config
 * or the environment).
 */
export interface MemberOutputs extends MemberRecord {
    resourceName: string;
    credentials: AdminCredentials;
}

export class OrganizationMemberProvider extends AdminProvider<MemberInputs, MemberOutputs> implements pulumi.dynamic.ResourceProvider<Raw, MemberOutputs> {
    protected readonly typeName = "OrganizationMember";

    async check(olds: Raw, news: Raw): Promise<pulumi.dynamic.CheckResult<Raw>> {
        const { inputs, failures } = checkMemberInputs(news, this.stackConfig, process.env);
        if (inputs === undefined) return { failures: asResourceFailures(failures) };
        const dryRun = news.dryRun === true;
        this.passes.recordCheck(inputs.resourceName, dryRun);
        if (!containsUnknown([inputs.email, inputs.credentials.baseUrl])) {
            const holder = claimOnce("organization member", `${inputs.credentials.baseUrl} ${inputs.email.toLowerCase()}`, inputs.resourceName);
            if (holder !== undefined) {
                const reason = `email: OrganizationMember "${holder}" already declares ${inputs.email} in this stack: two resources for one person undo each other's roles on every up; declare it once`;
                return { failures: [{ property: "", reason }] };
            }
        }
        // Preview calls nothing but check for a resource not in the stack: say here what up will do to the person.
        if (dryRun && isNew(olds)) {
            if (containsUnknown(inputs)) this.say(inputs.resourceName, "some inputs are not known yet; up will decide");
            else {
                const live = await this.find(inputs);
                this.say(inputs.resourceName, previewLine(inputs.email, inputs.roles, decideMember(inputs.roles, live, false)));
            }
        }
        return { inputs: inputs as unknown as Raw };
    }

    protected async changeDiff(inputs: MemberInputs, olds: MemberOutputs, tell: Tell): Promise<pulumi.dynamic.DiffResult> {
        if (inputs.email !== olds.email && !(typeof inputs.email === "string" && typeof olds.email === "string" && sameEmail(inputs.email, olds.email))) {
            tell(inputs.resourceName, `email changed: up invites ${String(inputs.email)} and then removes ${olds.email}`);
            return { changes: true, replaces: ["email"] };
        }
        if (containsUnknown(inputs)) {
            tell(inputs.resourceName, "some inputs are not known yet; up will decide");
            return { changes: true };
        }
        const live = await this.find(inputs);
        const action = decideMember(inputs.roles, live, true);
        const credentialsChanged = secretChanged(olds.credentials, inputs.credentials);
        const recordChanged = recordChanges(olds, recordAfter(inputs.email, inputs.roles, live, action));
        const ownerRolesChanged = action.kind === "owner" && !sameRoles(olds.roles ?? [], inputs.roles);
        if (sends(action) || action.kind === "owner") tell(inputs.resourceName, previewLine(inputs.email, inputs.roles, action));
        else if (recordChanged.length > 0)
            tell(inputs.resourceName, `the organization lists ${inputs.email} differently now (${recordChanged.join(", ")}): up records it, sending nothing`);
        if (credentialsChanged && !sends(action)) tell(inputs.resourceName, "credentials changed: up records them, sending nothing");
        return { changes: sends(action) || credentialsChanged || recordChanged.length > 0 || ownerRolesChanged };
    }

    async create(news: Raw): Promise<pulumi.dynamic.CreateResult<MemberOutputs>> {
        const inputs = news as unknown as MemberInputs;
        return { id: inputs.email, outs: await this.apply(inputs, false) };
    }

    async update(_id: string, _olds: MemberOutputs, news: Raw): Promise<pulumi.dynamic.UpdateResult<MemberOutputs>> {
        return { outs: await this.apply(news as unknown as MemberInputs, true) };
    }

    /** Refresh: the member as the organization lists it now; one that is no longer listed leaves the stack. */
    async read(id: string, props?: MemberOutputs): Promise<pulumi.dynamic.ReadResult<MemberOutputs>> {
        if (props === undefined || typeof props.email !== "string") throw new Error(`OrganizationMember ${id}: nothing recorded to refresh from`);
        const name = props.resourceName ?? id;
        const live = await this.find({ resourceName: name, email: props.email, credentials: this.credentialsOf(props) });
        if (live === undefined) {
            this.say(name, `${props.email} is no longer in the organization: refresh removes the resource from the stack`);
            return { id: "", props: {} as MemberOutputs };
        }
        // The owner's roles stay as recorded: never drift, since they are never sent.
        const roles = isOwner(live) ? props.roles : undefined;
        const record = recordAfter(props.email, roles ?? [], live, isOwner(live) ? { kind: "owner" } : { kind: "none" });
        return { id, props: { ...props, ...record } };
    }

    async delete(_id: string, props: MemberOutputs): Promise<void> {
        const name = props.resourceName ?? props.email;
        const api = this.api(name, this.credentialsOf(props));
        const live = (await api.listMembers()).find((member) => sameEmail(member.email, props.email));
        if (isOwner(live) || (live === undefined && props.owner === true)) {
            this.say(name, `${props.email} is the organization owner: removed from the stack only, the owner stays in the organization`);
            return;
        }
        const removal = await this.call(name, `remove ${props.email}`, () => api.removeMember(props.email));
        this.say(name, removal === "removed" ? `removed ${props.email} from the organization` : `${props.email} was not in the organization any more`);
    }

    private async apply(inputs: MemberInputs, inStack: boolean): Promise<MemberOutputs> {
        const name = inputs.resourceName;
        const api = this.api(name, inputs.credentials);
        const live = await this.find(inputs, api);
        const action: MemberAction = decideMember(inputs.roles, live, inStack);
        if (sends(action)) {
            const what = action.kind === "invite" ? `invite ${inputs.email}` : `set the roles of ${inputs.email}`;
            await this.call(name, what, () => api.upsertMember(inputs.email, inputs.roles), explain);
        }
        this.say(name, doneLine(inputs.email, inputs.roles, action));
        return { resourceName: name, ...recordAfter(inputs.email, inputs.roles, live, action), credentials: inputs.credentials };
    }

    /** The member as the organization lists it (the list read once per host and operation). */
    private async find(
        inputs: Pick<MemberInputs, "resourceName" | "email" | "credentials">,
        api = this.api(inputs.resourceName, inputs.credentials),
    ): Promise<Member | undefined> {
        const members = await this.call(inputs.resourceName, "list the members", () => api.listMembers());
        return members.find((member) => sameEmail(member.email, inputs.email));
    }

    /** The credentials recorded with the outputs. */
    private credentialsOf(props: MemberOutputs): AdminCredentials {
        if (props.credentials === undefined) throw new Error(`${this.subject(props.resourceName ?? props.email)}: the state records no credentials`);
        return props.credentials;
    }

    /** A refresh's diff: the program's roles against what the organization lists. The owner never drifts. */
    protected refreshDiff(program: MemberInputs, live: MemberOutputs): pulumi.dynamic.DiffResult {
        if (live.owner === true || sameRoles(program.roles ?? [], live.roles ?? [])) return { changes: false };
        this.say(program.resourceName, `the organization gives ${live.email} roles ${live.roles.join(", ")}; the program says ${program.roles.join(", ")}`);
        return { changes: true };
    }
}

/** The provider object every OrganizationMember of the host process shares. */
export const organizationMemberProvider = new OrganizationMemberProvider();

/** The entry point the serialized shim requires (ENTRY_POINTS.organizationMember): a public contract, keep the name. */
export const provider = organizationMemberProvider;

/** A refused invitation may mean the organization has no open seat left. */
function explain(error: unknown): string {
    if (error instanceof PlatformError && error.status === 403 && error.request?.method === "POST") {
        return `${error.message} (an invitation needs an open seat, and the client needs the Members permission)`;
    }
    return messageOf(error);
}
