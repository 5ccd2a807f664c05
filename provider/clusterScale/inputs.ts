// ClusterScale's inputs as the provider sees them: fallbacks resolved (stack config, environment, defaults),
// every rule checked with a failure that names the field, and values Pulumi does not know yet (preview) let
// through untouched. Nothing here talks to the cluster.

import { type ManagementAuth, checkAuth } from "./authInput";
import { type KubernetesRouteInput, checkKubernetesRoute } from "../shared/kubernetesRouteInput";
import { DEFAULT_TIMEOUT_SECONDS, type InputFailure, brokerIdsOf, checkLayout } from "../shared/layoutSchema";
import { type TlsInput, checkTls } from "../shared/tlsInput";
import { UNKNOWN, asChecked, containsUnknown, isUnknown } from "../shared/unknowns";
import { httpOrigin } from "../shared/urlRules";

export { containsUnknown } from "../shared/unknowns";

export const DEFAULT_BASE_PATH = "/actuator/cluster";

export type { ManagementAuth } from "./authInput";

export type { TlsInput as ManagementTls } from "../shared/tlsInput";

/** The checked inputs: every fallback resolved, so delete and read (which only get old outputs) need no environment. */
export interface ClusterScaleInputs {
    resourceName: string;
    managementUrl: string;
    gatewayUrl?: string;
    basePath: string;
    auth?: ManagementAuth;
    tls?: TlsInput;
    /** The route through the Kubernetes API server, instead of managementUrl/gatewayUrl ("" then). */
    kubernetes?: KubernetesRouteInput;
    brokers?: number[];
    brokerCount?: number;
    partitionCount?: number;
    replicationFactor?: number;
    force: boolean;
    timeoutSeconds: number;
    cancelOnTimeout: boolean;
    /** The most brokers one change may remove, counted against the cluster's members. */
    maxBrokersRemoved?: number;
}

/** The layout the inputs ask for, in the terms of a scale request. */
export interface DesiredLayout {
    /** Every broker of the final cluster, ascending. */
    brokers: number[];
    partitionCount?: number;
    /** The program's replicationFactor input. */
    replicationFactor?: number;
    /** The replication factor the resource recorded as intended (old outputs), used when the input leaves it out. */
    recordedReplicationFactor?: number;
    force: boolean;
    maxBrokersRemoved?: number;
}

/** Where the URLs come from when the inputs leave them out (read in configure and in each method). */
export interface InputDefaults {
    config: { get(key: string): string | undefined };
    env: Record<string, string | undefined>;
}

export interface CheckedInputs {
    inputs: ClusterScaleInputs;
    failures: InputFailure[];
    /** True when a value the request depends on is not known yet (preview): no plan can be asked for. */
    hasUnknowns: boolean;
}

type Raw = Record<string, unknown>;

/**
 * Resolves and validates the program's inputs. `olds` are the inputs in state (empty for a new resource): they make
 * "partitions may only grow" checkable before anything is sent (the cluster has at least the partitions they name).
 */
export function checkInputs(olds: Raw, news: Raw, defaults: InputDefaults): CheckedInputs {
    const failures: InputFailure[] = [];
    const fail = (property: string, reason: string): void => {
        failures.push({ property, reason });
    };

    const kubernetes = checkKubernetesRoute(news.kubernetes, fail);
    // Through the service proxy: the management API has no URL of its own. Without a service, kubernetes only keeps
    // the StatefulSet in step, and the management API is at managementUrl as usual.
    const given = news.kubernetes as { service?: unknown } | undefined | null;
    const viaKubernetes = given !== undefined && given !== null && (typeof given !== "object" || (given.service !== undefined && given.service !== null));
    if (viaKubernetes && news.managementUrl !== undefined && news.managementUrl !== null) fail("managementUrl", "give managementUrl or kubernetes, not both");
    if (viaKubernetes && news.gatewayUrl !== undefined && news.gatewayUrl !== null) {
        fail("gatewayUrl", "with kubernetes, the gateway is reached through the same route: set kubernetes.gatewayPort instead of gatewayUrl");
    }
    if (viaKubernetes && news.auth !== undefined && news.auth !== null) {
        fail(
            "auth",
            "auth cannot be combined with kubernetes: the Kubernetes API server authenticates with the kubeconfig, and drops the Authorization header before it reaches the management API",
        );
    }
    // Through Kubernetes, the URL fallbacks (stack config, environment) do not apply.
    const managementUrl = viaKubernetes
        ? ""
        : resolveUrl(news.managementUrl, "managementUrl", "platform:managementUrl", "PLATFORM_MANAGEMENT_URL", defaults, true, fail);
    const gatewayUrl = viaKubernetes
        ? undefined
        : resolveUrl(news.gatewayUrl, "gatewayUrl", "platform:gatewayUrl", "PLATFORM_GATEWAY_URL", defaults, false, fail);
    const basePath = checkBasePath(news.basePath, fail);

    const checked = checkLayout(news);
    failures.push(...checked.failures);
    const layout = checked.layout ?? {};
    const brokers = layout.brokers == null ? undefined : asChecked<number[]>(layout.brokers);
    const brokerCount = layout.brokerCount == null ? undefined : asChecked<number>(layout.brokerCount);
    const partitionCount = layout.partitionCount == null ? undefined : asChecked<number>(layout.partitionCount);
    const replicationFactor = layout.replicationFactor == null ? undefined : asChecked<number>(layout.replicationFactor);
    const force = asChecked<boolean>(layout.force ?? false);
    const cancelOnTimeout = asChecked<boolean>(layout.cancelOnTimeout ?? false);
    const timeoutSeconds = asChecked<number>(layout.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS);
    const maxBrokersRemoved = layout.maxBrokersRemoved == null ? undefined : asChecked<number>(layout.maxBrokersRemoved);
    const auth = checkAuth(news.auth, fail);
    const tls = checkTls(news.tls, fail);

    const oldPartitionCount = typeof olds.partitionCount === "number" ? olds.partitionCount : undefined;
    if (typeof partitionCount === "number" && oldPartitionCount !== undefined && partitionCount < oldPartitionCount) {
        fail("partitionCount", `partitionCount ${partitionCount} is below the current ${oldPartitionCount}: partitions can only be added, never removed`);
    }

    // Whether a force removal would add brokers or partitions is judged against the live cluster when the plan is asked
    // for: old inputs lag behind it after an update that did not complete (the engine keeps the inputs of before).
    if (force === true && replicationFactor !== undefined) {
        fail("force", "force removal cannot change the replication factor: leave replicationFactor out while force is true");
    }

    const inputs: ClusterScaleInputs = {
        resourceName: typeof news.resourceName === "string" ? news.resourceName : "cluster",
        managementUrl: managementUrl ?? "",
        basePath,
        force,
        timeoutSeconds,
        cancelOnTimeout,
    };
    if (gatewayUrl !== undefined) inputs.gatewayUrl = gatewayUrl;
    if (auth !== undefined) inputs.auth = auth;
    if (tls !== undefined) inputs.tls = tls;
    if (kubernetes !== undefined) inputs.kubernetes = kubernetes;
    if (brokers !== undefined) inputs.brokers = brokers;
    if (brokerCount !== undefined) inputs.brokerCount = brokerCount;
    if (partitionCount !== undefined) inputs.partitionCount = partitionCount;
    if (replicationFactor !== undefined) inputs.replicationFactor = replicationFactor;
    if (maxBrokersRemoved !== undefined) inputs.maxBrokersRemoved = maxBrokersRemoved;

    return { inputs, failures, hasUnknowns: requestUnknown(inputs) };
}

