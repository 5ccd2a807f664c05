// zod schemas of the administration API's answers (members, clusters, their API clients, connector secrets, the
// creation parameters), and the types inferred from them. Every enumeration is read as the open union of the values
// known today: the API adds roles, states and permissions between releases, and a new one must break no program.

import { z } from "zod";
import { Open, listOf, openText, optionalOf } from "./schemas";

/** A role as the API reports it; `owner`, `member` and `supportagent` cannot be assigned. */
export type OrganizationRole =
    "owner" | "admin" | "member" | "supportagent" | "operationsengineer" | "taskuser" | "analyst" | "developer" | "visitor" | "modeler" | Open;

/** The roles `POST /members/{email}` accepts. */
export const ASSIGNABLE_ROLES = ["admin", "operationsengineer", "taskuser", "analyst", "developer", "visitor", "modeler"] as const;
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];

/** A cluster's health (`status.ready` and each component's), open to new states. */
export type ClusterComponentStatus = "Creating" | "Healthy" | "Unhealthy" | "Updating" | "Resuming" | "Suspended" | "WaitingForInput" | "Maintenance" | Open;

/** What an API client of a cluster may reach. */
export const CLUSTER_CLIENT_PERMISSIONS = ["Zeebe", "Operate", "Tasklist", "Optimize", "Secrets"] as const;
export type ClusterClientPermission = (typeof CLUSTER_CLIENT_PERMISSIONS)[number] | Open;

/** A cluster's stage label. */
export const CLUSTER_STAGES = ["dev", "test", "stage", "prod"] as const;
export type ClusterStage = (typeof CLUSTER_STAGES)[number] | Open;

// ---------------------------------------------------------------------------------------------------
// Members

export const memberSchema = z.object({
    name: z.string(),
    email: z.string(),
    roles: listOf(openText<OrganizationRole>()),
    invitePending: z
        .boolean()
        .nullish()
        .transform((value) => value ?? false),
});

export const memberListSchema = z.array(memberSchema);

// ---------------------------------------------------------------------------------------------------
// Clusters

/** `{uuid, name}`: a channel, generation, plan type or region as a cluster names it. */
export const namedRefSchema = z.object({ uuid: z.string(), name: z.string() });

export const ipAllowlistEntrySchema = z.object({
    ip: z.string(),
    description: z
        .string()
        .nullish()
        .transform((value) => value ?? ""),
});

const statusText = openText<ClusterComponentStatus>();

export const clusterSchema = z.object({
    uuid: z.string(),
    name: z.string(),
    created: z.string(),
    ownerId: optionalOf(z.string()),
    autoUpdate: z
        .boolean()
        .nullish()
        .transform((value) => value ?? false),
    channel: namedRefSchema,
    generation: namedRefSchema,
    planType: namedRefSchema,
    region: namedRefSchema,
    description: optionalOf(z.string()),
    /** The stage label set at creation or by PATCH is one of these (the cluster object has no field of its own for it). */
    labels: listOf(z.string()),
    links: z
        .object({
            zeebe: optionalOf(z.string()),
            operate: optionalOf(z.string()),
            tasklist: optionalOf(z.string()),
            optimize: optionalOf(z.string()),
            console: optionalOf(z.string()),
            connectors: optionalOf(z.string()),
            identity: optionalOf(z.string()),
            oauth: optionalOf(z.string()),
        })
        .nullish()
        .transform((links) => links ?? {}),
    status: z.object({
        ready: statusText,
        zeebeStatus: optionalOf(statusText),
        operateStatus: optionalOf(statusText),
        tasklistStatus: optionalOf(statusText),
        optimizeStatus: optionalOf(statusText),
        connectorsStatus: optionalOf(statusText),
    }),
    /** Absent when the organization lacks the feature or the client may not see it: absent is not empty. */
    ipallowlist: optionalOf(z.array(ipAllowlistEntrySchema)),
    /** The deprecated name of ipallowlist, in older answers. */
    ipwhitelist: optionalOf(z.array(ipAllowlistEntrySchema)),
});

export const clusterListSchema = z.array(clusterSchema);

export const createdClusterSchema = z.object({ clusterId: z.string().min(1) });

export const generationUpgradeSchema = z.object({
    cluster: optionalOf(z.object({ id: z.string(), name: z.string() })),
    oldGeneration: optionalOf(z.object({ id: z.string(), name: z.string() })),
    newGeneration: z.object({ id: z.string(), name: z.string() }),
});

// ---------------------------------------------------------------------------------------------------
// Creation parameters

export const parametersSchema = z.object({
    channels: listOf(
        z.object({
            uuid: z.string(),
            name: z.string(),
            defaultGeneration: namedRefSchema,
            allowedGenerations: listOf(z.object({ uuid: z.string(), name: z.string(), classification: optionalOf(z.string()) })),
        }),
    ),
    clusterPlanTypes: listOf(namedRefSchema),
    regions: listOf(z.object({ uuid: z.string(), name: z.string(), provider: optionalOf(z.string()) })),
});

