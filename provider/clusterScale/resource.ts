import * as pulumi from "@pulumi/pulumi";
import { ENTRY_POINTS } from "../shared/entryPoints";
import { providerShim } from "../shared/providerShim";
import type { BrokerLayout, ChangeRecord, PlannedChange } from "./types";
import type { TlsArgs } from "../shared/tlsArgs";

/** Credentials for a management API that sits behind authentication (the API itself has none by default). */
export interface ManagementAuthArgs {
    /** Fixed headers sent with every management and gateway request, e.g. `{ Authorization: "Bearer …" }`. */
    headers?: pulumi.Input<Record<string, pulumi.Input<string>>>;
    /** A client-credentials grant; the bearer token is cached and shared like AdminClient's. */
    clientId?: pulumi.Input<string>;
    clientSecret?: pulumi.Input<string>;
    oauthUrl?: pulumi.Input<string>;
    audience?: pulumi.Input<string>;
}

export type { TlsArgs };

/**
 * The Kubernetes side: the route through the API server's service proxy (`service`, instead of
 * managementUrl/gatewayUrl), and/or the brokers' StatefulSet kept in step (`statefulSet`; without `service`, the
 * management API is reached at managementUrl).
 */
export interface KubernetesRouteArgs {
    /** Namespace of the gateway Service and of the StatefulSet. */
    namespace: pulumi.Input<string>;
    /**
     * Name of the Service that exposes the management port (and the gateway's REST port), reached through the API
     * server's service proxy. A real API server refuses the management API's dry runs there (`dryRun is not
     * supported`); leave it out and give managementUrl (inside the cluster, or behind a port-forward) instead.
     */
    service?: pulumi.Input<string>;
    /** The Service port of the management API. Default 9600. */
    managementPort?: pulumi.Input<number>;
    /** The Service port of the gateway's REST API; when set, liveness is read and completion confirmed there. */
    gatewayPort?: pulumi.Input<number>;
    /** kubeconfig YAML content or a file path. Else stack config `kubernetes:kubeconfig`, else KUBECONFIG, else ~/.kube/config. */
    kubeconfig?: pulumi.Input<string>;
    /** The kubeconfig context. Default: its current-context. */
    context?: pulumi.Input<string>;
    /**
     * The brokers' StatefulSet in the same namespace (pod ordinal = broker id). With it, `up` raises its replicas and
     * waits for the new pods to run before the layout change names them, and lowers them only once a change that
     * removes brokers completed.
     */
    statefulSet?: pulumi.Input<string>;
    /** The volume claims of brokers removed by a scale-down (with statefulSet): `"retain"` (default) or `"delete"`. */
    volumesOfRemovedBrokers?: pulumi.Input<"retain" | "delete">;
    /**
     * The GitOps controllers deploying the StatefulSet (with statefulSet) whose recipe leaves spec.replicas alone, as the
     * program says where ClusterScale cannot read their objects (an Argo CD Application, a Flux Kustomization or
     * HelmRelease): without it, up does not move the count while such a controller deploys the StatefulSet.
     */
    gitOpsRecipes?: pulumi.Input<pulumi.Input<"argo-cd" | "kustomize-controller" | "helm-controller">[]>;
}

