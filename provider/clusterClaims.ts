// A path that providers stored by 0.1.x require (they hold the provider's code and require its modules by path):
// kept so that their stacks still refresh and destroy. Not for new code; see provider/shared/legacyPaths.ts.
export * from "./clusterScale/claims";
