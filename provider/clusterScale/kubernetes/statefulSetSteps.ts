// The brokers' StatefulSet (kubernetes.statefulSet) as reconcile.ts observes and changes it: what a round reads of
// it, raising and lowering replicas, waiting for pods (a watch), deleting claims, and the words of its refusals and
// failures, each naming the RBAC permission a refusal of the API server is about.

import { PlatformError, PodWaitTimeoutError, ReplicasMovedError } from "../../../sdk/errors";
import type { BrokerStatefulSet, StatefulSetView } from "../../../sdk/kubernetes/brokerStatefulSet";
import type { PodView } from "../../../sdk/kubernetes/podView";
import { count, say, subject } from "../messages";
import { messageOf } from "../../shared/messageOf";
import type { PodFact, WorkloadFacts, WorkloadRefusal } from "../reconcileDecision";
import { lowerCountCause, otherWritersNote } from "./replicaWriters";
import { type ControllerReading, controllerText } from "./gitOpsRecipes";

/** What RBAC must allow, by the step that needs it. */
export const PERMISSIONS = {
    read: '"get" on statefulsets and statefulsets/scale, "list" and "watch" on pods, "list" on persistentvolumeclaims',
    scale: '"get" and "update" on statefulsets/scale',
    pods: '"list" and "watch" on pods',
    claims: '"delete" on persistentvolumeclaims',
};

/** What a round sees of the StatefulSet: itself and its pods (those a wait just saw, when it gave them). */
export async function observeStatefulSet(
    name: string,
    statefulSet: BrokerStatefulSet,
    seen: { view: StatefulSetView; pods: PodView[] } | undefined,
): Promise<{ view: StatefulSetView; pods: PodView[] }> {
    const view = seen?.view ?? (await readStatefulSet(name, statefulSet));
    const pods = seen?.pods ?? (await step(name, "list the brokers' pods", PERMISSIONS.pods, () => statefulSet.pods(view.podSelector))).pods;
    return { view, pods };
}

/** Those of these claims that exist and are not being deleted. */
export function existingClaims(name: string, statefulSet: BrokerStatefulSet, names: readonly string[]): Promise<string[]> {
    return step(name, "list the claims", PERMISSIONS.read, () => statefulSet.existingClaims(names));
}

/**
 * Raises or lowers spec.replicas from the count the round observed, with a line saying which pods start or stop and
 * why. Raising, another client's write in between is read again and the count set (the look before the layout change
 * catches a count set back afterwards); lowering, another count read right before the write (someone else moved it
 * since) writes nothing and throws ReplicasMovedError, for the caller to stop.
 */
export async function scaleStatefulSet(name: string, statefulSet: BrokerStatefulSet, view: StatefulSetView, to: number): Promise<void> {
    const sts = statefulSet.ref.statefulSet;
    const from = view.replicas;
    if (to > from) say(name, `StatefulSet ${sts}: replicas ${from} → ${to} (${podsText(statefulSet, from, to)} start)`);
    else
        say(
            name,
            `StatefulSet ${sts}: replicas ${from} → ${to} (${podsText(statefulSet, to, from)} stop; the layout no longer names them${otherWritersNote(view)})`,
        );
    const { previous, conflicts } = await step(name, "scale the StatefulSet", PERMISSIONS.scale, () => statefulSet.scaleTo(to, to < from ? { from } : {}));
    if (conflicts > 0) {
        say(
            name,
            `StatefulSet ${sts}: another client wrote its scale meanwhile (409 Conflict, ${count(conflicts, "time")}); read again (replicas ${previous}) and set to ${to}`,
        );
    }
}

export async function deleteClaims(name: string, statefulSet: BrokerStatefulSet, names: readonly string[]): Promise<void> {
    for (const claim of names) await step(name, `delete claim ${claim}`, PERMISSIONS.claims, () => statefulSet.deleteClaim(claim));
    say(name, `deleted ${count(names.length, "volume claim")} of removed brokers: ${names.join(", ")} (volumesOfRemovedBrokers: delete)`);
}

/** The claims of these ordinals, for every claim template of the StatefulSet. */
export function claimsOf(statefulSet: BrokerStatefulSet, view: StatefulSetView, ordinals: readonly number[]): string[] {
    return view.claimTemplates.flatMap((template) => [...ordinals].sort((a, b) => a - b).map((ordinal) => statefulSet.claimName(template, ordinal)));
}

/** The StatefulSet as the decision sees it: its replicas, how it manages and numbers pods, its pods, claims to delete. */
export function workloadFacts(
    view: StatefulSetView,
    pods: readonly PodView[],
    claimsToDelete: readonly string[] = [],
    controllers: readonly ControllerReading[] = [],
): WorkloadFacts {
    return {
        controllers,
        replicas: view.replicas,
        orderedReady: view.podManagementPolicy === "OrderedReady",
        firstOrdinal: view.firstOrdinal,
        pods: pods.flatMap(podFact),
        claimsToDelete,
    };
}

/** Why a refusal step refuses, for preview and up alike. */
export function refusalText(statefulSet: BrokerStatefulSet, view: StatefulSetView, step: WorkloadRefusal, recordedUid: string | undefined): string {
    switch (step.kind) {
        case "refuseStopping":
            return stoppingRefusal(statefulSet, view, step, recordedUid);
        case "refuseOrdinals":
            return ordinalsRefusal(statefulSet, step.start);
        case "refuseOrderedStart":
            return orderedStartRefusal(statefulSet, step.blocked, step.notReady);
        case "refuseController":
            return `it would move spec.replicas from ${view.replicas}, and ${step.controllers.map((reading) => controllerText(reading, statefulSet.ref.statefulSet)).join(" ")}`;
    }
}

