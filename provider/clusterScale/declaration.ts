// ClusterScale's inputs and outputs as the package schema declares them (see ../plugin/schema.ts).
import { z } from "zod";
import { tlsDeclaration } from "../shared/declarations";

const int = () => z.number().int();

const managementAuth = z
    .object({
        headers: z.record(z.string(), z.string()).optional().describe("Fixed headers sent with every management and gateway request, e.g. Authorization."),
        clientId: z.string().optional().describe("Client id of a client-credentials grant for the management API."),
        clientSecret: z.string().optional().describe("Client secret of that grant."),
        oauthUrl: z.string().optional().describe("Token endpoint of that grant."),
        audience: z.string().optional().describe("Audience asked for in that grant's token request."),
    })
    .meta({ id: "ManagementAuth", description: "Credentials for a management API behind authentication: fixed headers and/or a client-credentials grant." });

const kubernetesRoute = z
    .object({
        namespace: z.string().describe("Namespace of the gateway Service and of the StatefulSet."),
        service: z.string().optional().describe("Name of the Service exposing the management port, reached through the API server's service proxy."),
        managementPort: int().optional().describe("The Service port of the management API. Default 9600."),
        gatewayPort: int().optional().describe("The Service port of the gateway's REST API."),
        kubeconfig: z.string().optional().describe("kubeconfig YAML content or a file path. Else KUBECONFIG, else ~/.kube/config."),
        context: z.string().optional().describe("The kubeconfig context. Default: its current-context."),
        statefulSet: z.string().optional().describe("The brokers' StatefulSet in the same namespace (pod ordinal = broker id), kept in step with the layout."),
        volumesOfRemovedBrokers: z
            .enum(["retain", "delete"])
            .optional()
            .describe('The volume claims of brokers removed by a scale-down: "retain" (default) or "delete".'),
        gitOpsRecipes: z
            .array(z.enum(["argo-cd", "kustomize-controller", "helm-controller"]))
            .optional()
            .describe(
                'The GitOps controllers deploying the StatefulSet whose recipe (leaving spec.replicas alone) the program says is in place, where ClusterScale cannot read their objects: "argo-cd", "kustomize-controller", "helm-controller".',
            ),
    })
    .meta({
        id: "KubernetesRoute",
        description: "The Kubernetes side: the route through the API server's service proxy, and/or the brokers' StatefulSet kept in step.",
    });

const partitionReplica = z
    .object({
        id: int().describe("Partition id."),
        priority: int().describe("Leader-election priority of this replica on this broker."),
        state: z.string().describe("The replica's state, e.g. ACTIVE."),
    })
    .meta({ id: "PartitionReplica", description: "A replica of a partition on a broker." });
const brokerLayout = z
    .object({
        id: int().describe("Broker id."),
        state: z.string().describe("The broker's state, e.g. ACTIVE."),
        partitions: z.array(partitionReplica).describe("The partition replicas the broker holds (possibly none)."),
    })
    .meta({ id: "BrokerLayout", description: "A broker of the cluster and the partition replicas it holds." });
const plannedChange = z
    .object({
        operation: z
            .string()
            .describe(
                "BROKER_ADD, PARTITION_JOIN, PARTITION_LEAVE, PARTITION_RECONFIGURE_PRIORITY, PARTITION_BOOTSTRAP, AWAIT_REDISTRIBUTION or AWAIT_RELOCATION.",
            ),
        brokerId: int().optional().describe("The broker the operation acts on."),
        partitionId: int().optional().describe("The partition, for partition operations."),
        priority: int().optional().describe("The replica's priority, for PARTITION_JOIN, PARTITION_BOOTSTRAP and PARTITION_RECONFIGURE_PRIORITY."),
        brokers: z.array(int()).optional().describe("Brokers named by the operation, where the cluster lists them."),
    })
    .meta({ id: "PlannedChange", description: "One operation of a layout change, in the order the cluster runs them." });
const changeRecord = z
    .object({
        id: int().describe("The change's id."),
        status: z.string().describe("The change's status, e.g. COMPLETED."),
        startedAt: z.string().optional().describe("When the change started (ISO 8601)."),
        completedAt: z.string().optional().describe("When the change completed (ISO 8601)."),
    })
    .meta({ id: "ChangeRecord", description: "A layout change as the cluster records it." });

export const clusterScaleDeclaration = {
    description:
        "The layout of a workflow-engine cluster: which brokers form it, how many partitions it has and how many replicas each keeps. Preview shows the server's own dry-run plan; up applies it and waits.",
    inputs: z.object({
        managementUrl: z.string().optional().describe("Origin of the management port, e.g. http://zeebe-gateway:9600. Else PLATFORM_MANAGEMENT_URL."),
        gatewayUrl: z.string().optional().describe("Origin of the gateway REST API, used to confirm completion. Else PLATFORM_GATEWAY_URL. Optional."),
        basePath: z.string().optional().describe("Path of the cluster endpoint. Default /actuator/cluster."),
        auth: managementAuth.optional().meta({ secret: true }).describe("Optional authentication for the management and gateway APIs (a secret)."),
        tls: tlsDeclaration
            .optional()
            .meta({ secret: true })
            .describe("Optional TLS trust and client certificate for the management and gateway APIs (a secret)."),
        kubernetes: kubernetesRoute
            .optional()
            .meta({ secret: true })
            .describe("Reach the management API through the Kubernetes API server, and/or keep the brokers' StatefulSet in step (a secret)."),
        brokers: z.array(int()).optional().describe("Every broker id of the final cluster. Give this or brokerCount, not both."),
        brokerCount: int().optional().describe("Number of brokers; the cluster is brokers 0 … brokerCount-1. Give this or brokers, not both."),
        partitionCount: int().optional().describe("Target partition count. It may only grow."),
        replicationFactor: int()
            .optional()
            .describe("Target replication factor, 1 ≤ replicationFactor ≤ number of brokers. When omitted, the one the resource intends."),
        force: z
            .boolean()
            .optional()
            .describe("Remove the brokers that are left out without moving their partitions (they are unreachable). Replace-only. Default false."),
        timeoutSeconds: int().optional().describe("How long create/update wait for the change to complete. Default 1800."),
        cancelOnTimeout: z.boolean().optional().describe("Cancel the change when the wait times out. Default false."),
        maxBrokersRemoved: int()
            .optional()
            .describe(
                "The most brokers one change may remove (counted against the cluster's members); a plan removing more is refused before anything is sent.",
            ),
    }),
    outputs: z.object({
        changeId: int().describe("Id of the last change applied to reach this layout."),
        topologyVersion: int().describe("Cluster configuration version after the change."),
        topology: z.array(brokerLayout).describe("Live brokers with their partitions and priorities."),
        partitionCount: int().describe("Live partition count."),
        replicationFactor: int().describe("Live replication factor: the smallest number of replicas any partition has."),
        intendedReplicationFactor: int().optional().describe("The replication factor every request names: the input, else the one recorded before."),
        plannedChanges: z.array(plannedChange).describe("The operations of the last applied change, in execution order: the first 100."),
        plannedChangeCount: int().describe("How many operations the last applied change had."),
        lastChange: changeRecord.optional().describe("The last change the cluster completed, as it records it."),
    }),
};