// ---------------------------------------------------------------------------------------------------
// API clients of a cluster

/** An entry of `GET …/clients`: the only place a client's permissions can be read. */
export const clusterClientSchema = z.object({
    clientId: z.string(),
    name: z.string(),
    permissions: listOf(openText<ClusterClientPermission>()),
});

export const clusterClientListSchema = z.array(clusterClientSchema);

/** The answer to `POST …/clients`: the only answer that holds the secret. */
export const createdClusterClientSchema = z.object({
    uuid: optionalOf(z.string()),
    clientId: z.string().min(1),
    clientSecret: z.string().min(1),
    name: z.string(),
    permissions: listOf(openText<ClusterClientPermission>()),
    audience: optionalOf(z.string()),
});

/** `GET …/clients/{clientId}`: how a worker connects (no secret, no permissions). */
export const clusterClientDetailsSchema = z.object({
    ZEEBE_ADDRESS: z.string(),
    ZEEBE_AUTHORIZATION_SERVER_URL: z.string(),
    ZEEBE_CLIENT_ID: z.string(),
    name: z.string(),
});

// ---------------------------------------------------------------------------------------------------
// Connector secrets

/** `GET …/secrets`: every secret's name and value. */
export const connectorSecretsSchema = z.record(z.string(), z.string());

// ---------------------------------------------------------------------------------------------------
// Backups, restores, activity, external monitoring, private connectivity, egress ranges

export type BackupStatus = "In progress" | "Failed" | "Complete" | "-" | Open;
export type RestoreState = "PENDING" | "VALIDATING" | "IN_PROGRESS" | "COMPLETED" | "FAILED" | "ABORTED" | Open;

export const backupSchema = z.object({
    uuid: z.string(),
    name: z.string(),
    created: z.string(),
    completed: optionalOf(z.string()),
    status: openText<BackupStatus>(),
    zeebeStatus: optionalOf(openText<BackupStatus>()),
    operateStatus: optionalOf(openText<BackupStatus>()),
    tasklistStatus: optionalOf(openText<BackupStatus>()),
    optimizeStatus: optionalOf(openText<BackupStatus>()),
    generationUuid: optionalOf(z.string()),
    generationName: optionalOf(z.string()),
});

export const restoreSchema = z.object({
    uuid: z.string(),
    backupId: z.string(),
    state: openText<RestoreState>(),
    startTimestamp: optionalOf(z.string()),
    completionTimestamp: optionalOf(z.string()),
});

/** An audit event (`auditType`: c, r, u, d). */
export const auditEventSchema = z.object({
    audit: z.string(),
    auditType: z.string(),
    entity: z.string(),
    entityId: z.string(),
    orgId: z.string(),
    service: z.string(),
    userId: z.string(),
    entityAttribute: optionalOf(z.string()),
    entityAttributeValueFrom: optionalOf(z.string()),
    entityAttributeValueTo: optionalOf(z.string()),
    parentEntity: optionalOf(z.string()),
    parentEntityId: optionalOf(z.string()),
    timestamp: optionalOf(z.number()),
});

/** An external monitoring client; `password` only in the answers that create or rotate it. */
export const monitoringClientSchema = z.object({
    uuid: z.string(),
    name: z.string(),
    username: z.string(),
    created: z.string(),
    createdBy: z.string(),
    createdByName: z.string(),
    lastUsed: optionalOf(z.string()),
    password: optionalOf(z.string()),
});

/** Private connectivity: its spec and status as the platform reports them (absent until it is turned on). */
export const secureConnectivitySchema = z.object({
    status: z
        .object({
            spec: optionalOf(z.object({ allowedPrincipals: listOf(z.string()), allowedRegions: listOf(z.string()) })),
            status: optionalOf(z.object({ endpointConnectionCount: optionalOf(z.number()), urls: optionalOf(z.record(z.string(), z.string())) })),
        })
        .nullish()
        .transform((status) => status ?? {}),
});

/** `GET /meta/ip-ranges`: the platform's egress addresses by service. */
export const ipRangesSchema = z.record(z.string(), z.array(z.string()));

// ---------------------------------------------------------------------------------------------------
// Types

export type Member = z.output<typeof memberSchema>;
export type Cluster = z.output<typeof clusterSchema>;
export type NamedRef = z.output<typeof namedRefSchema>;
export type IpAllowlistEntry = z.output<typeof ipAllowlistEntrySchema>;
export type ClusterParameters = z.output<typeof parametersSchema>;
export type GenerationUpgrade = z.output<typeof generationUpgradeSchema>;
export type ClusterApiClient = z.output<typeof clusterClientSchema>;
export type CreatedClusterApiClient = z.output<typeof createdClusterClientSchema>;
export type ClusterApiClientDetails = z.output<typeof clusterClientDetailsSchema>;
export type Backup = z.output<typeof backupSchema>;
export type Restore = z.output<typeof restoreSchema>;
export type AuditEvent = z.output<typeof auditEventSchema>;
export type MonitoringClient = z.output<typeof monitoringClientSchema>;
