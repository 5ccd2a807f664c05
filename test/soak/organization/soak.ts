// A seeded soak of the administration resources: a random sequence of programs over members, one cluster, its API
// clients, connector secrets and allowlist (steps.ts), one stack through test/engine against the emulator, at most one
// fault per step (a kill, a lost answer after the server acted, 429s, the listing lag after a delete, a change in the
// web console followed by a refresh). An up that fails is followed by the resume up; a refusal that names an input
// as its way out (existingClusterId, replaceExisting, adoptExisting) is answered the way its message says, in the
// program, as a pipeline's owner would. The invariants (invariants.ts) are checked after every step.

import { killedAtLine } from "../killAtLine";
import { CLIENT } from "../../provider/adminClientSupport";
import { SecretLedger } from "../../support/secretScan";
import { producedTexts } from "../../support/stack";
import { Random } from "../random";
import { ORGANIZATION_INVARIANTS, brokenOrganizationInvariants } from "./invariants";
import { KillPhase, OrganizationFault, OrganizationProgram, OrganizationStep, nextOrganizationStep } from "./steps";
import { OrganizationWorld, SECRET_CONFIG, SETTINGS } from "./world";
import type { AdminRun } from "../../provider/adminClientSupport";

export interface OrganizationStepReport {
    index: number;
    fault?: OrganizationFault;
    /** What the web console changed, when the fault was one. */
    outside?: string;
    refreshBetween: boolean;
    /** The ways out the step's refusals named and the soak took (`replaceExisting worker`, ...). */
    waysOut: string[];
    resumed: boolean;
    checked: number;
    broken: string[];
    ms: number;
}

export interface OrganizationSoakResult {
    seed: number;
    /** How the emulator answered what the API leaves undocumented in this run. */
    server: { clusterLabels: boolean; invitationName: "empty" | "email" };
    steps: OrganizationStepReport[];
    failure?: { step: number; broken: string[]; replay: string };
    ms: number;
}

/** Lines of the up (its update pass, not the preview before it) that mark where a kill lands. */
const KILL_PHASES: Record<KillPhase, RegExp> = {
    clusterCreating: /: creating cluster /,
    clientCreated: /: created client /,
    anyLine: /^(Cluster|ClusterClient|ConnectorSecret|IpAllowlist|OrganizationMember) "/,
};

/** At most this many ups after the first in a step: each refusal with a way out costs one. */
const MAX_RESUMES = 4;
/** Every error of a failed up names the resource it is about: in the provider's words, or the engine's (a check failure). */
const SUBJECT = /(Cluster|ClusterClient|ConnectorSecret|IpAllowlist|OrganizationMember) "[^"]+"|platform:\w+ resource '[^']+' has a problem/;

export function organizationReplayCommand(seed: number, steps: number): string {
    return `npm run soak -- --organization --seed ${seed} --steps ${steps}`;
}

export async function runOrganizationSoak(options: {
    seed: number;
    steps: number;
    onStep?: (report: OrganizationStepReport) => void;
}): Promise<OrganizationSoakResult> {
    const started = Date.now();
    const random = new Random(options.seed);
    // What the API leaves undocumented, answered one way or the other per seed: labels on a cluster, a pending
    // invitation's name in the listing.
    const world = new OrganizationWorld({ clusterLabels: random.chance(0.5), invitationName: random.pick(["empty", "email"] as const) });
    const reports: OrganizationStepReport[] = [];
    let program: OrganizationProgram | undefined;
    await world.start();
    try {
        for (let index = 1; index <= options.steps; index++) {
            // Each program is an edit of the last, ways out taken earlier included, as they would stay in a user's.
            const step = nextOrganizationStep(random, program);
            const stepStarted = Date.now();
            const outcome = await runStep(world, step);
            const report: OrganizationStepReport = {
                index,
                ...(step.fault ? { fault: step.fault } : {}),
                ...(outcome.outside ? { outside: outcome.outside } : {}),
                refreshBetween: step.refreshBetween,
                waysOut: outcome.waysOut,
                resumed: outcome.resumed,
                checked: ORGANIZATION_INVARIANTS,
                broken: outcome.broken,
                ms: Date.now() - stepStarted,
            };
            reports.push(report);
            options.onStep?.(report);
            if (outcome.broken.length > 0) {
                return {
                    seed: options.seed,
                    server: world.server,
                    steps: reports,
                    failure: { step: index, broken: outcome.broken, replay: organizationReplayCommand(options.seed, index) },
                    ms: Date.now() - started,
                };
            }
            program = step.program;
        }
        return { seed: options.seed, server: world.server, steps: reports, ms: Date.now() - started };
    } finally {
        await world.stop();
    }
}