export interface ClusterScaleArgs {
    /** Origin of the management port, e.g. `http://zeebe-gateway:9600`. Else stack config `platform:managementUrl`, else `PLATFORM_MANAGEMENT_URL`. */
    managementUrl?: pulumi.Input<string>;
    /** Origin of the gateway REST API, used to confirm completion. Else `platform:gatewayUrl`, else `PLATFORM_GATEWAY_URL`. Optional. */
    gatewayUrl?: pulumi.Input<string>;
    /** Path of the cluster endpoint. Default `/actuator/cluster`. */
    basePath?: pulumi.Input<string>;
    /** Optional authentication for the management and gateway APIs. Kept as a secret (input and output, for refresh). */
    auth?: pulumi.Input<ManagementAuthArgs>;
    /** Optional TLS trust and client certificate for the management and gateway APIs. Kept as a secret (input and output, for refresh). */
    tls?: pulumi.Input<TlsArgs>;
    /**
     * Reach the management API through the Kubernetes API server (the identity needs get, create and patch on
     * services/proxy in the namespace). Instead of managementUrl and gatewayUrl. Kept as a secret (it may hold a kubeconfig).
     */
    kubernetes?: pulumi.Input<KubernetesRouteArgs>;
    /** Every broker id of the final cluster. Give this or `brokerCount`, not both. */
    brokers?: pulumi.Input<pulumi.Input<number>[]>;
    /** Number of brokers; the cluster is brokers `0 … brokerCount-1`. Give this or `brokers`, not both. */
    brokerCount?: pulumi.Input<number>;
    /** Target partition count. It may only grow; requires the partition-scaling switch on the brokers. */
    partitionCount?: pulumi.Input<number>;
    /**
     * Target replication factor, 1 ≤ replicationFactor ≤ number of brokers. When omitted, the resource keeps the one it
     * intends (see the intendedReplicationFactor output): it is never left to the server's implicit choice.
     */
    replicationFactor?: pulumi.Input<number>;
    /** Remove the brokers that are left out without moving their partitions (they are unreachable). Replace-only. Default false. */
    force?: pulumi.Input<boolean>;
    /** How long create/update wait for the change to complete. Default 1800. (Pulumi customTimeouts never reach dynamic providers.) */
    timeoutSeconds?: pulumi.Input<number>;
    /** Cancel the change when the wait times out. Already applied operations are not rolled back. Default false. */
    cancelOnTimeout?: pulumi.Input<boolean>;
    /**
     * The most brokers one change may remove, counted against the cluster's own members (not the layout recorded last):
     * preview and up refuse a plan that removes more, before anything is sent. Left out, no limit.
     */
    maxBrokersRemoved?: pulumi.Input<number>;
}

/** What the state stores as the provider: it loads provider.ts from the installed package. One object, serialized once. */
export const clusterScaleShim = providerShim(ENTRY_POINTS.clusterScale, "ClusterScale");

/**
 * The layout of a workflow-engine cluster: which brokers form it, how many partitions it has and how
 * many replicas each keeps. Preview shows the server's own dry-run plan; up applies it and waits.
 */
export class ClusterScale extends pulumi.dynamic.Resource {
    /** Id of the last change applied to reach this layout (the previous change's id when nothing had to change). */
    declare readonly changeId: pulumi.Output<number>;
    /** Cluster configuration version after the change. */
    declare readonly topologyVersion: pulumi.Output<number>;
    /** Live brokers with their partitions and priorities. */
    declare readonly topology: pulumi.Output<BrokerLayout[]>;
    /** Live partition count. */
    declare readonly partitionCount: pulumi.Output<number>;
    /** Live replication factor: the smallest number of replicas any partition has. */
    declare readonly replicationFactor: pulumi.Output<number>;
    /**
     * The replication factor every request names: the input, else the one recorded before (on create, the most
     * replicas any partition had). A force removal does not lower it; the next update without force restores it.
     */
    declare readonly intendedReplicationFactor: pulumi.Output<number | undefined>;
    /** The operations of the last applied change, in execution order: the first 100 (preview and up print them all). */
    declare readonly plannedChanges: pulumi.Output<PlannedChange[]>;
    /** How many operations the last applied change had. */
    declare readonly plannedChangeCount: pulumi.Output<number>;
    declare readonly lastChange: pulumi.Output<ChangeRecord | undefined>;

    constructor(name: string, args: ClusterScaleArgs, opts?: pulumi.CustomResourceOptions) {
        const props = {
            resourceName: name,
            // Whether the program runs a preview: the provider prints the plan in the preview pass only (not an input kept in state).
            dryRun: pulumi.runtime.isDryRun(),
            changeId: undefined,
            topologyVersion: undefined,
            topology: undefined,
            plannedChanges: undefined,
            plannedChangeCount: undefined,
            lastChange: undefined,
            // Also outputs (the live values) when the args leave them out: seeded so that the properties exist.
            partitionCount: undefined,
            replicationFactor: undefined,
            intendedReplicationFactor: undefined,
            ...args,
            auth: args.auth === undefined ? undefined : pulumi.secret(args.auth),
            tls: args.tls === undefined ? undefined : pulumi.secret(args.tls),
            kubernetes: args.kubernetes === undefined ? undefined : pulumi.secret(args.kubernetes),
        };
        // The auth input comes back as the output of the same name (refresh and destroy get only the outputs), which
        // the engine keeps secret; additionalSecretOutputs says so explicitly as well.
        const secretOutputs = pulumi.mergeOptions(opts, { additionalSecretOutputs: ["auth", "tls", "kubernetes"] });
        super(clusterScaleShim, name, props, secretOutputs, "platform", "ClusterScale");
    }
}
