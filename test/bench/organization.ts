// 8. Organization as code, each run the engine as the CLI runs it (the program and the dynamic-provider host in
// processes of their own):
// - a preview of 100 OrganizationMember resources against one of 100 resources of the trivial provider: the time it
//   adds (target: 2 s), the member list reads it makes (target: one per provider host), the tokens it asks for;
// - a preview of a stack of one cluster, 20 API clients, 50 connector secrets and an allowlist after its up: its time,
//   its requests (target: one GET per list endpoint of the cluster, and the parameters), and no write.

import { mkdtempSync, rmSync } from "fs";
import { tmpdir } from "os";
import * as path from "path";
import type { Member } from "../emulator";
import { DEMO_CLIENT } from "../emulator/settings";
import { runPulumi } from "../engine";
import { BenchEmulator } from "./emulatorProcess";
import { SectionResult, figure } from "./figures";
import { median } from "./stats";

export interface OrganizationOptions {
    members: number;
    /** The hosted stack: API clients and connector secrets of its cluster. */
    clients: number;
    secrets: number;
    /** Previews of each program; the median counts. */
    repeats: number;
    /** The engine in this process (the smoke run: it checks the section's code, its figures mean nothing). */
    inProcess?: boolean;
}

export const DEFAULT_ORGANIZATION: OrganizationOptions = { members: 100, clients: 20, secrets: 50, repeats: 3 };

const PROGRAMS = path.join(__dirname, "programs");
const PASSPHRASE = "bench passphrase";

interface PreviewRun {
    durationMs: number;
    memberListReads: number;
    tokenRequests: number;
    /** Requests to the administration API: reads, and writes (none in a preview). */
    adminReads: number;
    adminWrites: number;
}

async function preview(
    emulator: BenchEmulator,
    program: string,
    settings: Record<string, number>,
    workDir: string,
    inProcess: boolean,
    command: "preview" | "up" = "preview",
): Promise<PreviewRun> {
    await emulator.clearRequests();
    const start = Date.now();
    const result = await runPulumi({
        command,
        programDir: path.join(PROGRAMS, program),
        stack: "bench",
        stateFile: path.join(workDir, `${program}.json`),
        config: {
            ...Object.fromEntries(Object.entries(settings).map(([key, value]) => [key, String(value)])),
            "platform:clientId": DEMO_CLIENT.clientId,
            "platform:oauthUrl": emulator.urls.authUrl,
            "platform:baseUrl": emulator.urls.baseUrl,
        },
        secrets: { "platform:clientSecret": DEMO_CLIENT.clientSecret },
        env: { PULUMI_CONFIG_PASSPHRASE: PASSPHRASE, PLATFORM_TOKEN_CACHE_DIR: path.join(workDir, "tokens") },
        timeoutMs: 180_000,
        inProcess,
    });
    const durationMs = Date.now() - start;
    if (result.exitCode !== 0) throw new Error(`${command} of ${program} exited with ${result.exitCode}: ${result.errors.slice(0, 3).join("; ")}`);
    const log = await emulator.requests();
    const admin = log.filter((entry) => entry.interface === "admin");
    return {
        durationMs,
        memberListReads: admin.filter((entry) => entry.method === "GET" && entry.path === "/members").length,
        tokenRequests: log.filter((entry) => entry.interface === "auth").length,
        adminReads: admin.filter((entry) => entry.method === "GET").length,
        adminWrites: admin.filter((entry) => entry.method !== "GET").length,
    };
}

export async function benchOrganization(emulator: BenchEmulator, options: OrganizationOptions = DEFAULT_ORGANIZATION): Promise<SectionResult> {
    // Half of the people belong to the organization already (adopted), half are invited.
    const existing: Member[] = Array.from({ length: Math.floor(options.members / 2) }, (_, i) => ({
        name: `Person ${i}`,
        email: `person${i}@example.com`,
        roles: ["analyst"],
        invitePending: false,
    }));
    await emulator.reset({
        members: [{ name: "Owner", email: "owner@example.com", roles: ["owner"], invitePending: false }, ...existing],
        clusterCreateMs: 200,
    });
    const workDir = mkdtempSync(path.join(tmpdir(), "bench-organization-"));
    try {
        const members: PreviewRun[] = [];
        const trivial: PreviewRun[] = [];
        const inProcess = options.inProcess === true;
        const hosted: PreviewRun[] = [];
        const hostedSettings = { clients: options.clients, secrets: options.secrets };
        const hostedUp = await preview(emulator, "hosted", hostedSettings, workDir, inProcess, "up");
        for (let i = 0; i < options.repeats; i++) {
            trivial.push(await preview(emulator, "trivial", { count: options.members }, workDir, inProcess));
            members.push(await preview(emulator, "members", { count: options.members }, workDir, inProcess));
            hosted.push(await preview(emulator, "hosted", hostedSettings, workDir, inProcess));
        }
        const membersMs = median(members.map((run) => run.durationMs));
        const trivialMs = median(trivial.map((run) => run.durationMs));
        const n = options.members;
        return {
            figures: [
                figure("organization", "members.previewMs", `preview of ${n} OrganizationMembers (median)`, membersMs, "ms", null, members.length),
                figure("organization", "trivial.previewMs", `preview of ${n} trivial resources (median)`, trivialMs, "ms", null, trivial.length),
                figure("organization", "members.previewOverTrivialMs", `${n} members: preview time over the trivial provider`, membersMs - trivialMs, "ms", {
                    op: "<=",
                    value: 2_000,
                }),
                figure(
                    "organization",
                    "members.memberListReads",
                    "GET /members per preview (one provider host)",
                    Math.max(...members.map((run) => run.memberListReads)),
                    "requests",
                    {
                        op: "==",
                        value: 1,
                    },
                ),
                figure(
                    "organization",
                    "members.tokenRequests",
                    `token requests over ${members.length} previews`,
                    members.reduce((sum, run) => sum + run.tokenRequests, 0),
                    "requests",
                    {
                        op: "<=",
                        value: 1,
                    },
                ),
                figure(
                    "organization",
                    "hosted.previewMs",
                    `preview of 1 cluster, ${options.clients} clients, ${options.secrets} secrets, 1 allowlist (median)`,
                    median(hosted.map((run) => run.durationMs)),
                    "ms",
                    null,
                    hosted.length,
                ),
                figure(
                    "organization",
                    "hosted.previewReads",
                    "its administration API reads per preview",
                    Math.max(...hosted.map((run) => run.adminReads)),
                    "requests",
                    {
                        op: "<=",
                        value: 4,
                    },
                ),
                figure("organization", "hosted.previewWrites", "its writes per preview", Math.max(...hosted.map((run) => run.adminWrites)), "requests", {
                    op: "==",
                    value: 0,
                }),
                figure("organization", "hosted.upMs", `up of that stack (${hostedUp.adminWrites} writes)`, hostedUp.durationMs, "ms"),
            ],
            details: { members: n, existing: existing.length, hosted: hostedSettings, runs: { members, trivial, hosted, hostedUp } },
        };
    } finally {
        rmSync(workDir, { recursive: true, force: true });
    }
}
