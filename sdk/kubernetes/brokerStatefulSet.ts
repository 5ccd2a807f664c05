// The brokers' StatefulSet through the Kubernetes API server: its replica count through the /scale subresource (a
// write names the resourceVersion it read; a 409 Conflict is read again and retried), its pods, waited on with a watch
// (never a polling loop), and its persistent volume claims. The kubeconfig decides the server and the credentials
// (resolveApiServer). A refusal of the API server keeps its own message, which names the verb and the resource RBAC
// must allow.

import {
    callerSignalOf,
    decodeJsonBody,
    errorFromResponse,
    exponentialDelay,
    HttpMethod,
    HttpResponse,
    isTransientError,
    joinUrl,
    send,
    sendWithRetry,
    sleep,
} from "../http/request";
import { type ApiServerAccess, resolveApiServer } from "../http/kubernetesRoute";
import { type ConnectionSettings, dispatcherFor } from "../http/transport";
import { undici } from "../http/undici";
import { ReplicasMovedError } from "../errors";
import { decoder } from "../schemas";
import { accessReviewSchema, claimSchema, listSchema, objectSchema, podSchema, scaleSchema, statefulSetSchema } from "./workloadSchemas";
import { PodView, podView } from "./podView";
import { watchPods, WatchPodsOptions } from "./podWatch";

export interface BrokerStatefulSetRef {
    namespace: string;
    /** The StatefulSet's name. */
    statefulSet: string;
    /** kubeconfig YAML or a file path; else KUBECONFIG, else ~/.kube/config. */
    kubeconfig?: string;
    context?: string;
}

export interface StatefulSetView {
    replicas: number;
    resourceVersion: string;
    /** metadata.uid: another one is another object, though of the same name (deleted and created again). */
    uid?: string;
    /** metadata.creationTimestamp, as the API server gives it. */
    createdAt?: string;
    /** The names of its volume claim templates: the claims of ordinal N are `<template>-<statefulSet>-N`. */
    claimTemplates: string[];
    /** The volume claim templates' specs as the API server gives them (what shapes new brokers' claims). */
    claimTemplateSpecs: ClaimTemplateView[];
    /** spec.serviceName, when set. */
    serviceName?: string;
    /** spec.selector.matchLabels. */
    selectorLabels: Record<string, string>;
    /** persistentVolumeClaimRetentionPolicy.whenScaled ("Retain" unless set). */
    whenScaled: string;
    /** The pods' label selector (`key=value,...`). */
    podSelector: string;
    /** Field managers that own `spec.replicas` (managedFields), e.g. "helm". */
    replicaManagers: string[];
    /** The StatefulSet's own annotations. */
    annotations: Record<string, string>;
    /** The StatefulSet's own labels. */
    labels: Record<string, string>;
    /** Every field manager in managedFields, whatever fields it owns (a GitOps controller that applied it, say). */
    managers: string[];
    /**
     * spec.podManagementPolicy ("OrderedReady" unless set, as the API defaults it): with OrderedReady the controller
     * creates a pod only once every lower ordinal runs and is Ready, and removes one pod at a time, the highest first.
     */
    podManagementPolicy: string;
    /** spec.ordinals.start: the ordinal of the first pod (0 unless set). */
    firstOrdinal: number;
}

export interface ClaimTemplateView {
    name: string;
    /** resources.requests.storage, as the API server gives it (a quantity: "1Gi"). */
    storage?: string;
    accessModes?: string[];
    storageClassName?: string;
    volumeMode?: string;
}

/** A request RBAC decides: a verb on a resource of the StatefulSet's namespace (`statefulsets/scale` names a subresource). */
export interface AccessRequest {
    verb: string;
    /** "apps" or "" (the core group). */
    group: string;
    resource: string;
    /** The object's name: a rule with resourceNames allows only requests that name one of them. */
    name?: string;
}

export interface ScaleView {
    replicas: number;
    resourceVersion: string;
}

