// What a step of the organization soak declares and which fault it meets, drawn from a seeded Random: the program's
// members (from a pool of people, the owner and the people the organization already has never among them), one cluster
// (renamed, described, staged anew), its API clients (permissions, rotation by `triggers`), connector secrets (values
// from the stack's secret config) and its IP allowlist. Each draw starts from the last program, so steps are edits a
// platform team would make.

import type { Random } from "../random";

export const PEOPLE = ["ana@example.com", "bo@example.com", "cy@example.com", "di@example.com"];
const ROLES = ["admin", "developer", "analyst", "visitor", "operationsengineer"];
const PERMISSIONS = ["Zeebe", "Operate", "Tasklist", "Optimize", "Secrets"];
const CLIENTS = ["worker", "reader"];
const SECRETS = ["erp", "crm"];
export const SECRET_VALUES = ["value-a", "value-b", "value-c"];
const ALLOWLIST = [
    { ip: "10.1.0.0/16", description: "office" },
    { ip: "192.0.2.7", description: "ci runner" },
    { ip: "198.51.100.0/24", description: "vpn" },
];
const CLUSTER_NAMES = ["orders", "orders-eu", "payments"];
const STAGES = ["dev", "test", "stage", "prod"];

export interface OrganizationProgram {
    members: { name: string; email: string; roles: string[] }[];
    cluster: { name: string; description?: string; stageLabel: string; existingClusterId?: string };
    clients: { name: string; clientName: string; permissions: string[]; triggers: string[]; replaceExisting?: boolean }[];
    /** `value` names the stack's secret config key that holds the value (one of SECRET_VALUES, in config). */
    secrets: { name: string; secretName: string; value: string; adoptExisting?: boolean }[];
    allowlist: { ip: string; description: string }[];
}

export type OrganizationFault =
    /**
     * The up killed this long after it printed a line of the phase: the cluster's create sent (it is Creating), a
     * client's create answered (its secret not yet in the state), or any line of the up (wherever it then is).
     */
    | { kind: "kill"; at: KillPhase; afterMs: number }
    /** The next admin write matching answers with a 5xx or a reset after the server acted. */
    | { kind: "lostAnswer"; method: "POST" | "PUT" | "PATCH" | "DELETE"; pathPrefix: string; answer: 502 | 504 | "reset" }
    /** 429 with Retry-After on the next calls to an interface (tokens included). */
    | { kind: "rateLimited"; interface: "admin" | "auth"; count: number }
    /** A deleted connector secret stays listed for a while. */
    | { kind: "listingLag"; ms: number }
    /** Someone changes the organization in the web console before this step (a refresh follows, then the up). */
    | { kind: "outside"; change: OutsideChange }
    /**
     * The first step's cluster stays Creating past its timeoutSeconds, or ends Unhealthy (repaired in the web console
     * before the resume up).
     */
    | { kind: "clusterCreate"; outcome: "slow" | "Unhealthy" };

export type KillPhase = "clusterCreating" | "clientCreated" | "anyLine";

export type OutsideChange = "memberRemoved" | "roleChanged" | "clientDeleted" | "secretChanged" | "allowlistEdited";

export interface OrganizationStep {
    program: OrganizationProgram;
    fault?: OrganizationFault;
    refreshBetween: boolean;
}

export const FIRST_PROGRAM: OrganizationProgram = {
    members: [{ name: "ana", email: "ana@example.com", roles: ["developer"] }],
    cluster: { name: "orders", stageLabel: "dev" },
    clients: [{ name: "worker", clientName: "worker", permissions: ["Zeebe"], triggers: ["1"] }],
    secrets: [{ name: "erp", secretName: "erp", value: "value-a" }],
    allowlist: [],
};

/** The next program (an edit of `last`) and what it meets. The first step creates FIRST_PROGRAM, with a fault or not. */
export function nextOrganizationStep(random: Random, last: OrganizationProgram | undefined): OrganizationStep {
    const program = last === undefined ? structuredClone(FIRST_PROGRAM) : edit(random, last);
    return { program, fault: drawFault(random, last === undefined), refreshBetween: random.chance(0.2) };
}

function edit(random: Random, last: OrganizationProgram): OrganizationProgram {
    const program = structuredClone(last);
    for (let edits = random.int(1, 3); edits > 0; edits--) {
        switch (random.int(0, 7)) {
            case 0: {
                const email = random.pick(PEOPLE);
                const index = program.members.findIndex((member) => member.email === email);
                if (index >= 0) program.members.splice(index, 1);
                else program.members.push({ name: email.split("@")[0], email, roles: [random.pick(ROLES)] });
                break;
            }
            case 1:
                if (program.members.length > 0) random.pick(program.members).roles = someOf(random, ROLES);
                break;
            case 2:
                program.cluster.name = random.pick(CLUSTER_NAMES);
                break;
            case 3:
                if (random.chance(0.5)) program.cluster.description = `the ${random.pick(["orders", "billing", "audit"])} workflows`;
                else program.cluster.stageLabel = random.pick(STAGES);
                break;
            case 4: {
                const name = random.pick(CLIENTS);
                const client = program.clients.find((each) => each.name === name);
                if (client === undefined) program.clients.push({ name, clientName: name, permissions: someOf(random, PERMISSIONS), triggers: ["1"] });
                else if (random.chance(0.3)) program.clients.splice(program.clients.indexOf(client), 1);
                else if (random.chance(0.5)) client.permissions = someOf(random, PERMISSIONS);
                else client.triggers = [String(Number(client.triggers[0]) + 1)];
                break;
            }
            case 5: {
                const name = random.pick(SECRETS);
                const secret = program.secrets.find((each) => each.name === name);
                if (secret === undefined) program.secrets.push({ name, secretName: name, value: random.pick(SECRET_VALUES) });
                else if (random.chance(0.3)) program.secrets.splice(program.secrets.indexOf(secret), 1);
                else secret.value = random.pick(SECRET_VALUES);
                break;
            }
            case 6:
            case 7:
                program.allowlist = ALLOWLIST.filter(() => random.chance(0.5));
                break;
        }
    }
    return program;
}

function drawFault(random: Random, first: boolean): OrganizationFault | undefined {
    const roll = random.next();
    if (roll < 0.35) return undefined;
    if (roll < 0.55) {
        const at: KillPhase = first ? random.pick(["clusterCreating", "clientCreated"] as const) : random.pick(["clientCreated", "anyLine"] as const);
        return { kind: "kill", at, afterMs: random.int(0, 400) };
    }
    if (roll < 0.72) {
        const [method, pathPrefix] = random.pick([
            ["POST", "/members/"],
            ["DELETE", "/members/"],
            ["POST", "/clusters"],
            ["PATCH", "/clusters/"],
            ["PUT", "/clusters/"],
            ["DELETE", "/clusters/"],
        ] as const);
        return { kind: "lostAnswer", method, pathPrefix, answer: random.pick([502, 504, "reset"] as const) };
    }
    if (roll < 0.82) return { kind: "rateLimited", interface: random.pick(["admin", "auth"] as const), count: random.int(1, 2) };
    if (roll < 0.88) return { kind: "listingLag", ms: random.int(300, 1_500) };
    if (first) return { kind: "clusterCreate", outcome: random.pick(["slow", "Unhealthy"] as const) };
    return {
        kind: "outside",
        change: random.pick(["memberRemoved", "roleChanged", "clientDeleted", "secretChanged", "allowlistEdited"] as const),
    };
}

function someOf(random: Random, items: readonly string[]): string[] {
    const chosen = items.filter(() => random.chance(0.4));
    return chosen.length > 0 ? chosen : [random.pick(items)];
}