/**
 * Names the brokers whose pods the StatefulSet no longer keeps (those already down, and those that would stop), who set
 * its count (see replicaWriters.ts), and the ways out.
 */
function stoppingRefusal(
    statefulSet: BrokerStatefulSet,
    view: StatefulSetView,
    { stopping, down }: Extract<WorkloadRefusal, { kind: "refuseStopping" }>,
    recordedUid: string | undefined,
): string {
    const brokers = (ids: readonly number[]) => `${ids.length === 1 ? "broker" : "brokers"} ${ids.join(", ")} (${podList(statefulSet, ids)})`;
    const still = stopping.filter((id) => !down.includes(id));
    const what = [
        ...(down.length > 0
            ? [`${brokers(down)} ${down.length === 1 ? "is" : "are"} down already (${down.length === 1 ? "its pod" : "their pods"} gone or stopping)`]
            : []),
        ...(still.length > 0 ? [`${brokers(still)} would stop`] : []),
    ].join(" and ");
    return (
        `its replicas (${view.replicas}) are below the layout's highest broker: ${what}, though ${stopping.length === 1 ? "it holds" : "they hold"} partition replicas; ` +
        `${lowerCountCause(statefulSet.ref.statefulSet, view, recordedUid)}: raise it to ${Math.max(...stopping) + 1} again, or remove those brokers from the layout first`
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

/** The longest a wait for pods goes without the StatefulSet read again (its count is not watched). */
export const POD_WAIT_SLICE_MS = 10_000;

/**
 * Until the pods of these ordinals run (`run`) or are gone (`stop`); the pods as last seen, which decide the next step.
 * The wait also ends (undefined) when one of them turns back (a pod awaited to run began to go, one awaited to go came
 * back), or after POD_WAIT_SLICE_MS: someone may have moved spec.replicas meanwhile, and then the pods never get
 * there. The next round reads the StatefulSet and its pods again, and stops there if the count moved.
 */
export async function waitForPods(
    name: string,
    statefulSet: BrokerStatefulSet,
    view: StatefulSetView,
    ordinals: readonly number[],
    goal: "run" | "stop",
    timeoutMs: number,
    timeoutSeconds: number,
): Promise<PodView[] | undefined> {
    const names = ordinals.map((ordinal) => statefulSet.podName(ordinal));
    const alive = (pods: ReadonlyMap<string, PodView>) => names.filter((pod) => pods.has(pod) && !pods.get(pod)!.deleting);
    const done =
        goal === "run"
            ? (pods: ReadonlyMap<string, PodView>) => names.every((pod) => pods.get(pod)?.started === true && !pods.get(pod)?.deleting)
            : (pods: ReadonlyMap<string, PodView>) => names.every((pod) => !pods.has(pod));
    // The awaited pods seen where the wait wants them (alive to run, gone to stop): one that turns back is news.
    const seenThere = new Set<string>();
    const decide = (pods: ReadonlyMap<string, PodView>): { pods?: PodView[] } | undefined => {
        if (done(pods)) return { pods: [...pods.values()] };
        const living = alive(pods);
        const there = goal === "run" ? living : names.filter((pod) => !pods.has(pod));
        const back = goal === "run" ? [...seenThere].some((pod) => !living.includes(pod)) : [...seenThere].some((pod) => living.includes(pod));
        if (back) return {};
        for (const pod of there) seenThere.add(pod);
        return undefined;
    };
    const sliced = timeoutMs > POD_WAIT_SLICE_MS;
    try {
        const decided = await statefulSet.waitForPods(view.podSelector, decide, {
            timeoutMs: sliced ? POD_WAIT_SLICE_MS : timeoutMs,
            what: `${podList(statefulSet, ordinals)} to ${goal}`,
        });
        return decided.pods;
    } catch (error) {
        if (sliced && error instanceof PodWaitTimeoutError) return undefined;
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

/** Reads the StatefulSet (not its pods): for a round, and once more right before an act that depends on its count. */
export function readStatefulSet(name: string, statefulSet: BrokerStatefulSet): Promise<StatefulSetView> {
    return step(name, "read the StatefulSet", PERMISSIONS.read, () => statefulSet.read());
}

/**
 * Runs one call to the API server; a refusal or failure says what was being done and what RBAC must allow. A count
 * moved by someone else is the caller's to tell (ReplicasMovedError passes through).
 */
async function step<T>(name: string, what: string, permission: string, call: () => Promise<T>): Promise<T> {
    try {
        return await call();
    } catch (error) {
        if (error instanceof ReplicasMovedError) throw error;
        throw kubernetesFailure(name, what, permission, error);
    }
}

export function kubernetesFailure(name: string, what: string, permission: string, error: unknown): Error {
    const forbidden = error instanceof PlatformError && error.status === 403;
    const advice = forbidden ? `; the kubeconfig's user needs ${permission} in the namespace` : "";
    return new Error(`${subject(name)}: kubernetes.statefulSet: cannot ${what}: ${messageOf(error)}${advice}`);
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
export function podsText(statefulSet: BrokerStatefulSet, from: number, to: number): string {
    return podList(
        statefulSet,
        Array.from({ length: to - from }, (_, i) => from + i),
    );
}
