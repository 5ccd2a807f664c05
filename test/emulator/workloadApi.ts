// The Kubernetes API server stand-in's workload resources over HTTP, the way the real API server serves them: the
// brokers' StatefulSet (apps/v1) with its /scale subresource (autoscaling/v1 Scale, optimistic concurrency by
// resourceVersion: a stale one is a 409 Conflict Status), pods and persistent volume claims (list, get, `watch=true`
// streams of JSON lines from a resourceVersion, label selectors), claim deletion, the discovery documents kubectl
// reads first, the Tables kubectl asks for (workloadTable.ts), and SelfSubjectAccessReviews. RBAC is per resource and
// verb; a refusal is the API server's 403 Status naming both.
import type * as http from "http";
import { BrokerWorkloads, ObjectKind } from "./brokerWorkloads";
import { table, wantsTable } from "./workloadTable";

/** The verbs a user may use, per resource as RBAC names it (`statefulsets`, `statefulsets/scale`, `pods`, ...). */
export type ResourceRules = Record<string, string[]>;

interface Resource {
    group: "" | "apps";
    plural: string;
}

const POD: Resource = { group: "", plural: "pods" };
const CLAIM: Resource = { group: "", plural: "persistentvolumeclaims" };
const STATEFUL_SET: Resource = { group: "apps", plural: "statefulsets" };
const SCALE: Resource = { group: "apps", plural: "statefulsets/scale" };
const METHOD_VERBS: Record<string, string> = { GET: "get", PUT: "update", PATCH: "patch", DELETE: "delete" };

export interface WorkloadUser {
    name: string;
    rules?: ResourceRules;
}

interface WorkloadCall {
    request: http.IncomingMessage;
    response: http.ServerResponse;
    url: URL;
    user: WorkloadUser;
    body: Buffer;
    namespace: string;
    plural: string;
    name: string | undefined;
    scale: boolean;
}

/** What the next writes of the scale subresource meet: a 503 before or after the replicas were set, or a reset connection. */
export type ScaleWriteFault = "503" | "reset" | "503-after-applying";

export class WorkloadApi {
    /** The next scale read is followed by another writer's update (the caller's write then conflicts once). */
    concurrentWriterOnce = false;
    /** Called once, before the next scale read is answered: another writer moving the count at that moment. */
    beforeScaleRead?: () => void;
    /** Taken one per write of the scale subresource, in order. */
    readonly scaleWriteFaults: ScaleWriteFault[] = [];

    /**
     * Whether SelfSubjectAccessReviews are answered from the user's rules (as every authenticated user may ask by
     * default) or refused (a cluster whose RBAC took that right away).
     */
    accessReviews: "answered" | "forbidden" = "answered";
    /** The reviews asked, as `verb resource[/subresource] [name]`. */
    readonly reviewsAsked: string[] = [];
    /** Every request served, as `METHOD path`, with the time it arrived (ms since the epoch). */
    readonly served: { at: number; request: string }[] = [];
    /**
     * Objects of other API groups by path (`/apis/<group>/<version>/namespaces/<ns>/<plural>/<name>`): the objects of the
     * controllers that deploy the StatefulSet (an Argo CD Application, a Flux Kustomization or HelmRelease). Served to
     * GET with RBAC by plural ("get"), a 404 for a path of those groups it does not hold.
     */
    readonly objects = new Map<string, object>();
    /** Awaited before a claim is deleted and the deletion answered (a test holds a deletion there). */
    beforeClaimDeletion?: (name: string) => Promise<void>;

    constructor(private readonly workloads: BrokerWorkloads) {}

    /** Serves the request when it is one of these resources or discovery; false when the path is none of them. */
    handle(request: http.IncomingMessage, response: http.ServerResponse, url: URL, user: WorkloadUser, body: Buffer): boolean {
        this.served.push({ at: Date.now(), request: `${request.method ?? "GET"} ${url.pathname}` });
        const discovery = DISCOVERY[url.pathname];
        if (discovery && request.method === "GET") {
            json(response, 200, typeof discovery === "function" ? discovery(request) : discovery);
            return true;
        }
        if (url.pathname === "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews" && request.method === "POST") {
            this.review(response, user, body);
            return true;
        }
        if (this.serveObject(request, response, url, user)) return true;
        const route = /^\/(api\/v1|apis\/apps\/v1)\/namespaces\/([^/]+)\/(pods|persistentvolumeclaims|statefulsets)(?:\/([^/]+))?(\/scale)?$/.exec(
            url.pathname,
        );
        if (route === null || (route[1] === "apis/apps/v1") !== (route[3] === "statefulsets")) return false;
        const [, , namespace, plural, name, scale] = route;
        this.serve({ request, response, url, user, body, namespace, plural, name, scale: scale !== undefined });
        return true;
    }