/** Whether an input the plan depends on (the route, the credentials, the layout) is not known yet. */
export function requestUnknown(inputs: ClusterScaleInputs): boolean {
    const requestFields = [
        inputs.managementUrl,
        inputs.basePath,
        inputs.auth,
        inputs.tls,
        inputs.kubernetes,
        inputs.brokers,
        inputs.brokerCount,
        inputs.partitionCount,
        inputs.replicationFactor,
        inputs.force,
        inputs.maxBrokersRemoved,
    ];
    return requestFields.some(containsUnknown);
}

/**
 * The layout to ask the cluster for; only for inputs that passed the check and hold no unknowns.
 * `recordedReplicationFactor`: what the resource intended so far (from its old outputs).
 */
export function desiredLayout(inputs: ClusterScaleInputs, recordedReplicationFactor?: number): DesiredLayout {
    const brokers = brokerIdsOf(inputs.brokers, inputs.brokerCount) ?? [];
    const desired: DesiredLayout = { brokers, force: inputs.force };
    if (inputs.partitionCount !== undefined) desired.partitionCount = inputs.partitionCount;
    if (inputs.replicationFactor !== undefined) desired.replicationFactor = inputs.replicationFactor;
    if (recordedReplicationFactor !== undefined) desired.recordedReplicationFactor = recordedReplicationFactor;
    if (inputs.maxBrokersRemoved !== undefined) desired.maxBrokersRemoved = inputs.maxBrokersRemoved;
    return desired;
}

function resolveUrl(
    value: unknown,
    property: string,
    configKey: string,
    envName: string,
    defaults: InputDefaults,
    required: boolean,
    fail: (property: string, reason: string) => void,
): string | undefined {
    if (isUnknown(value)) return UNKNOWN;
    const fromConfig = defaults.config.get(configKey);
    const fromEnv = defaults.env[envName];
    const [raw, source] =
        value !== undefined && value !== null && value !== ""
            ? [value, property]
            : fromConfig !== undefined && fromConfig !== ""
              ? [fromConfig, `stack config ${configKey}`]
              : fromEnv !== undefined && fromEnv !== ""
                ? [fromEnv, `environment variable ${envName}`]
                : [undefined, property];
    if (raw === undefined) {
        if (required) fail(property, `required: set ${property}, stack config ${configKey} or environment variable ${envName}`);
        return undefined;
    }
    if (typeof raw !== "string") {
        fail(property, `${source} must be a string`);
        return undefined;
    }
    const origin = httpOrigin(raw);
    if (origin === undefined) {
        fail(property, `${source} must be an absolute http(s) origin without path, query or credentials, e.g. http://gateway:9600`);
        return undefined;
    }
    return origin;
}

function checkBasePath(value: unknown, fail: (property: string, reason: string) => void): string {
    if (value === undefined || value === null) return DEFAULT_BASE_PATH;
    if (isUnknown(value)) return UNKNOWN;
    if (typeof value !== "string" || !value.startsWith("/") || /[?#\s]/.test(value)) {
        fail("basePath", 'basePath must be a path starting with "/" (no query, fragment or spaces), e.g. /actuator/cluster');
        return DEFAULT_BASE_PATH;
    }
    const trimmed = value.replace(/\/+$/, "");
    return trimmed === "" ? "/" : trimmed;
}
