import * as pulumi from "@pulumi/pulumi";
import type { AssignableRole } from "../../sdk/adminSchemas";
import { adminResourceOptions, adminResourceProps } from "../shared/adminResourceProps";
import { ENTRY_POINTS } from "../shared/entryPoints";
import { providerShim } from "../shared/providerShim";
import type { AdminCredentialsArgs } from "../shared/adminCredentialsArgs";

export interface OrganizationMemberArgs {
    /** The person's email address. A change replaces the resource: the new address is invited, then the old one removed. */
    email: pulumi.Input<string>;
    /** The roles to give: admin, operationsengineer, taskuser, analyst, developer, visitor, modeler (at least one). */
    roles: pulumi.Input<pulumi.Input<AssignableRole>[]>;
    credentials?: pulumi.Input<AdminCredentialsArgs>;
}

/** What the state stores as the provider: it loads provider.ts from the installed package. */
export const organizationMemberShim = providerShim(ENTRY_POINTS.organizationMember, "OrganizationMember");

/**
 * A person of the organization with the roles the program gives. Declaring an email that already belongs to the
 * organization adopts it (no second invitation); a new one is invited (it takes a seat). The organization's owner is
 * never changed or removed: its roles are recorded, and destroying the resource only removes it from the stack.
 */
export class OrganizationMember extends pulumi.dynamic.Resource {
    declare readonly email: pulumi.Output<string>;
    /** The person's assignable roles as the organization lists them (the owner: the roles the program declared). */
    declare readonly roles: pulumi.Output<string[]>;
    /** The name the person signed up with; empty while the invitation is pending. */
    declare readonly name: pulumi.Output<string>;
    declare readonly invitePending: pulumi.Output<boolean>;
    /** Whether the person is the organization's owner (whose roles are left as they are). */
    declare readonly owner: pulumi.Output<boolean>;

    constructor(name: string, args: OrganizationMemberArgs, opts?: pulumi.CustomResourceOptions) {
        const props = {
            email: args.email,
            roles: args.roles,
            ...adminResourceProps(name, args.credentials),
            name: undefined,
            invitePending: undefined,
            owner: undefined,
        };
        super(organizationMemberShim, name, props, adminResourceOptions(opts), "platform", "OrganizationMember");
    }
}