    private serve(call: WorkloadCall): void {
        const { request, response, url, namespace, plural, name } = call;
        const method = request.method ?? "GET";
        const resource = call.scale ? SCALE : plural === "pods" ? POD : plural === "statefulsets" ? STATEFUL_SET : CLAIM;
        const watching = url.searchParams.get("watch") === "true" || url.searchParams.get("watch") === "1";
        const verb = watching ? "watch" : name === undefined ? "list" : METHOD_VERBS[method];
        if (verb === undefined) return notAllowed(response);
        const [kind] = resource.plural.split("/");
        const qualified = `${kind}${resource.group ? `.${resource.group}` : ""}`;
        if (!(call.user.rules?.[resource.plural] ?? []).includes(verb)) {
            const subject = name === undefined ? kind : `${qualified} "${name}"`;
            const message = `${subject} is forbidden: User "${call.user.name}" cannot ${verb} resource "${resource.plural}" in API group "${resource.group}" in the namespace "${namespace}"`;
            return status(response, 403, "Forbidden", message, { ...(name ? { name } : {}), group: resource.group, kind });
        }
        const options = this.workloads.options;
        if (namespace !== options.namespace || (plural === "statefulsets" && name !== undefined && name !== options.statefulSet)) {
            return status(response, 404, "NotFound", `${qualified} "${name ?? ""}" not found`, { name, group: resource.group, kind });
        }
        const objectKind: ObjectKind = plural === "pods" ? "Pod" : plural === "statefulsets" ? "StatefulSet" : "PersistentVolumeClaim";
        const asTable = method === "GET" && wantsTable(request.headers.accept);
        if (watching) return this.watch(request, response, url, objectKind, asTable);
        if (call.scale) return this.scale(method, response, call.body, url.searchParams.get("fieldManager") ?? managerOf(request.headers["user-agent"]));
        const version = String(this.workloads.currentVersion);
        if (plural === "statefulsets") {
            const statefulSet = this.workloads.statefulSet();
            if (asTable) return json(response, 200, table(objectKind, [statefulSet], version));
            if (name === undefined) return list(response, "StatefulSetList", "apps/v1", [statefulSet], version);
            return json(response, 200, statefulSet);
        }
        const pods = plural === "pods";
        if (name === undefined) {
            const items = selected(pods ? this.workloads.podList() : this.workloads.claimList(), url);
            if (asTable) return json(response, 200, table(objectKind, items, version));
            return list(response, pods ? "PodList" : "PersistentVolumeClaimList", "v1", items, version);
        }
        if (method !== "GET" && !(method === "DELETE" && !pods)) return notAllowed(response);
        const answer = () => {
            const object = pods ? this.workloads.pod(name) : method === "DELETE" ? this.workloads.deleteClaim(name) : this.workloads.claim(name);
            if (object === undefined) return status(response, 404, "NotFound", `${plural} "${name}" not found`, { name, kind: plural });
            json(response, 200, asTable ? table(objectKind, [object], version) : object);
        };
        if (method === "DELETE" && this.beforeClaimDeletion !== undefined) return void this.beforeClaimDeletion(name).then(answer);
        answer();
    }

    private serveObject(request: http.IncomingMessage, response: http.ServerResponse, url: URL, user: WorkloadUser): boolean {
        const path = /^\/apis\/(argoproj\.io|kustomize\.toolkit\.fluxcd\.io|helm\.toolkit\.fluxcd\.io)\/[^/]+\/namespaces\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(
            url.pathname,
        );
        if (path === null) return false;
        const [, group, namespace, plural, name] = path;
        const object = this.objects.get(url.pathname);
        if ((request.method ?? "GET") !== "GET") notAllowed(response);
        else if (!(user.rules?.[plural] ?? []).includes("get")) {
            const message = `${plural}.${group} "${name}" is forbidden: User "${user.name}" cannot get resource "${plural}" in API group "${group}" in the namespace "${namespace}"`;
            status(response, 403, "Forbidden", message, { name, group, kind: plural });
        } else if (object === undefined) status(response, 404, "NotFound", `${plural}.${group} "${name}" not found`, { name, group, kind: plural });
        else json(response, 200, object);
        return true;
    }

