// The administration API over HTTP, as the reference describes it: members, clusters and their creation parameters,
// the clusters' API clients, connector secrets and IP allowlist, behind a bearer token from the token issuer
// (`GET /meta/ip-ranges` needs none). Authentication failures answer 401 with {"message": "Unauthorized: <reason>"}
// and a WWW-Authenticate challenge, never echoing the token; any unexpired token of this emulator's issuer is accepted,
// whatever its audience. Refusals answer {"message": …} with the status the reference documents.

import { Call, Reply, jsonReply } from "../httpServer";
import { JwtSigner } from "../jwt";
import { AdminRefusal, Organization } from "./organization";
import type { Member } from "../settings";
import { HostedCluster, STAGES } from "./hostedCluster";
import { PARAMETERS, channelById, generationById, refById } from "./parameters";

export interface AdminApiDeps {
    organization: Organization;
    signer: JwtSigner;
    /** The issuer URL tokens must carry in `iss`. */
    issuer: () => string;
    /** Whether the organization has the IP allowlist feature (the cluster object shows `ipallowlist` only then). */
    ipAllowlistFeature: () => boolean;
    /** Whether clusters show `labels` (their stage label among them), or leave the field out. */
    clusterLabels: () => boolean;
    /** How a pending invitation is listed: name "" or the email. */
    invitationName: () => "empty" | "email";
}

const PERMISSIONS = ["Zeebe", "Operate", "Tasklist", "Optimize", "Secrets"];
const MAX_NAME_LENGTH = 50;
const MAX_DESCRIPTION_LENGTH = 150;
/** Where the emulated platform's egress comes from (GET /meta/ip-ranges). */
const EGRESS_RANGES = ["203.0.113.0/28", "198.51.100.16/28"];

type Route = (call: Call, now: number) => Reply;

function unauthorized(reason: string): Reply {
    return jsonReply(401, { message: `Unauthorized: ${reason}` }, { "www-authenticate": 'Bearer error="invalid_token"' });
}

function noContent(): Reply {
    return { status: 204 };
}