const MAX_CONFLICT_RETRIES = 5;
/** Scale writes in a row whose answer was lost or refused for now. */
const MAX_UNCLEAR_WRITES = 4;
const TRANSIENT_STATUSES = [429, 502, 503, 504];
/** The field manager of the replica writes, as managedFields then name it. */
export const FIELD_MANAGER = "pulumi-platform";

export class BrokerStatefulSet {
    private constructor(
        readonly ref: BrokerStatefulSetRef,
        private readonly server: string,
        private readonly connection: ConnectionSettings,
    ) {}

    /** Resolves the kubeconfig; sends nothing yet. */
    static async connect(ref: BrokerStatefulSetRef, base: ConnectionSettings = {}): Promise<BrokerStatefulSet> {
        return BrokerStatefulSet.at(ref, await resolveApiServer(ref, base));
    }

    /** Through an API server already resolved from the kubeconfig (a service route's, say); sends nothing yet. */
    static at(ref: BrokerStatefulSetRef, access: ApiServerAccess): BrokerStatefulSet {
        return new BrokerStatefulSet(ref, access.server, access.connection);
    }

    private get appsPath(): string {
        return `/apis/apps/v1/namespaces/${encodeURIComponent(this.ref.namespace)}/statefulsets/${encodeURIComponent(this.ref.statefulSet)}`;
    }

    private get corePath(): string {
        return `/api/v1/namespaces/${encodeURIComponent(this.ref.namespace)}`;
    }

    podName(ordinal: number): string {
        return `${this.ref.statefulSet}-${ordinal}`;
    }

    claimName(template: string, ordinal: number): string {
        return `${template}-${this.ref.statefulSet}-${ordinal}`;
    }

    async read(signal?: AbortSignal): Promise<StatefulSetView> {
        const set = decodeJsonBody(await this.call("GET", this.appsPath, { signal }), decoder("StatefulSet", statefulSetSchema));
        const labels = set.spec.selector?.matchLabels ?? {};
        return {
            replicas: set.spec.replicas ?? 1,
            resourceVersion: set.metadata.resourceVersion ?? "",
            ...(set.metadata.uid !== undefined ? { uid: set.metadata.uid } : {}),
            ...(set.metadata.creationTimestamp !== undefined ? { createdAt: set.metadata.creationTimestamp } : {}),
            claimTemplates: (set.spec.volumeClaimTemplates ?? []).map((template) => template.metadata.name),
            claimTemplateSpecs: (set.spec.volumeClaimTemplates ?? []).map(({ metadata, spec }) => ({
                name: metadata.name,
                ...(spec?.resources?.requests?.storage !== undefined ? { storage: spec.resources.requests.storage } : {}),
                ...(spec?.accessModes !== undefined ? { accessModes: spec.accessModes } : {}),
                ...(spec?.storageClassName !== undefined ? { storageClassName: spec.storageClassName } : {}),
                ...(spec?.volumeMode !== undefined ? { volumeMode: spec.volumeMode } : {}),
            })),
            ...(set.spec.serviceName !== undefined ? { serviceName: set.spec.serviceName } : {}),
            selectorLabels: labels,
            whenScaled: set.spec.persistentVolumeClaimRetentionPolicy?.whenScaled ?? "Retain",
            podSelector: Object.entries(labels)
                .map(([key, value]) => `${key}=${value}`)
                .join(","),
            replicaManagers: (set.metadata.managedFields ?? []).filter((entry) => ownsReplicas(entry.fieldsV1)).map((entry) => entry.manager ?? "(unnamed)"),
            annotations: set.metadata.annotations ?? {},
            labels: set.metadata.labels ?? {},
            managers: [...new Set((set.metadata.managedFields ?? []).map((entry) => entry.manager ?? "(unnamed)"))],
            podManagementPolicy: set.spec.podManagementPolicy ?? "OrderedReady",
            firstOrdinal: set.spec.ordinals?.start ?? 0,
        };
    }

    /**
     * Another object of the API server as JSON, by its path (`/apis/<group>/<version>/namespaces/<ns>/<plural>/<name>`):
     * the object that deploys the StatefulSet, say. A refusal or a 404 throws, keeping the API server's words.
     */
    async readObject(path: string, signal?: AbortSignal): Promise<Record<string, unknown>> {
        return decodeJsonBody(await this.call("GET", path, { signal }), decoder("object", objectSchema));
    }