    /** A SelfSubjectAccessReview: allowed when the user's rules give the verb on the resource (rules name no objects here). */
    private review(response: http.ServerResponse, user: WorkloadUser, body: Buffer): void {
        if (this.accessReviews === "forbidden") {
            const message = `selfsubjectaccessreviews.authorization.k8s.io is forbidden: User "${user.name}" cannot create resource "selfsubjectaccessreviews" in API group "authorization.k8s.io" at the cluster scope`;
            return status(response, 403, "Forbidden", message, { group: "authorization.k8s.io", kind: "selfsubjectaccessreviews" });
        }
        const review = JSON.parse(body.toString("utf8")) as {
            spec: { resourceAttributes: { verb: string; resource: string; subresource?: string; name?: string } };
        };
        const { verb, resource, subresource, name } = review.spec.resourceAttributes;
        const plural = subresource ? `${resource}/${subresource}` : resource;
        this.reviewsAsked.push(`${verb} ${plural}${name ? ` ${name}` : ""}`);
        const allowed = (user.rules?.[plural] ?? []).includes(verb);
        json(response, 201, { ...review, status: { allowed, ...(allowed ? {} : { reason: "" }) } });
    }

    private scale(method: string, response: http.ServerResponse, body: Buffer, fieldManager: string | undefined): void {
        if (method === "GET") {
            const writer = this.beforeScaleRead;
            this.beforeScaleRead = undefined;
            writer?.();
            json(response, 200, this.workloads.scale());
            if (this.concurrentWriterOnce) {
                this.concurrentWriterOnce = false;
                this.workloads.touch();
            }
            return;
        }
        if (method !== "PUT" && method !== "PATCH") return notAllowed(response);
        const fault = this.scaleWriteFaults.shift();
        if (fault === "reset") return void response.socket?.destroy();
        if (fault === "503") return status(response, 503, "ServiceUnavailable", "the server is currently unable to handle the request");
        let parsed: unknown;
        try {
            parsed = JSON.parse(body.toString("utf8"));
        } catch {
            return status(response, 400, "BadRequest", "the body of the request was in an unknown format");
        }
        const { replicas, resourceVersion } = scaleRequest(parsed);
        if (replicas === undefined || !Number.isInteger(replicas) || replicas < 0) {
            const name = this.workloads.options.statefulSet;
            return status(
                response,
                422,
                "Invalid",
                `StatefulSet.apps "${name}" is invalid: spec.replicas: Invalid value: ${JSON.stringify(replicas ?? null)}: must be greater than or equal to 0`,
            );
        }
        if (this.workloads.setReplicas(replicas, resourceVersion, fieldManager) === "conflict") {
            const name = this.workloads.options.statefulSet;
            const message = `Operation cannot be fulfilled on statefulsets.apps "${name}": the object has been modified; please apply your changes to the latest version and try again`;
            return status(response, 409, "Conflict", message, { name, group: "apps", kind: "statefulsets" });
        }
        if (fault === "503-after-applying") return status(response, 503, "ServiceUnavailable", "the server is currently unable to handle the request");
        json(response, 200, this.workloads.scale());
    }

