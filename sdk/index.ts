// The SDK: typed clients for the token issuer, the administration API, the cluster management API, the gateway
// topology and the brokers' StatefulSet in Kubernetes. It knows nothing of Pulumi and can be used by any script.

export { AdminApiClient } from "./adminApiClient";
export type { AdminApiClientOptions, ClusterPatch as HostedClusterPatch, CreateClusterRequest, ListOptions, Removal } from "./adminApiClient";
export { PASSING_STATES, waitForClusterGone, waitForClusterHealthy } from "./admin/clusterWaits";
export type { ClusterWaitOptions } from "./admin/clusterWaits";
export { ASSIGNABLE_ROLES, CLUSTER_CLIENT_PERMISSIONS, CLUSTER_STAGES } from "./adminSchemas";
export type {
    AssignableRole,
    Cluster,
    ClusterApiClient,
    ClusterApiClientDetails,
    ClusterClientPermission,
    ClusterComponentStatus,
    ClusterParameters,
    ClusterStage,
    CreatedClusterApiClient,
    GenerationUpgrade,
    IpAllowlistEntry,
    Member,
    NamedRef,
    OrganizationRole,
} from "./adminSchemas";
/** @deprecated Renamed AdminApiClient: `AdminClient` is the Pulumi resource. */
export { AdminApiClient as AdminClient } from "./adminApiClient";
/** @deprecated Renamed AdminApiClientOptions. */
export type { AdminApiClientOptions as AdminClientOptions } from "./adminApiClient";
export type { ApiAuth, CallOptions } from "./auth/apiAuth";
export type { Replay, RetryNotice } from "./http/request";
export { DEFAULT_CHANGE_TIMEOUT_MS, waitForChange } from "./cluster/changeWaiter";
export { TIME_LIMITS } from "./timeLimits";
export type { ChangeOutcome, WaitForChangeOptions } from "./cluster/changeWaiter";
export type { ChangeRead, RunningChange } from "./cluster/changeRead";
export { ClusterClient, DEFAULT_BASE_PATH } from "./cluster/clusterClient";
export type { ClusterClientOptions, ClusterPatch, LayoutPlan, PatchClusterOptions, ScaleBrokersOptions } from "./cluster/clusterClient";
export { describeLayoutRequest, layoutRefusal, layoutRequest, sameLayoutRequest } from "./cluster/layoutRequest";
export type { Layout, LayoutField, LayoutRefusal, LayoutRequest, LiveLayout } from "./cluster/layoutRequest";
export {
    AbortedError,
    AuthError,
    ChangeCancelledError,
    ChangeError,
    ChangeFailedError,
    ChangeSupersededError,
    ChangeTimeoutError,
    ConflictError,
    HostedClusterStateError,
    InvalidRequestError,
    PlatformError,
    PodWaitTimeoutError,
    RateLimitedError,
    ReplicasMovedError,
    RequestTimeoutError,
    ResponseFormatError,
    ServerError,
    TlsError,
    UnexpectedStatusError,
    UnreachableError,
} from "./errors";
export type { ChangeProgress, OperationSummary, RequestDescription } from "./errors";
export { GatewayClient } from "./cluster/gatewayClient";
export { BrokerStatefulSet } from "./kubernetes/brokerStatefulSet";
export type { BrokerStatefulSetRef, ScaleView, StatefulSetView } from "./kubernetes/brokerStatefulSet";
export type { PodView } from "./kubernetes/podView";
export type { WatchPodsOptions } from "./kubernetes/podWatch";
export type { GatewayClientOptions } from "./cluster/gatewayClient";
export { isTransientError } from "./http/request";
export type { RetryPolicy } from "./http/request";
export { KNOWN_OPERATIONS, parseTimestamp } from "./schemas";
export type {
    BrokerState,
    ChangePlan,
    ChangeRecord,
    ClusterState,
    CompletedOperation,
    Exporter,
    GatewayTopology,
    Operation,
    PartitionHealth,
    PartitionRole,
    PartitionState,
    PendingChange,
    Timestamp,
    TokenResponse,
    TopologyBroker,
} from "./schemas";
export { TokenClient, clearTokenCache } from "./auth/tokenClient";
export type { ConnectionSettings, TlsSettings } from "./http/transport";
export { resolveServiceRoute } from "./http/kubernetesRoute";
export type { KubernetesServiceRoute, ResolvedServiceRoute } from "./http/kubernetesRoute";
export type { GetTokenOptions, TokenClientOptions, TokenInfo, TokenProvider } from "./auth/tokenClient";
/** @deprecated The answer to a scale request is a `ChangePlan`; a `PlannedChange` of the resources is one of its operations. */
export type { ChangePlan as PlannedChange } from "./schemas";
