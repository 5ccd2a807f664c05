// create and update when the brokers run in a StatefulSet (kubernetes.statefulSet): observe the StatefulSet, its pods
// and claims, decide the next step (rolloutDecision.ts), act, and observe again. The layout change itself is
// applyLayout's (plan, send once, wait, resume). Every refusal and every failure before the layout change leaves the
// cluster's layout untouched; a layout change that does not complete never lowers replicas.

import type { ClusterClient } from "../../sdk/cluster/clusterClient";
import { PlatformError, PodWaitTimeoutError } from "../../sdk/errors";
import type { BrokerStatefulSet, StatefulSetView } from "../../sdk/kubernetes/brokerStatefulSet";
import type { PodView } from "../../sdk/kubernetes/podView";
import { applyLayout } from "./apply";
import type { Clients } from "./clients";
import { type ClusterScaleInputs, desiredLayout } from "./inputs";
import { count, say, subject } from "./messages";
import type { ClusterScaleOutputs } from "./outputs";
import { recordedIntent } from "./replicas";
import { messageOf, snapshotOf } from "./request";
import { type PodFact, type RolloutFacts, type RolloutRefusal, decideRolloutStep, replicasFor } from "./rolloutDecision";

/** What RBAC must allow, by the step that needs it. */
export const PERMISSIONS = {
    read: '"get" on statefulsets and statefulsets/scale, "list" and "watch" on pods, "list" on persistentvolumeclaims',
    scale: '"get" and "update" on statefulsets/scale',
    pods: '"list" and "watch" on pods',
    claims: '"delete" on persistentvolumeclaims',
};

export async function rollOutLayout(
    clients: Clients & { statefulSet: BrokerStatefulSet },
    id: string,
    inputs: ClusterScaleInputs,
    olds: ClusterScaleOutputs | undefined,
    provider: unknown,
): Promise<ClusterScaleOutputs> {
    const name = inputs.resourceName;
    const statefulSet = clients.statefulSet;
    const deadline = Date.now() + inputs.timeoutSeconds * 1000;
    const desired = desiredLayout(inputs, recordedIntent(olds)).brokers;
    const deleteVolumes = inputs.kubernetes?.volumesOfRemovedBrokers === "delete";
    const members = await membersOf(clients.cluster);
    // Brokers this up removes (and those an interrupted up had removed): their claims are the ones that may go.
    const removed = new Set([...(members ?? []), ...recordedBrokers(olds)].filter((broker) => !desired.includes(broker)));
    let outputs: ClusterScaleOutputs | undefined;
    // What a wait just saw: the next step is decided from it, without reading again (the layout change follows the
    // pods within milliseconds).
    let seen: { view: StatefulSetView; pods: PodView[] } | undefined;

    for (;;) {
        const view = seen?.view ?? (await step(name, "read the StatefulSet", PERMISSIONS.read, () => statefulSet.read()));
        const pods = seen?.pods ?? (await step(name, "list the brokers' pods", PERMISSIONS.pods, () => statefulSet.pods(view.podSelector))).pods;
        seen = undefined;
        // Claims go only after the layout change: listing them earlier would only delay it.
        const claimNames =
            deleteVolumes && outputs !== undefined
                ? claimsOf(
                      statefulSet,
                      view,
                      [...removed].filter((broker) => broker >= replicasFor(desired)),
                  )
                : [];
        const existing = claimNames.length === 0 ? [] : await step(name, "list the claims", PERMISSIONS.read, () => statefulSet.existingClaims(claimNames));
        const next = decideRolloutStep({ ...workloadFacts(view, pods), desired, members, layoutApplied: outputs !== undefined, claimsToDelete: existing });
        const remainingMs = Math.max(1, deadline - Date.now());
        switch (next.kind) {
            case "refuse":
            case "refuseOrdinals":
            case "refuseOrderedStart":
                throw new Error(`${subject(name)}: kubernetes.statefulSet: ${refusalText(statefulSet, view, next)}. Nothing was sent.`);
            case "grow":
                say(
                    name,
                    `StatefulSet ${statefulSet.ref.statefulSet}: replicas ${next.from} → ${next.to} (${podsText(statefulSet, next.from, next.to)} start)`,
                );
                await step(name, "scale the StatefulSet", PERMISSIONS.scale, () => statefulSet.scaleTo(next.to));
                break;
            case "waitForPods":
                say(name, `waiting for ${podList(statefulSet, next.ordinals)} to run before the layout change names them`);
                seen = { view, pods: await waitForPods(name, statefulSet, view, next.ordinals, "run", remainingMs, inputs.timeoutSeconds) };
                break;
            case "applyLayout":
                outputs = await applyLayout(clients, id, inputs, olds, provider, deadline);
                break;
            case "shrink":
                say(
                    name,
                    `StatefulSet ${statefulSet.ref.statefulSet}: replicas ${next.from} → ${next.to} (${podsText(statefulSet, next.to, next.from)} stop; the layout no longer names them)`,
                );
                await step(name, "scale the StatefulSet", PERMISSIONS.scale, () => statefulSet.scaleTo(next.to));
                break;
            case "waitForPodsGone":
                seen = { view, pods: await waitForPods(name, statefulSet, view, next.ordinals, "stop", remainingMs, inputs.timeoutSeconds) };
                break;
            case "deleteClaims":
                for (const claim of next.names) await step(name, `delete claim ${claim}`, PERMISSIONS.claims, () => statefulSet.deleteClaim(claim));
                say(name, `deleted ${count(next.names.length, "volume claim")} of removed brokers: ${next.names.join(", ")} (volumesOfRemovedBrokers: delete)`);
                break;
            case "done":
                return outputs!;
        }
    }
}

