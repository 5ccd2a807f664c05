// The emulated organization behind the administration API: its members (exactly one owner; invitations pending until
// accepted) within a number of seats, and its clusters. Every rule the reference names is here, answered as
// AdminRefusal (status and message); the HTTP side is adminApi.ts.

import { AllowlistEntry, ApiClient, HostedCluster, ClusterSpec, ClusterTimings } from "./hostedCluster";
import type { Member } from "../settings";

/** A request the organization refuses: the status and message the API answers with. */
export class AdminRefusal extends Error {
    constructor(
        readonly status: number,
        message: string,
    ) {
        super(message);
    }
}

/** A cluster as the control API shows it. */
export interface HostedClusterView {
    id: string;
    name: string;
    status: string;
    deleting: boolean;
    channel: string;
    region: string;
    planType: string;
    generation: string;
    description?: string;
    stageLabel?: string;
    clients: ApiClient[];
    secrets: Record<string, string>;
    ipallowlist: AllowlistEntry[];
}

export const ASSIGNABLE_ROLES = ["admin", "operationsengineer", "taskuser", "analyst", "developer", "visitor", "modeler"];

export interface OrganizationLimits {
    /** Members and pending invitations together; null: no limit. */
    seats: number | null;
    /** API clients per cluster. */
    clientLimit: number;
    /** Connector secrets per cluster. */
    secretLimit: number;
}

export class Organization {
    private members: Member[] = [];
    readonly clusters = new Map<string, HostedCluster>();

    constructor(
        private readonly limits: () => OrganizationLimits,
        readonly timings: () => ClusterTimings,
    ) {}

    // ---- members ----

    setMembers(members: readonly Member[]): void {
        this.members = members.map((member) => ({ ...member, roles: [...member.roles] }));
    }

    listMembers(): Member[] {
        return this.members.map((member) => ({ ...member, roles: [...member.roles] }));
    }

    /** POST /members/{email}: invites the email, or replaces the roles of the member it is. */
    upsertMember(email: string, roles: unknown): void {
        if (!Array.isArray(roles) || roles.length === 0 || !roles.every((role) => typeof role === "string" && ASSIGNABLE_ROLES.includes(role))) {
            throw new AdminRefusal(400, `orgRoles must be a non-empty list of ${ASSIGNABLE_ROLES.join(", ")}`);
        }
        const found = this.memberByEmail(email);
        if (found !== undefined) {
            if (found.roles.includes("owner")) throw new AdminRefusal(403, "The roles of the organization's owner cannot be changed");
            found.roles = [...new Set(roles as string[])];
            return;
        }
        const seats = this.limits().seats;
        if (seats !== null && this.members.length >= seats) throw new AdminRefusal(403, "No open seats left in the organization");
        this.members.push({ name: "", email, roles: [...new Set(roles as string[])], invitePending: true });
    }

    /** DELETE /members/{email}: removes the member or revokes the invitation. */
    removeMember(email: string): void {
        const found = this.memberByEmail(email);
        if (found === undefined) throw new AdminRefusal(404, `${email} is not a member of the organization`);
        if (found.roles.includes("owner")) throw new AdminRefusal(403, "The organization's owner cannot be removed");
        this.members = this.members.filter((member) => member !== found);
    }

    private memberByEmail(email: string): Member | undefined {
        return this.members.find((member) => member.email.toLowerCase() === email.toLowerCase());
    }

    // ---- clusters ----

    createCluster(spec: ClusterSpec, now: number, ready = false): HostedCluster {
        const cluster = new HostedCluster(spec, this.timings, now, ready);
        this.clusters.set(cluster.uuid, cluster);
        return cluster;
    }

    /** The cluster, unless it is unknown or its deletion has run its time (404). */
    cluster(id: string, now: number): HostedCluster {
        const cluster = this.clusters.get(id);
        if (cluster === undefined || cluster.isGone(now)) {
            if (cluster !== undefined) this.clusters.delete(id);
            throw new AdminRefusal(404, `Cluster ${id} not found`);
        }
        return cluster;
    }

    listClusters(now: number): HostedCluster[] {
        for (const [id, cluster] of this.clusters) if (cluster.isGone(now)) this.clusters.delete(id);
        return [...this.clusters.values()];
    }

    /** The clusters as tests look at them: everything the API shows, and the clients' secrets it never shows again. */
    view(now: number): HostedClusterView[] {
        return this.listClusters(now).map((cluster) => ({
            id: cluster.uuid,
            name: cluster.spec.name,
            status: cluster.status(now),
            deleting: cluster.isDeleting(),
            channel: cluster.spec.channel.name,
            region: cluster.spec.region.name,
            planType: cluster.spec.planType.name,
            generation: cluster.spec.generation.name,
            description: cluster.spec.description,
            stageLabel: cluster.spec.stageLabel,
            clients: [...cluster.clients.values()].map((client) => ({ ...client, permissions: [...client.permissions] })),
            secrets: Object.fromEntries(cluster.secrets),
            ipallowlist: cluster.ipallowlist.map((entry) => ({ ...entry })),
        }));
    }

    clientLimit(): number {
        return this.limits().clientLimit;
    }

    secretLimit(): number {
        return this.limits().secretLimit;
    }

    clear(): void {
        this.members = [];
        this.clusters.clear();
    }
}