    /** A stream of JSON lines: the events after `resourceVersion` (or the current objects as ADDED), then each new one. */
    private watch(request: http.IncomingMessage, response: http.ServerResponse, url: URL, kind: ObjectKind, asTable: boolean): void {
        const from = url.searchParams.get("resourceVersion");
        const since = from === null || from === "" || from === "0" ? undefined : Number(from);
        if (since !== undefined && (!Number.isInteger(since) || !this.workloads.canWatchFrom(since))) {
            return status(response, 410, "Expired", `too old resource version: ${from} (${this.workloads.currentVersion})`);
        }
        response.writeHead(200, { "content-type": "application/json", "transfer-encoding": "chunked" });
        const matches = (object: object) => selected([object], url).length > 0;
        const send = (type: string, object: object) => {
            if (!matches(object)) return;
            const version = (object as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
            response.write(JSON.stringify({ type, object: asTable ? table(kind, [object], version) : object }) + "\n");
        };
        if (since === undefined) {
            const current = kind === "Pod" ? this.workloads.podList() : kind === "StatefulSet" ? [this.workloads.statefulSet()] : this.workloads.claimList();
            for (const object of current) send("ADDED", object);
        }
        const stop = this.workloads.watch(kind, since, (event) => send(event.type, event.object));
        const timeoutSeconds = Number(url.searchParams.get("timeoutSeconds") ?? "0");
        const timer = timeoutSeconds > 0 ? setTimeout(() => response.end(), timeoutSeconds * 1000) : undefined;
        timer?.unref();
        const end = () => {
            stop();
            if (timer) clearTimeout(timer);
        };
        // The request's own "close" comes as soon as its (empty) body was read: the response's is the client going.
        response.on("close", end);
    }
}

/** The replicas and the resourceVersion precondition of a Scale (PUT, merge patch) or a JSON patch of it. */
function scaleRequest(body: unknown): { replicas?: number; resourceVersion?: string } {
    if (Array.isArray(body)) {
        const replace = body.find((op) => op?.path === "/spec/replicas" && (op.op === "replace" || op.op === "add"));
        return { replicas: typeof replace?.value === "number" ? replace.value : undefined };
    }
    const scale = body as { spec?: { replicas?: unknown }; metadata?: { resourceVersion?: unknown } } | null;
    const replicas = scale?.spec?.replicas;
    const resourceVersion = scale?.metadata?.resourceVersion;
    return {
        replicas: typeof replicas === "number" ? replicas : undefined,
        ...(typeof resourceVersion === "string" && resourceVersion !== "" ? { resourceVersion } : {}),
    };
}

/** The objects whose labels match the request's labelSelector (equality terms, comma-separated). */
function selected(objects: object[], url: URL): object[] {
    const selector = url.searchParams.get("labelSelector");
    if (!selector) return objects;
    const terms = selector.split(",").map((term) => term.split(/==?/).map((part) => part.trim()));
    return objects.filter((object) => {
        const labels = (object as { metadata?: { labels?: Record<string, string> } }).metadata?.labels ?? {};
        return terms.every(([key, value]) => (value === undefined ? key in labels : labels[key] === value));
    });
}

function list(response: http.ServerResponse, kind: string, apiVersion: string, items: object[], resourceVersion: string): void {
    json(response, 200, { apiVersion, kind, metadata: { resourceVersion }, items });
}

function json(response: http.ServerResponse, code: number, body: object): void {
    response.writeHead(code, { "content-type": "application/json" });
    response.end(JSON.stringify(body));
}

function notAllowed(response: http.ServerResponse): void {
    status(response, 405, "MethodNotAllowed", "the server does not allow this method on the requested resource");
}

export function status(response: http.ServerResponse, code: number, reason: string, message: string, details?: object): void {
    json(response, code, { kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message, reason, ...(details ? { details } : {}), code });
}

const resourceEntry = (name: string, kind: string, verbs: string[], shortNames: string[] = [], extra: object = {}) => ({
    name,
    singularName: name.includes("/") ? "" : kind.toLowerCase(),
    namespaced: true,
    kind,
    verbs,
    ...(shortNames.length > 0 ? { shortNames } : {}),
    ...extra,
});

/** The legacy discovery documents (kubectl falls back to them when the aggregated form is not offered). */
const DISCOVERY: Record<string, object | ((request: http.IncomingMessage) => object)> = {
    "/version": { major: "1", minor: "32", gitVersion: "v1.32.0-standin", platform: "linux/amd64" },
    "/api": (request) => ({
        kind: "APIVersions",
        versions: ["v1"],
        serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress: request.headers.host ?? "127.0.0.1" }],
    }),
    "/apis": {
        kind: "APIGroupList",
        apiVersion: "v1",
        groups: ["apps", "autoscaling"].map((name) => ({
            name,
            versions: [{ groupVersion: `${name}/v1`, version: "v1" }],
            preferredVersion: { groupVersion: `${name}/v1`, version: "v1" },
        })),
    },
    "/api/v1": {
        kind: "APIResourceList",
        groupVersion: "v1",
        resources: [
            resourceEntry("pods", "Pod", ["get", "list", "watch"], ["po"]),
            resourceEntry("persistentvolumeclaims", "PersistentVolumeClaim", ["delete", "get", "list", "watch"], ["pvc"]),
            resourceEntry("services/proxy", "ServiceProxyOptions", ["create", "delete", "get", "patch", "update"]),
        ],
    },
    "/apis/apps/v1": {
        kind: "APIResourceList",
        apiVersion: "v1",
        groupVersion: "apps/v1",
        resources: [
            resourceEntry("statefulsets", "StatefulSet", ["get", "list", "watch"], ["sts"]),
            resourceEntry("statefulsets/scale", "Scale", ["get", "patch", "update"], [], { group: "autoscaling", version: "v1" }),
        ],
    },
    "/apis/autoscaling/v1": { kind: "APIResourceList", apiVersion: "v1", groupVersion: "autoscaling/v1", resources: [] },
};

/** The field manager of a write that names none: the client's user agent up to its first "/", as the API server takes it. */
function managerOf(userAgent: string | undefined): string {
    return userAgent?.split("/")[0] || "unknown";
}
