// What must hold after every step of the organization soak, the resume up included: the up succeeded; nothing
// created twice; the organization as the program declares it and nothing else changed (the owner and the people the
// program never names untouched); the state as the API shows it; a preview right after that shows no change and sends
// nothing; no secret in plain text anywhere a run wrote or printed. Each broken one is a sentence naming what differs.

import type { HostedClusterView, Member } from "../../emulator";
import type { AdminRun } from "../../provider/adminClientSupport";
import type { OrganizationProgram } from "./steps";
import { PEOPLE } from "./steps";
import { ORGANIZATION, SECRET_CONFIG } from "./world";

export interface OrganizationFacts {
    program: OrganizationProgram;
    finalUp: AdminRun;
    preview: AdminRun;
    members: Member[];
    clusters: HostedClusterView[];
    /** Leaks the scan found in this step's runs and files. */
    leaks: string[];
}

/** How many invariants brokenOrganizationInvariants checks. */
export const ORGANIZATION_INVARIANTS = 9;

export function brokenOrganizationInvariants(facts: OrganizationFacts): string[] {
    const { program, finalUp, preview, members, clusters, leaks } = facts;
    const broken: string[] = [];
    if (finalUp.result.exitCode !== 0) broken.push(`the final up failed: ${finalUp.result.errors.join("; ")}`);

    const live = clusters.filter((cluster) => !cluster.deleting);
    if (live.length !== 1) broken.push(`${live.length} clusters exist, not one: ${live.map((cluster) => cluster.name).join(", ")}`);
    const cluster = live[0];
    if (cluster !== undefined) {
        const declared = program.cluster;
        const seen = { name: cluster.name, stageLabel: cluster.stageLabel, description: cluster.description ?? undefined };
        const wanted = { name: declared.name, stageLabel: declared.stageLabel, description: declared.description };
        if (
            seen.name !== wanted.name ||
            seen.stageLabel !== wanted.stageLabel ||
            (wanted.description !== undefined && seen.description !== wanted.description)
        ) {
            broken.push(`the cluster is ${JSON.stringify(seen)}, the program declares ${JSON.stringify(wanted)}`);
        }
        broken.push(...clientDifferences(program, cluster), ...secretDifferences(program, cluster));
        const allowlist = sorted(cluster.ipallowlist.map((entry) => `${entry.ip} ${entry.description}`));
        const wantedAllowlist = sorted(program.allowlist.map((entry) => `${entry.ip} ${entry.description}`));
        if (allowlist.join() !== wantedAllowlist.join())
            broken.push(`the allowlist is [${allowlist.join(", ")}], the program declares [${wantedAllowlist.join(", ")}]`);
    }

    broken.push(...memberDifferences(program, members));
    broken.push(...stateDifferences(finalUp, members, cluster));

    if (preview.result.exitCode !== 0) broken.push(`the preview right after failed: ${preview.result.errors.join("; ")}`);
    const changes = preview.result.steps.filter((step) => step.type.includes("dynamic/platform:") && step.op !== "same");
    if (changes.length > 0) broken.push(`the preview right after shows changes: ${changes.map((step) => `${step.name} ${step.op}`).join(", ")}`);
    const writes = preview.requests.filter((request) => request.interface === "admin" && request.method !== "GET");
    if (writes.length > 0) broken.push(`the preview right after sent ${writes.map((request) => `${request.method} ${request.path}`).join(", ")}`);

    if (leaks.length > 0) broken.push(`secrets in plain text: ${leaks.join("; ")}`);
    return broken;
}

function clientDifferences(program: OrganizationProgram, cluster: HostedClusterView): string[] {
    const broken: string[] = [];
    for (const declared of program.clients) {
        const named = cluster.clients.filter((client) => client.name === declared.clientName);
        if (named.length !== 1) broken.push(`${named.length} clients named ${declared.clientName}, not one`);
        else if (sorted(named[0].permissions).join() !== sorted(declared.permissions).join()) {
            broken.push(
                `client ${declared.clientName} has permissions ${named[0].permissions.join(", ")}, the program declares ${declared.permissions.join(", ")}`,
            );
        }
    }
    const undeclared = cluster.clients.filter((client) => !program.clients.some((declared) => declared.clientName === client.name));
    if (undeclared.length > 0) broken.push(`clients the program no longer declares remain: ${undeclared.map((client) => client.name).join(", ")}`);
    return broken;
}

function secretDifferences(program: OrganizationProgram, cluster: HostedClusterView): string[] {
    const broken: string[] = [];
    for (const declared of program.secrets) {
        const value = cluster.secrets[declared.secretName];
        if (value === undefined) broken.push(`secret ${declared.secretName} does not exist`);
        else if (value !== SECRET_CONFIG[declared.value]) broken.push(`secret ${declared.secretName} holds another value than the program's ${declared.value}`);
    }
    const undeclared = Object.keys(cluster.secrets).filter((name) => !program.secrets.some((declared) => declared.secretName === name));
    if (undeclared.length > 0) broken.push(`secrets the program no longer declares remain: ${undeclared.join(", ")}`);
    return broken;
}

function memberDifferences(program: OrganizationProgram, members: Member[]): string[] {
    const broken: string[] = [];
    const emails = members.map((member) => member.email);
    const twice = emails.filter((email, index) => emails.indexOf(email) !== index);
    if (twice.length > 0) broken.push(`listed twice: ${twice.join(", ")}`);
    for (const declared of program.members) {
        const member = members.find((each) => each.email === declared.email);
        if (member === undefined) broken.push(`${declared.email} is not in the organization`);
        else if (sorted(member.roles).join() !== sorted(declared.roles).join()) {
            broken.push(`${declared.email} has roles ${member.roles.join(", ")}, the program declares ${declared.roles.join(", ")}`);
        }
    }
    for (const person of PEOPLE) {
        if (!program.members.some((declared) => declared.email === person) && emails.includes(person))
            broken.push(`${person}, no longer declared, is still in the organization`);
    }
    for (const untouched of ORGANIZATION) {
        const now = members.find((member) => member.email === untouched.email);
        if (now === undefined || sorted(now.roles).join() !== sorted(untouched.roles).join()) {
            broken.push(`${untouched.email}, never declared, was changed: ${now === undefined ? "removed" : now.roles.join(", ")}`);
        }
    }
    return broken;
}

/** The state's record of each resource against the API: the cluster's id, each client's id, each member's roles. */
function stateDifferences(finalUp: AdminRun, members: Member[], cluster: HostedClusterView | undefined): string[] {
    const broken: string[] = [];
    for (const resource of Object.values(finalUp.result.state.resources)) {
        const outputs = resource.outputs as Record<string, unknown>;
        if (resource.type.endsWith(":Cluster") && outputs.clusterId !== cluster?.id) {
            broken.push(`the state records cluster ${String(outputs.clusterId)}, the API has ${cluster?.id}`);
        }
        if (resource.type.endsWith(":ClusterClient") && !cluster?.clients.some((client) => client.clientId === outputs.clientId)) {
            broken.push(`the state records client ${String(outputs.clientId)}, which the API does not have`);
        }
        if (resource.type.endsWith(":OrganizationMember")) {
            const member = members.find((each) => each.email === outputs.email);
            const recorded = sorted((outputs.roles as string[] | undefined) ?? []).join();
            if (member === undefined || sorted(member.roles).join() !== recorded) {
                broken.push(
                    `the state records ${String(outputs.email)} with roles ${recorded}, the API ${member ? member.roles.join(",") : "has no such member"}`,
                );
            }
        }
    }
    return broken;
}

function sorted(items: readonly string[]): string[] {
    return [...items].sort();
}
