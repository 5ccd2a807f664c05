// 7. Kubernetes: pods and layout change in order. With kubernetes.statefulSet, how long after the new brokers' pods run
// (their containers started: a broker that is no member yet cannot be Ready) ClusterScale sends the layout change, and
// how long after a scale-down's change completed it lowers the StatefulSet's replicas. Both lags are inside one up, so
// the ups run through the in-process engine against an emulator and the Kubernetes stand-in whose pods are its
// brokers, in this process; the times come from the emulator's request log and the stand-in's own records.

import { ClusterClient } from "../../sdk/cluster/clusterClient";
import { OPERATOR_RULES, startBrokerPods } from "../support/brokerPods";
import { ClusterScaleFixture } from "../provider/clusterScaleSupport";
import { Figure, SectionResult, figure } from "./figures";
import { max, median, round } from "./stats";

export interface RolloutLagOptions {
    /** Scale-ups and scale-downs measured (one of each per repeat). */
    repeats: number;
}

export const DEFAULT_ROLLOUT: RolloutLagOptions = { repeats: 8 };
export const TARGET_ROLLOUT_LAG_MS = 100;

interface RolloutSample {
    /** New pods' containers all started → the layout change's POST received. */
    podsToChangeMs: number;
    /** The scale-down's change completed (lastChange.completedAt) → the replica write that lowered the count. */
    completedToLoweredMs: number;
}

export async function benchRolloutLag(options: RolloutLagOptions): Promise<SectionResult> {
    const fixture = new ClusterScaleFixture("in-process");
    await fixture.start();
    const samples: RolloutSample[] = [];
    try {
        for (let i = 0; i < options.repeats; i++) samples.push(await measureOnce(fixture));
    } finally {
        await fixture.stop();
    }
    const toChange = samples.map((sample) => sample.podsToChangeMs);
    const toLowered = samples.map((sample) => sample.completedToLoweredMs);
    const target = { op: "<=" as const, value: TARGET_ROLLOUT_LAG_MS };
    const n = samples.length;
    const figures: Figure[] = [
        figure("rolloutLag", "podsToChange.medianMs", "new pods running → layout change sent (median)", round(median(toChange), 1), "ms", target, n),
        figure("rolloutLag", "podsToChange.maxMs", "new pods running → layout change sent (max)", round(max(toChange), 1), "ms", null, n),
        figure("rolloutLag", "completedToLowered.medianMs", "change completed → replicas lowered (median)", round(median(toLowered), 1), "ms", target, n),
        figure("rolloutLag", "completedToLowered.maxMs", "change completed → replicas lowered (max)", round(max(toLowered), 1), "ms", null, n),
    ];
    return { figures, details: { samples } };
}

/** One scale-up from 3 to 4 brokers and back, each one up. */
async function measureOnce(fixture: ClusterScaleFixture): Promise<RolloutSample> {
    fixture.reset({ brokers: 3, partitions: 3, replicationFactor: 3, opMs: 10 });
    const pods = await startBrokerPods(fixture.emulator.control, {
        replicas: 3,
        startMs: 30,
        terminationMs: 30,
        proxy: { managementUrl: fixture.emulator.managementUrl, gatewayUrl: fixture.emulator.gatewayUrl },
    });
    try {
        const kubernetes = { namespace: "camunda", statefulSet: "platform-zeebe", kubeconfig: pods.user(OPERATOR_RULES, "bench").kubeconfig };
        const options = { skipPreview: true };
        const gatewayUrl = fixture.emulator.gatewayUrl;
        const up = await fixture.run("up", { brokerCount: 4, gatewayUrl, kubernetes }, options);
        if (up.result.exitCode !== 0) throw new Error(`the scale-up failed: ${up.result.stderr}`);
        const started = pods.workloads.containerStarts.get(3);
        const sent = up.requests.find((entry) => entry.method === "POST" && entry.path.endsWith("/brokers") && entry.query.dryRun === undefined);
        if (started === undefined || sent === undefined) throw new Error("the scale-up left no pod start or no layout change to time");

        const down = await fixture.run("up", { brokerCount: 3, gatewayUrl, kubernetes }, options);
        if (down.result.exitCode !== 0) throw new Error(`the scale-down failed: ${down.result.stderr}`);
        const completedAt = (await new ClusterClient({ managementUrl: fixture.emulator.managementUrl }).getCluster()).lastChange?.completedAt.epochMs;
        const lowered = pods.workloads.replicaWrites.find((write) => write.replicas === 3);
        if (completedAt == null || lowered === undefined) throw new Error("the scale-down left no completion or no replica write to time");
        return { podsToChangeMs: Date.parse(sent.at) - started, completedToLoweredMs: lowered.at - completedAt };
    } finally {
        await pods.stop();
    }
}