/** The claims of these ordinals, for every claim template of the StatefulSet. */
export function claimsOf(statefulSet: BrokerStatefulSet, view: StatefulSetView, ordinals: readonly number[]): string[] {
    return view.claimTemplates.flatMap((template) => [...ordinals].sort((a, b) => a - b).map((ordinal) => statefulSet.claimName(template, ordinal)));
}

/** What the StatefulSet's observed part of the facts is: its replicas, how it manages and numbers pods, its pods. */
export function workloadFacts(view: StatefulSetView, pods: readonly PodView[]): Pick<RolloutFacts, "replicas" | "orderedReady" | "firstOrdinal" | "pods"> {
    return { replicas: view.replicas, orderedReady: view.podManagementPolicy === "OrderedReady", firstOrdinal: view.firstOrdinal, pods: pods.flatMap(podFact) };
}

/** Why a refusal step refuses, for preview and up alike. */
export function refusalText(statefulSet: BrokerStatefulSet, view: StatefulSetView, step: RolloutRefusal): string {
    switch (step.kind) {
        case "refuse":
            return stoppingRefusal(statefulSet, view, step.stopping);
        case "refuseOrdinals":
            return ordinalsRefusal(statefulSet, step.start);
        case "refuseOrderedStart":
            return orderedStartRefusal(statefulSet, step.blocked, step.notReady);
    }
}

/** Names the brokers whose pods the StatefulSet no longer keeps, and the partitions that would lose replicas. */
function stoppingRefusal(statefulSet: BrokerStatefulSet, view: StatefulSetView, stopping: readonly number[]): string {
    return (
        `its replicas (${view.replicas}) are below the layout's highest broker: ${stopping.length === 1 ? "broker" : "brokers"} ${stopping.join(", ")} ` +
        `(${podList(statefulSet, stopping)}) would stop while they hold partition replicas; someone else lowered spec.replicas ` +
        `(a Helm upgrade writing its clusterSize back?): raise it to ${Math.max(...stopping) + 1} again, or remove those brokers from the layout first`
    );
}

/** A StatefulSet whose pods are numbered from another ordinal than 0: its pods are not its brokers' ids. */
function ordinalsRefusal(statefulSet: BrokerStatefulSet, start: number): string {
    return (
        `StatefulSet ${statefulSet.ref.statefulSet} numbers its pods from ${start} (spec.ordinals.start), so its replica count does not ` +
        `say which brokers run; ClusterScale starts and stops pods only where pod ordinal = broker id, from 0. Leave kubernetes.statefulSet ` +
        `out and scale the StatefulSet yourself (new brokers first; removed ones only after the change completed)`
    );
}

/** Names the pods an OrderedReady StatefulSet would never create before the layout change, and the ways out. */
function orderedStartRefusal(statefulSet: BrokerStatefulSet, blocked: readonly number[], notReady: readonly number[]): string {
    const brokers = `${notReady.length === 1 ? "broker" : "brokers"} ${notReady.join(", ")}`;
    return (
        `StatefulSet ${statefulSet.ref.statefulSet} has podManagementPolicy OrderedReady: Kubernetes creates a pod only once every lower one is Ready, ` +
        `and ${brokers} cannot be Ready before the layout change makes ${notReady.length === 1 ? "it a member" : "them members"}, so ` +
        `${podList(statefulSet, blocked)} would never start and the change could never be sent. Add one broker per up, or use ` +
        `podManagementPolicy: Parallel (as the platform's Helm chart does; the field cannot be changed in place: delete the StatefulSet with ` +
        `--cascade=orphan, which keeps the pods, and create it again)`
    );
}