async function runStep(world: OrganizationWorld, step: OrganizationStep): Promise<{ broken: string[]; resumed: boolean; waysOut: string[]; outside?: string }> {
    const { program, fault } = step;
    const runsBefore = world.runs.length;
    const broken: string[] = [];
    let outside: string | undefined;
    if (fault?.kind === "outside") {
        outside = await world.changeOutside(fault.change, program);
        const refresh = await world.run("refresh", program);
        if (refresh.result.exitCode !== 0) broken.push(`the refresh after the web console's change failed: ${refresh.result.errors.join("; ")}`);
    }
    const first = await faultedUp(world, step);
    clearFaults(world);
    let last = first;
    const waysOut: string[] = [];
    const killed = fault?.kind === "kill" && first.result.exitCode === 128 + 9;
    if (first.result.exitCode !== 0 && !killed) broken.push(...unnamedFailures(first));
    if (step.refreshBetween) {
        const refresh = await world.run("refresh", program);
        if (refresh.result.exitCode !== 0) broken.push(`the refresh between the ups failed: ${refresh.result.errors.join("; ")}`);
    }
    for (let resume = 0; (last.result.exitCode !== 0 || step.refreshBetween) && resume < MAX_RESUMES; resume++) {
        if (last.result.exitCode !== 0) {
            const taken = takeWayOut(last, program);
            if (taken !== undefined) waysOut.push(taken);
        }
        last = await world.run("up", program);
        if (last.result.exitCode !== 0) broken.push(...unnamedFailures(last));
        if (last.result.exitCode === 0) break;
    }
    const preview = await world.run("preview", program);
    broken.push(
        ...brokenOrganizationInvariants({
            program,
            finalUp: last,
            preview,
            members: world.control.members(),
            clusters: world.control.hostedClusters(),
            leaks: leaksOf(world, world.runs.slice(runsBefore)),
        }),
    );
    return { broken, resumed: first.result.exitCode !== 0, waysOut, ...(outside ? { outside } : {}) };
}

/** The step's first up, with its fault. */
async function faultedUp(world: OrganizationWorld, step: OrganizationStep): Promise<AdminRun> {
    const fault = step.fault;
    switch (fault?.kind) {
        case "kill":
            return killedAtLine((options) => world.run("up", step.program, options), KILL_PHASES[fault.at], fault.afterMs);
        case "lostAnswer":
            world.control.addFault({
                interface: "admin",
                method: fault.method,
                pathPrefix: fault.pathPrefix,
                count: 1,
                afterProcessing: true,
                ...(fault.answer === "reset" ? { reset: true } : { status: fault.answer }),
            });
            return world.run("up", step.program);
        case "rateLimited":
            world.control.addFault({ interface: fault.interface, count: fault.count, status: 429, retryAfter: "1" });
            return world.run("up", step.program);
        case "listingLag":
            world.control.updateSettings({ secretDeleteLagMs: fault.ms });
            return world.run("up", step.program);
        case "clusterCreate":
            if (fault.outcome === "Unhealthy") {
                world.control.updateSettings({ clusterCreateOutcome: "Unhealthy" });
                return world.run("up", step.program);
            }
            world.control.updateSettings({ clusterCreateMs: 2_500 });
            return world.run("up", step.program, { clusterTimeoutSeconds: 1 });
        case "outside":
        case undefined:
            return world.run("up", step.program);
    }
}

function clearFaults(world: OrganizationWorld): void {
    world.control.clearFaults();
    const { clusterCreateMs, clusterCreateOutcome } = SETTINGS;
    world.control.updateSettings({ secretDeleteLagMs: 0, clusterCreateMs, clusterCreateOutcome });
    // A cluster that ended Unhealthy is repaired in the web console: the next up waits for it.
    for (const cluster of world.control.hostedClusters()) if (cluster.status === "Unhealthy") world.control.setHostedClusterStatus(cluster.id, "Healthy");
}

/** A failed up's errors that name no resource: a user could not tell what to fix. */
function unnamedFailures(run: AdminRun): string[] {
    const errors = run.result.errors.filter((error) => !/^update failed$|^preview failed$/.test(error.trim()));
    return errors.some((error) => SUBJECT.test(error)) ? [] : [`a failed up names no resource: ${errors.join("; ") || run.result.stderr}`];
}

/** Answers a refusal that names an input as its way out, in the program; returns what it set. */
function takeWayOut(run: AdminRun, program: OrganizationProgram): string | undefined {
    const text = run.result.errors.join("\n");
    const cluster = /set existingClusterId: "([^"]+)"/.exec(text);
    if (cluster) {
        program.cluster.existingClusterId = cluster[1];
        return `existingClusterId ${cluster[1]}`;
    }
    const client = /ClusterClient "([^"]+)".*replaceExisting/.exec(text);
    if (client) {
        const declared = program.clients.find((each) => each.name === client[1]);
        if (declared) declared.replaceExisting = true;
        return `replaceExisting ${client[1]}`;
    }
    const secret = /ConnectorSecret "([^"]+)".*set adoptExisting: true/.exec(text);
    if (secret) {
        const declared = program.secrets.find((each) => each.name === secret[1]);
        if (declared) declared.adoptExisting = true;
        return `adoptExisting ${secret[1]}`;
    }
    return undefined;
}

/** What this step's runs printed and wrote, against the admin secret, every API client's secret and connector value. */
function leaksOf(world: OrganizationWorld, runs: AdminRun[]): string[] {
    const ledger = new SecretLedger();
    ledger.addSecret("admin client secret", CLIENT.clientSecret);
    for (const [key, value] of Object.entries(SECRET_CONFIG)) ledger.addSecret(`connector secret ${key}`, value);
    for (const cluster of world.control.hostedClusters()) {
        for (const client of cluster.clients) ledger.addSecret(`client secret of ${client.name}`, client.clientSecret);
    }
    ledger.watchTokenCache(world.tokenCacheDir);
    return runs.flatMap((run, index) =>
        ledger.record(`run ${index + 1}`, producedTexts(run.result, world.stateFile)).map((leak) => `${leak.where}: ${leak.what}`),
    );
}
