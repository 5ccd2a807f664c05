// Module paths that the providers stored by 0.1.x require. That version stored each provider's own code in the
// state, and that code requires the package's modules by path (`pulumi-platform/dist/provider/clusterScaleRequest.js`
// and others), so each of those paths stays a module that re-exports what moved (provider/*.ts and sdk/http.ts,
// sdk/changeWaiter.ts). test/provider/legacyState.spec.ts refreshes and destroys with the stored texts of 0.1.x.
// A state's provider is replaced by the shim at the resource's next update; these paths can go once no stack can
// still hold a 0.1.x provider.
export const LEGACY_PATHS = [
    "provider/kubernetesRouteInput",
    "provider/clusterScalePlan",
    "provider/clusterScaleInputs",
    "provider/clusterClaims",
    "provider/clusterScaleRequest",
    "provider/clusterScaleReplicas",
    "provider/clusterScaleOutputs",
    "provider/clusterScaleOwnership",
    "provider/clusterScaleClients",
    "provider/clusterScaleLiveness",
    "provider/clusterScaleInterrupted",
    "provider/credentials",
    "provider/adminClientInputs",
    "provider/tlsInput",
    "provider/unknowns",
    "provider/debugLog",
    "provider/memberListing",
    "sdk/http",
    "sdk/changeWaiter",
] as const;