async function waitForPods(
    name: string,
    statefulSet: BrokerStatefulSet,
    view: StatefulSetView,
    ordinals: readonly number[],
    goal: "run" | "stop",
    timeoutMs: number,
    timeoutSeconds: number,
): Promise<PodView[]> {
    const names = ordinals.map((ordinal) => statefulSet.podName(ordinal));
    const done =
        goal === "run"
            ? (pods: ReadonlyMap<string, PodView>) => names.every((pod) => pods.get(pod)?.started === true && !pods.get(pod)?.deleting)
            : (pods: ReadonlyMap<string, PodView>) => names.every((pod) => !pods.has(pod));
    try {
        // The pods as the wait last saw them: the next step is decided from them.
        return await statefulSet.waitForPods(view.podSelector, (pods) => (done(pods) ? [...pods.values()] : undefined), {
            timeoutMs,
            what: `${podList(statefulSet, ordinals)} to ${goal}`,
        });
    } catch (error) {
        if (!(error instanceof PodWaitTimeoutError)) throw kubernetesFailure(name, `watch the brokers' pods`, PERMISSIONS.pods, error);
        const notCreated =
            view.podManagementPolicy === "OrderedReady"
                ? "not created (podManagementPolicy OrderedReady: the StatefulSet creates it once every lower pod is Ready)"
                : "not created";
        const waiting = names.map((podName) => {
            const pod = error.pods.find((seen) => seen.name === podName);
            if (pod === undefined) return `${podName}: ${notCreated}`;
            return `${pod.name}: ${pod.waiting ? `${pod.waiting.reason}${pod.waiting.message ? ` (${pod.waiting.message})` : ""}` : pod.phase}`;
        });
        const stillThere = goal === "stop" ? names.filter((pod) => error.pods.some((seen) => seen.name === pod)) : [];
        const detail = goal === "run" ? waiting.join("; ") : `still there: ${stillThere.join(", ")}`;
        const after = goal === "run" ? "no layout change was sent" : "the layout change completed; run up again to finish";
        throw new Error(`${subject(name)}: ${podList(statefulSet, ordinals)} did not ${goal} within timeoutSeconds (${timeoutSeconds} s): ${detail}; ${after}`);
    }
}

/** Runs one call to the API server; a refusal or failure says what was being done and what RBAC must allow. */
async function step<T>(name: string, what: string, permission: string, call: () => Promise<T>): Promise<T> {
    try {
        return await call();
    } catch (error) {
        throw kubernetesFailure(name, what, permission, error);
    }
}

export function kubernetesFailure(name: string, what: string, permission: string, error: unknown): Error {
    const forbidden = error instanceof PlatformError && error.status === 403;
    const advice = forbidden ? `; the kubeconfig's user needs ${permission} in the namespace` : "";
    return new Error(`${subject(name)}: kubernetes.statefulSet: cannot ${what}: ${messageOf(error)}${advice}`);
}

async function membersOf(cluster: ClusterClient): Promise<number[] | undefined> {
    try {
        return snapshotOf((await cluster.getCluster()).brokers).members;
    } catch {
        return undefined; // applyLayout reads the cluster itself and says what is wrong
    }
}

function recordedBrokers(olds: ClusterScaleOutputs | undefined): number[] {
    return Array.isArray(olds?.topology) ? olds.topology.map((broker) => broker.id) : [];
}

function podFact(pod: PodView): PodFact[] {
    if (pod.ordinal === undefined) return [];
    return [{ ordinal: pod.ordinal, started: pod.started, deleting: pod.deleting, ...(pod.waiting ? { waiting: pod.waiting } : {}) }];
}

/** "pods platform-zeebe-3, platform-zeebe-4" */
export function podList(statefulSet: BrokerStatefulSet, ordinals: readonly number[]): string {
    return `${ordinals.length === 1 ? "pod" : "pods"} ${ordinals.map((ordinal) => statefulSet.podName(ordinal)).join(", ")}`;
}

/** The pods of ordinals from..to-1. */
function podsText(statefulSet: BrokerStatefulSet, from: number, to: number): string {
    return podList(
        statefulSet,
        Array.from({ length: to - from }, (_, i) => from + i),
    );
}