    async readScale(signal?: AbortSignal): Promise<ScaleView> {
        const scale = decodeJsonBody(await this.call("GET", `${this.appsPath}/scale`, { signal }), decoder("Scale", scaleSchema));
        return { replicas: scale.spec.replicas ?? 0, resourceVersion: scale.metadata.resourceVersion ?? "" };
    }

    /**
     * Sets the replica count through /scale with the resourceVersion just read. A 409 (someone else wrote in between) is
     * read again and retried; so is a write whose answer was lost or refused for now (a reset, a timeout, 429, 502-504):
     * the write names the resourceVersion it read, so one that took effect after all answers 409 when sent again, and the
     * read before it shows the count already set. Returns the count it replaced (unchanged when it was already `replicas`).
     * With `from` (the count the caller last saw), a read that shows another count (and not `replicas` already) writes
     * nothing and throws ReplicasMovedError: someone else moved the count since.
     */
    async scaleTo(replicas: number, options: { signal?: AbortSignal; from?: number } = {}): Promise<{ previous: number; conflicts: number }> {
        const { signal, from } = options;
        let unclear = 0;
        for (let conflicts = 0; ;) {
            const current = await this.readScale(signal);
            if (current.replicas === replicas) return { previous: current.replicas, conflicts };
            if (from !== undefined && current.replicas !== from) throw new ReplicasMovedError(from, current.replicas);
            const body = {
                apiVersion: "autoscaling/v1",
                kind: "Scale",
                metadata: { name: this.ref.statefulSet, namespace: this.ref.namespace, resourceVersion: current.resourceVersion },
                spec: { replicas },
            };
            let res: HttpResponse;
            try {
                res = await this.call("PUT", `${this.appsPath}/scale`, {
                    json: body,
                    query: { fieldManager: FIELD_MANAGER },
                    signal,
                    allow: [409, ...TRANSIENT_STATUSES],
                });
            } catch (error) {
                if (!isTransientError(error) || ++unclear > MAX_UNCLEAR_WRITES) throw error;
                await sleep(exponentialDelay(unclear, 200, 2_000), signal);
                continue;
            }
            if (res.status === 409) {
                if (++conflicts > MAX_CONFLICT_RETRIES) throw errorFromResponse(res);
                continue;
            }
            if (!TRANSIENT_STATUSES.includes(res.status)) return { previous: current.replicas, conflicts };
            if (++unclear > MAX_UNCLEAR_WRITES) throw errorFromResponse(res);
            await sleep(exponentialDelay(unclear, 200, 2_000), signal);
        }
    }

    async pods(podSelector: string, signal?: AbortSignal): Promise<{ pods: PodView[]; resourceVersion: string }> {
        const list = decodeJsonBody(
            await this.call("GET", `${this.corePath}/pods`, { query: { labelSelector: podSelector || undefined }, signal }),
            decoder("PodList", listSchema(podSchema)),
        );
        return { pods: list.items.map(podView), resourceVersion: list.metadata.resourceVersion ?? "" };
    }

    /** Waits (a watch) until `decide` returns a value for the pods of the selector; see watchPods. */
    waitForPods<T>(podSelector: string, decide: (pods: ReadonlyMap<string, PodView>) => T | undefined, options: WatchPodsOptions): Promise<T> {
        return watchPods(
            {
                list: (signal) => this.pods(podSelector, signal),
                open: (resourceVersion, signal) =>
                    this.openStream(
                        `${this.corePath}/pods`,
                        { watch: "true", resourceVersion, allowWatchBookmarks: "true", labelSelector: podSelector || undefined },
                        signal,
                    ),
            },
            decide,
            // A watch is a wait: the connection's signal ends it too.
            { ...options, signal: callerSignalOf({ signal: options.signal, connection: this.connection }) },
        );
    }

