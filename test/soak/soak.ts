// A seeded soak of ClusterScale: a random sequence of layouts and faults against the emulator and its Kubernetes
// stand-in, one stack through test/engine, with the invariants checked after every step (invariants.ts). The same
// seed replays the same layouts and faults. Each step: the up with its fault (an up that may be killed runs in
// processes of its own, every other run in this process), a refresh now and then, the up that resumes a killed or
// failed one, then the invariants, a preview right after included.

import { killedAtLine } from "./killAtLine";
import { brokenInvariants } from "./invariants";
import { Random } from "./random";
import { Fault, SoakLayout, SoakModel, SoakStep, nextStep } from "./steps";
import { START, SoakWorld } from "./world";
import type { ScaleRun } from "../provider/clusterScaleSupport";
import { mutating } from "../support/requestLog";

export interface SoakOptions {
    seed: number;
    steps: number;
    /** Told of each step as it ends. */
    onStep?: (report: StepReport) => void;
}

export interface StepReport {
    index: number;
    layout: SoakLayout;
    fault?: Fault;
    refused?: string;
    crash?: number;
    refreshBetween: boolean;
    /** The first up of the step failed (a refusal, a fault) or was killed, and another up resumed it. */
    resumed: boolean;
    /** Invariants checked, and those that did not hold. */
    checked: number;
    broken: string[];
    ms: number;
}

export interface SoakResult {
    seed: number;
    steps: StepReport[];
    /** The first step whose invariants did not hold (the soak stops there), with the command that replays it. */
    failure?: { step: number; broken: string[]; replay: string };
    ms: number;
}

/** The invariants brokenInvariants checks per step (a refused layout checks only that nothing was sent). */
const INVARIANTS = 15;

/** Phrases of the up's own lines that mark where a kill lands. */
const PHASES: Record<"podsStart" | "changeRuns" | "podsStop", RegExp> = {
    podsStart: /waiting for pods? .* to run before the layout change/,
    changeRuns: / change \d+ accepted/,
    podsStop: /stop; the layout no longer names them/,
};

export function replayCommand(seed: number, steps: number): string {
    return `npm run soak -- --seed ${seed} --steps ${steps}`;
}

export async function runSoak(options: SoakOptions): Promise<SoakResult> {
    const started = Date.now();
    const random = new Random(options.seed);
    const world = new SoakWorld();
    const reports: StepReport[] = [];
    let model: SoakModel = { ...START, shortfall: 0 };
    await world.start();
    // The claims that exist: those of the ordinals that ever ran, less those deleted.
    let claims = new Set(Array.from({ length: START.brokers }, (_, i) => world.claimName(i)));
    try {
        for (let index = 1; index <= options.steps; index++) {
            const step = nextStep(random, model, index);
            const stepStarted = Date.now();
            const outcome = await runStep(world, step, claims, model.brokers);
            const report: StepReport = {
                index,
                layout: step.layout,
                ...(step.fault ? { fault: step.fault } : {}),
                ...(step.refused ? { refused: step.refused } : {}),
                ...(step.crash !== undefined ? { crash: step.crash } : {}),
                refreshBetween: step.refreshBetween,
                resumed: outcome.resumed,
                checked: step.refused ? 1 : INVARIANTS,
                broken: outcome.broken,
                ms: Date.now() - stepStarted,
            };
            reports.push(report);
            options.onStep?.(report);
            if (outcome.broken.length > 0) {
                return {
                    seed: options.seed,
                    steps: reports,
                    failure: { step: index, broken: outcome.broken, replay: replayCommand(options.seed, index) },
                    ms: Date.now() - started,
                };
            }
            if (!step.refused) {
                model = {
                    brokers: step.layout.brokerCount,
                    partitions: step.layout.partitionCount,
                    replicationFactor: step.layout.replicationFactor,
                    shortfall: step.shortfall,
                };
                claims = outcome.claims;
            }
        }
        return { seed: options.seed, steps: reports, ms: Date.now() - started };
    } finally {
        await world.stop();
    }
}