export function createAdminApi(deps: AdminApiDeps): (call: Call) => Reply {
    const org = deps.organization;
    return (call) => {
        const now = Date.now();
        if (call.method === "GET" && call.path === "/meta/ip-ranges") return jsonReply(200, { "web-modeler": EGRESS_RANGES });
        const header = call.headers.authorization ?? "";
        const match = /^Bearer +(\S+)$/i.exec(header);
        if (!match) return unauthorized("missing bearer token");
        const verified = deps.signer.verify(match[1], Math.floor(now / 1000));
        if ("reason" in verified) return unauthorized(verified.reason);
        if (verified.claims.iss !== deps.issuer()) return unauthorized("token from another issuer");
        try {
            return route(call)(call, now);
        } catch (error) {
            if (error instanceof AdminRefusal) return jsonReply(error.status, { message: error.message });
            throw error;
        }
    };

    function route(call: Call): Route {
        const segments = call.path.split("/").slice(1).map(decodeURIComponent);
        const [first, second, third, fourth] = segments;
        const methods = (table: Record<string, Route>): Route => {
            const found = table[call.method];
            if (found !== undefined) return found;
            return () => jsonReply(405, { message: "Method Not Allowed" }, { allow: Object.keys(table).join(", ") });
        };
        if (first === "members" && segments.length === 1) return methods({ GET: () => jsonReply(200, org.listMembers().map(listedMember)) });
        if (first === "members" && segments.length === 2) {
            return methods({
                POST: (c) => {
                    org.upsertMember(second, bodyOf(c).orgRoles);
                    return noContent();
                },
                DELETE: () => {
                    org.removeMember(second);
                    return noContent();
                },
            });
        }
        if (first !== "clusters") return () => jsonReply(404, { message: "Not Found" });
        if (segments.length === 1)
            return methods({
                GET: (_c, now) =>
                    jsonReply(
                        200,
                        org.listClusters(now).map((c) => clusterJson(c, now)),
                    ),
                POST: createCluster,
            });
        if (second === "parameters" && segments.length === 2) return methods({ GET: () => jsonReply(200, PARAMETERS) });
        const cluster = (now: number) => org.cluster(second, now);
        if (segments.length === 2) {
            return methods({
                GET: (_c, now) => jsonReply(200, clusterJson(cluster(now), now)),
                PATCH: (c, now) => patchCluster(cluster(now), bodyOf(c)),
                DELETE: (_c, now) => {
                    cluster(now).delete(now);
                    return noContent();
                },
            });
        }
        switch (`${third}/${segments.length}`) {
            case "upgrade/3":
                return methods({ PUT: (_c, now) => upgrade(cluster(now), now) });
            case "wake/3":
                return methods({
                    PUT: (_c, now) => {
                        const found = cluster(now);
                        if (found.forcedStatus === "Suspended") found.forcedStatus = undefined;
                        return noContent();
                    },
                });
            case "clients/3":
                return methods({
                    GET: (_c, now) =>
                        jsonReply(
                            200,
                            [...cluster(now).clients.values()].map(({ clientId, name, permissions }) => ({ clientId, name, permissions })),
                        ),
                    POST: (c, now) => createClient(cluster(now), bodyOf(c)),
                });
            case "clients/4":
                return methods({ GET: (_c, now) => clientDetails(cluster(now), fourth, now), DELETE: (_c, now) => deleteClient(cluster(now), fourth) });
            case "secrets/3":
                return methods({ GET: (_c, now) => jsonReply(200, cluster(now).listedSecrets(now)), POST: (c, now) => createSecret(cluster(now), bodyOf(c)) });
            case "secrets/4":
                return methods({
                    PUT: (c, now) => updateSecret(cluster(now), fourth, bodyOf(c)),
                    DELETE: (_c, now) => deleteSecret(cluster(now), fourth, now),
                });
            case "ipallowlist/3":
                return methods({ PUT: (c, now) => setAllowlist(cluster(now), bodyOf(c).ipallowlist) });
            case "ipwhitelist/3":
                return methods({ PUT: (c, now) => setAllowlist(cluster(now), bodyOf(c).ipwhitelist) });
            default:
                return () => jsonReply(404, { message: "Not Found" });
        }
    }

    function createCluster(call: Call, now: number): Reply {
        const body = bodyOf(call);
        const name = nameOf(body.name, "name");
        const channel = typeof body.channelId === "string" ? channelById(body.channelId) : undefined;
        if (channel === undefined) throw new AdminRefusal(400, "channelId is not a channel of /clusters/parameters");
        const generation = typeof body.generationId === "string" ? generationById(channel, body.generationId) : undefined;
        if (generation === undefined) throw new AdminRefusal(400, `generationId is not a generation the channel ${channel.name} allows`);
        const planType = typeof body.planTypeId === "string" ? refById(PARAMETERS.clusterPlanTypes, body.planTypeId) : undefined;
        if (planType === undefined) throw new AdminRefusal(400, "planTypeId is not a plan type of /clusters/parameters");
        const region = typeof body.regionId === "string" ? refById(PARAMETERS.regions, body.regionId) : undefined;
        if (region === undefined) throw new AdminRefusal(400, "regionId is not a region of /clusters/parameters");
        if (body.autoUpdate !== undefined && typeof body.autoUpdate !== "boolean") throw new AdminRefusal(400, "autoUpdate must be a boolean");
        const created = org.createCluster(
            {
                name,
                channel: { uuid: channel.uuid, name: channel.name },
                generation,
                planType,
                region,
                autoUpdate: body.autoUpdate !== false,
                description: descriptionOf(body.description),
                stageLabel: stageOf(body.stageLabel),
            },
            now,
        );
        return jsonReply(200, { clusterId: created.uuid });
    }

    function patchCluster(cluster: HostedCluster, body: Record<string, unknown>): Reply {
        if (body.name !== undefined) cluster.spec.name = nameOf(body.name, "name");
        if (body.description !== undefined) cluster.spec.description = descriptionOf(body.description);
        if (body.stageLabel !== undefined) cluster.spec.stageLabel = stageOf(body.stageLabel);
        return noContent();
    }

    function upgrade(cluster: HostedCluster, now: number): Reply {
        if (cluster.status(now) !== "Healthy") throw new AdminRefusal(412, `Cluster is not ready (${cluster.status(now)})`);
        const channel = channelById(cluster.spec.channel.uuid);
        const newest = channel?.allowedGenerations.at(-1);
        if (newest === undefined || newest.uuid === cluster.spec.generation.uuid) throw new AdminRefusal(400, "No upgrade available for this cluster");
        const old = cluster.spec.generation;
        cluster.upgrade({ uuid: newest.uuid, name: newest.name }, now);
        return jsonReply(200, {
            cluster: { id: cluster.uuid, name: cluster.spec.name },
            oldGeneration: { id: old.uuid, name: old.name },
            newGeneration: { id: newest.uuid, name: newest.name },
            orgId: "emulated-org",
        });
    }

    function createClient(cluster: HostedCluster, body: Record<string, unknown>): Reply {
        const name = nameOf(body.clientName, "clientName");
        if ([...cluster.clients.values()].some((client) => client.name === name))
            throw new AdminRefusal(400, `A client named ${name} exists already in this cluster`);
        const permissions = body.permissions ?? PERMISSIONS;
        if (!Array.isArray(permissions) || !permissions.every((permission) => PERMISSIONS.includes(permission as string))) {
            throw new AdminRefusal(400, `permissions must be a list of ${PERMISSIONS.join(", ")}`);
        }
        if (cluster.clients.size >= org.clientLimit()) throw new AdminRefusal(403, `The limit of ${org.clientLimit()} clients per cluster is reached`);
        const client = cluster.addClient(name, [...new Set(permissions as string[])]);
        const { zeebe, operate, tasklist, optimize, connectors, console } = cluster.links();
        return jsonReply(200, { ...client, audience: "zeebe.emulated.example", links: { zeebe, operate, tasklist, optimize, connectors, console } });
    }

    function clientDetails(cluster: HostedCluster, clientId: string, now: number): Reply {
        const client = cluster.clients.get(clientId);
        if (client === undefined) throw new AdminRefusal(404, `Client ${clientId} not found`);
        if (cluster.status(now) !== "Healthy") throw new AdminRefusal(412, `Cluster is not ready (${cluster.status(now)})`);
        return jsonReply(200, {
            ZEEBE_ADDRESS: cluster.links().zeebe,
            ZEEBE_AUTHORIZATION_SERVER_URL: "https://login.emulated.example/oauth/token",
            ZEEBE_CLIENT_ID: client.clientId,
            name: client.name,
        });
    }

    function deleteClient(cluster: HostedCluster, clientId: string): Reply {
        if (!cluster.clients.delete(clientId)) throw new AdminRefusal(404, `Client ${clientId} not found`);
        return noContent();
    }

    function createSecret(cluster: HostedCluster, body: Record<string, unknown>): Reply {
        const name = secretNameOf(body.secretName);
        if (typeof body.secretValue !== "string") throw new AdminRefusal(400, "secretValue must be a string");
        if (cluster.secrets.has(name)) throw new AdminRefusal(409, `A secret named ${name} exists already`);
        if (cluster.secrets.size >= org.secretLimit()) throw new AdminRefusal(403, `The limit of ${org.secretLimit()} secrets per cluster is reached`);
        cluster.secrets.set(name, body.secretValue);
        return noContent();
    }

    function updateSecret(cluster: HostedCluster, name: string, body: Record<string, unknown>): Reply {
        if (typeof body.secretValue !== "string") throw new AdminRefusal(400, "secretValue must be a string");
        if (!cluster.secrets.has(name)) throw new AdminRefusal(404, `Secret ${name} not found`);
        cluster.secrets.set(name, body.secretValue);
        return noContent();
    }

    function deleteSecret(cluster: HostedCluster, name: string, now: number): Reply {
        if (!cluster.deleteSecret(name, now)) throw new AdminRefusal(404, `Secret ${name} not found`);
        return noContent();
    }

    function setAllowlist(cluster: HostedCluster, entries: unknown): Reply {
        if (!deps.ipAllowlistFeature()) throw new AdminRefusal(403, "The IP allowlist feature is not enabled for this organization");
        if (!Array.isArray(entries)) throw new AdminRefusal(400, "ipallowlist must be a list of {ip, description}");
        cluster.ipallowlist = entries.map((entry, index) => {
            const { ip, description } = (entry ?? {}) as Record<string, unknown>;
            if (typeof ip !== "string" || ip.trim() === "") throw new AdminRefusal(400, `ipallowlist[${index}].ip must be an IP address or CIDR range`);
            if (typeof description !== "string") throw new AdminRefusal(400, `ipallowlist[${index}].description is required`);
            return { ip, description };
        });
        return noContent();
    }

    function listedMember(member: Member): Member {
        return member.invitePending && member.name === "" && deps.invitationName() === "email" ? { ...member, name: member.email } : member;
    }

    function clusterJson(cluster: HostedCluster, now: number): object {
        const { spec } = cluster;
        const ready = cluster.status(now);
        return {
            uuid: cluster.uuid,
            name: spec.name,
            created: new Date(cluster.createdAt).toISOString(),
            ownerId: "emulated-owner",
            autoUpdate: spec.autoUpdate,
            channel: spec.channel,
            generation: spec.generation,
            planType: spec.planType,
            region: spec.region,
            ...(spec.description !== undefined && { description: spec.description }),
            ...(deps.clusterLabels() && { labels: spec.stageLabel === undefined ? [] : [spec.stageLabel] }),
            links: ready === "Creating" ? {} : cluster.links(),
            status: { ready, zeebeStatus: ready, operateStatus: ready, tasklistStatus: ready },
            ...(deps.ipAllowlistFeature() && { ipallowlist: cluster.ipallowlist.map((entry) => ({ ...entry })) }),
        };
    }
}