    /** The names of the claims that exist among `names`. */
    async existingClaims(names: readonly string[], signal?: AbortSignal): Promise<string[]> {
        const list = decodeJsonBody(
            await this.call("GET", `${this.corePath}/persistentvolumeclaims`, { signal }),
            decoder("PersistentVolumeClaimList", listSchema(claimSchema)),
        );
        const present = new Set(list.items.filter((claim) => claim.metadata.deletionTimestamp === undefined).map((claim) => claim.metadata.name));
        return names.filter((name) => present.has(name));
    }

    /** Deletes a claim; one that is already gone counts as deleted. */
    async deleteClaim(name: string, signal?: AbortSignal): Promise<void> {
        await this.call("DELETE", `${this.corePath}/persistentvolumeclaims/${encodeURIComponent(name)}`, { signal, allow: [404] });
    }

    /**
     * Which of these requests the kubeconfig's user may not make in the namespace (SelfSubjectAccessReview, which every
     * authenticated user may ask by default); undefined when the API server does not answer reviews.
     */
    async deniedOf(requests: readonly AccessRequest[], signal?: AbortSignal): Promise<AccessRequest[] | undefined> {
        if (requests.length === 0) return [];
        // The first review alone says whether the API server answers reviews at all; the others go together.
        const [first, ...rest] = requests;
        const firstAllowed = await this.allowed(first, signal);
        if (firstAllowed === undefined) return undefined;
        const restAllowed = await Promise.all(rest.map((request) => this.allowed(request, signal)));
        if (restAllowed.includes(undefined)) return undefined;
        const answers = [firstAllowed, ...restAllowed];
        return requests.filter((_request, index) => answers[index] !== true);
    }

    /** Whether the API server allows the request (a SelfSubjectAccessReview); undefined when it answers none. */
    private async allowed(request: AccessRequest, signal?: AbortSignal): Promise<boolean | undefined> {
        const [resource, subresource] = request.resource.split("/");
        const review = {
            apiVersion: "authorization.k8s.io/v1",
            kind: "SelfSubjectAccessReview",
            spec: {
                resourceAttributes: { namespace: this.ref.namespace, verb: request.verb, group: request.group, resource, subresource, name: request.name },
            },
        };
        let res: HttpResponse;
        try {
            res = await this.call("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", { json: review, signal });
        } catch {
            return undefined;
        }
        const answer = decodeJsonBody(res, decoder("SelfSubjectAccessReview", accessReviewSchema));
        return answer.status?.allowed === true;
    }

    private async call(
        method: HttpMethod,
        path: string,
        options: { query?: Record<string, string | undefined>; json?: unknown; signal?: AbortSignal; allow?: number[] } = {},
    ): Promise<HttpResponse> {
        const request = {
            method,
            url: joinUrl(this.server, path),
            query: options.query,
            json: options.json,
            signal: options.signal,
            connection: this.connection,
        };
        const res = method === "GET" ? await sendWithRetry(request) : await send(request);
        if (res.status >= 300 && !(options.allow ?? []).includes(res.status)) throw errorFromResponse(res);
        return res;
    }

    private async openStream(path: string, query: Record<string, string | undefined>, signal: AbortSignal): Promise<AsyncIterable<Buffer>> {
        const url = new URL(joinUrl(this.server, path));
        for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, value);
        const res = await undici().request(url, {
            method: "GET",
            headers: { accept: "application/json", ...lowerCase(this.connection.headers ?? {}) },
            dispatcher: dispatcherFor(this.connection),
            signal,
            bodyTimeout: 0,
        });
        if (res.statusCode >= 300) {
            const text = await res.body.text();
            throw errorFromResponse({ status: res.statusCode, headers: res.headers, text, request: { method: "GET", path: url.pathname + url.search } });
        }
        return res.body as AsyncIterable<Buffer>;
    }
}

/** Whether a managedFields entry's fieldsV1 owns `spec.replicas`. */
function ownsReplicas(fields: Record<string, unknown> | undefined): boolean {
    const spec = fields?.["f:spec"];
    return typeof spec === "object" && spec !== null && "f:replicas" in spec;
}

function lowerCase(headers: Record<string, string>): Record<string, string> {
    return Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
}
