// The SDK: typed clients for the token issuer, the administration API, the cluster management API and
// the gateway topology. It knows nothing of Pulumi and can be used by any script.
//
// Under a Pulumi dynamic provider, build clients inside the provider's methods from configuration;
// never capture them in the provider object: a captured TokenClient would put its secret into the
// serialized provider.

export { AdminApiClient } from "./adminApiClient";
export type { AdminApiClientOptions } from "./adminApiClient";
/** @deprecated Renamed AdminApiClient: `AdminClient` is the Pulumi resource. */
export { AdminApiClient as AdminClient } from "./adminApiClient";
/** @deprecated Renamed AdminApiClientOptions. */
export type { AdminApiClientOptions as AdminClientOptions } from "./adminApiClient";
export type { ApiAuth, CallOptions } from "./apiAuth";
export { DEFAULT_CHANGE_TIMEOUT_MS, waitForChange } from "./changeWaiter";
export type { ChangeOutcome, WaitForChangeOptions } from "./changeWaiter";
export { ClusterClient, DEFAULT_BASE_PATH } from "./clusterClient";
export type { ClusterClientOptions, ClusterPatch, PatchClusterOptions, ScaleBrokersOptions } from "./clusterClient";
export {
    AbortedError,
    AuthError,
    ChangeCancelledError,
    ChangeError,
    ChangeFailedError,
    ChangeSupersededError,
    ChangeTimeoutError,
    ConflictError,
    InvalidRequestError,
    PlatformError,
    RateLimitedError,
    RequestTimeoutError,
    ResponseFormatError,
    ServerError,
    TlsError,
    UnexpectedStatusError,
    UnreachableError,
} from "./errors";
export type { ChangeProgress, OperationSummary, RequestDescription } from "./errors";
export { GatewayClient } from "./gatewayClient";
export type { GatewayClientOptions } from "./gatewayClient";
export { isTransientError } from "./http";
export type { RetryPolicy } from "./http";
export { KNOWN_OPERATIONS, parseTimestamp } from "./schemas";
export type {
    BrokerState,
    ChangePlan,
    ChangeRecord,
    ClusterState,
    CompletedOperation,
    Exporter,
    GatewayTopology,
    Member,
    Operation,
    PartitionState,
    PendingChange,
    Timestamp,
    TokenResponse,
    TopologyBroker,
} from "./schemas";
export { TokenClient, clearTokenCache } from "./tokenClient";
export type { ConnectionSettings, TlsSettings } from "./transport";
export { resolveServiceRoute } from "./kubernetesRoute";
export type { KubernetesServiceRoute, ResolvedServiceRoute } from "./kubernetesRoute";
export type { GetTokenOptions, TokenClientOptions, TokenInfo, TokenProvider } from "./tokenClient";
/** @deprecated The answer to a scale request is a `ChangePlan`; a `PlannedChange` of the resources is one of its operations. */
export type { ChangePlan as PlannedChange } from "./schemas";