function bodyOf(call: Call): Record<string, unknown> {
    const text = call.body.toString("utf8");
    if (text.trim() === "") return {};
    let parsed: unknown;
    try {
        parsed = JSON.parse(text);
    } catch {
        throw new AdminRefusal(400, "The body is not valid JSON");
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new AdminRefusal(400, "The body must be a JSON object");
    return parsed as Record<string, unknown>;
}

function nameOf(value: unknown, field: string): string {
    if (typeof value !== "string" || value.trim() === "") throw new AdminRefusal(400, `${field} is required`);
    if (value.length > MAX_NAME_LENGTH) throw new AdminRefusal(400, `${field} is too long (at most ${MAX_NAME_LENGTH} characters)`);
    return value;
}

function secretNameOf(value: unknown): string {
    if (typeof value !== "string" || value === "") throw new AdminRefusal(400, "secretName is required");
    if (value.length >= MAX_NAME_LENGTH) throw new AdminRefusal(400, `secretName must be shorter than ${MAX_NAME_LENGTH} characters`);
    return value;
}

function descriptionOf(value: unknown): string | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "string" || value.length > MAX_DESCRIPTION_LENGTH)
        throw new AdminRefusal(400, `description must be a text of at most ${MAX_DESCRIPTION_LENGTH} characters`);
    return value;
}

function stageOf(value: unknown): string | undefined {
    if (value === undefined || value === null) return undefined;
    if (!STAGES.includes(value as (typeof STAGES)[number])) throw new AdminRefusal(400, `stageLabel must be one of ${STAGES.join(", ")}`);
    return value as string;
}