async function runStep(
    world: SoakWorld,
    step: SoakStep,
    claims: Set<string>,
    brokersBefore: number,
): Promise<{ broken: string[]; resumed: boolean; claims: Set<string> }> {
    const { layout } = step;
    const acceptedBefore = world.acceptedChanges();
    if (step.crash !== undefined) world.workloads.crash(step.crash);
    const first = await faultedUp(world, step);
    clearFaults(world);
    if (step.refused) {
        const sent = mutating(first.requests).length;
        const broken: string[] = [];
        if (first.result.exitCode === 0) broken.push(`the up of a refused layout (${step.refused}) succeeded`);
        if (sent > 0 || world.acceptedChanges() !== acceptedBefore) broken.push(`the up of a refused layout (${step.refused}) sent ${sent} requests`);
        return { broken, resumed: false, claims };
    }
    const resumed = first.result.exitCode !== 0;
    if (step.refreshBetween) {
        const refresh = await world.run("refresh", layout);
        if (refresh.result.exitCode !== 0) return { broken: [`the refresh between the ups failed: ${refresh.result.errors.join("; ")}`], resumed, claims };
    }
    const finalUp = resumed || step.refreshBetween ? await world.run("up", layout) : first;
    const writesBefore = world.workloads.replicaWrites.length;
    const preview = await world.run("preview", layout);
    const expected = expectedClaims(world, layout, claims, brokersBefore);
    const broken = brokenInvariants({
        layout,
        shortfall: step.shortfall,
        cluster: await world.cluster(),
        workload: world.workloadView(),
        lost: world.workloads.lost.length,
        acceptedChanges: world.acceptedChanges() - acceptedBefore,
        finalUp,
        preview,
        previewScaleWrites: world.workloads.replicaWrites.length - writesBefore,
        expectedClaims: [...expected],
    });
    return { broken, resumed, claims: expected };
}

/** The step's first up, with its fault: killed ones in processes of their own, the rest in this process. */
async function faultedUp(world: SoakWorld, step: SoakStep): Promise<ScaleRun> {
    const fault = step.fault;
    switch (fault?.kind) {
        case "kill":
            return killedAtLine((options) => world.run("up", step.layout, options), PHASES[fault.at], fault.afterMs);
        case "podDeleted":
        case "containerRestart": {
            let done = false;
            const strike = () => {
                if (done) return;
                done = true;
                if (fault.kind === "podDeleted") world.workloads.deletePod(fault.ordinal);
                else world.workloads.restartContainer(fault.ordinal);
            };
            return world.run("up", step.layout, { onLine: (line) => (/waiting for pod| accepted/.test(line) ? strike() : undefined) });
        }
        case "scaleWrite":
            world.workloadApi.scaleWriteFaults.push(fault.answer);
            return world.run("up", step.layout);
        case "layoutRequest":
            for (const method of ["POST", "PATCH"]) {
                world.control.addFault({
                    interface: "management",
                    method,
                    pathPrefix: "/actuator/cluster",
                    query: { dryRun: null },
                    count: 1,
                    ...(fault.answer === "reset" ? { reset: true } : { status: fault.answer }),
                    afterProcessing: fault.afterProcessing,
                });
            }
            return world.run("up", step.layout);
        case "slowOperations":
            world.control.updateSettings({ opMs: 600 });
            return world.run("up", step.layout, { timeoutSeconds: 1 });
        case undefined:
            return world.run("up", step.layout);
    }
}

function clearFaults(world: SoakWorld): void {
    world.control.clearFaults();
    world.workloadApi.scaleWriteFaults.length = 0;
    world.control.updateSettings({ opMs: 10 });
}

/**
 * The claims after the step: every member ordinal has one; with volumes "delete" the claims of the brokers this step
 * removed go, and only those (a claim an earlier step retained stays); with "retain" every claim stays.
 */
function expectedClaims(world: SoakWorld, layout: SoakLayout, before: Set<string>, brokersBefore: number): Set<string> {
    const claims = new Set([...before, ...Array.from({ length: layout.brokerCount }, (_, ordinal) => world.claimName(ordinal))]);
    if (layout.volumes === "delete") for (let ordinal = layout.brokerCount; ordinal < brokersBefore; ordinal++) claims.delete(world.claimName(ordinal));
    return claims;
}
