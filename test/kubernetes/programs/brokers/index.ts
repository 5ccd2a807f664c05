// Fixture program: the brokers' StatefulSet deployed by Pulumi's Kubernetes provider, as users deploy it, and
// ClusterScale keeping the broker count (kubernetes.statefulSet). Config:
// - deployer: "chart" (the test chart at chartPath through k8s.helm.v4.Chart) or "statefulSet" (k8s.apps.v1.StatefulSet);
// - transform: false leaves out leaveBrokerReplicasToClusterScale (the fight it prevents); lookBeforeReplace: false gives
//   it no kubeconfig (it cannot read the live StatefulSet);
// - clusterSize: the chart's (or the StatefulSet's) replicas; image, env, podLabel: the pod template; settings: a
//   ConfigMap beside the StatefulSet (a change that does not touch it);
// - apply: "patchForce" (the provider forces its server-side applies) or "clientSide" (enableServerSideApply: false);
// - kubeconfig: the Kubernetes provider's (the admin); route: ClusterScale's `kubernetes` input (a secret: its
//   kubeconfig carries the pipeline's token); managementUrl, gatewayUrl, brokerCount.
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { ClusterScale } from "pulumi-platform";
import { leaveBrokerReplicasToClusterScale } from "pulumi-platform/kubernetes";

const config = new pulumi.Config();
const namespace = "camunda";
const statefulSet = "camunda-zeebe";
const values = {
    clusterSize: config.getNumber("clusterSize") ?? 3,
    image: config.get("image") ?? "camunda/camunda:8.9.16",
    env: config.get("env") ?? "",
    podLabel: config.get("podLabel") ?? "",
    settings: config.get("settings") ?? "first",
    pvcSize: config.get("pvcSize") ?? "1Gi",
    serviceName: config.get("serviceName") ?? statefulSet,
    podManagementPolicy: config.get("podManagementPolicy") ?? "Parallel",
};
// lookBeforeReplace: false leaves the transform without the Kubernetes provider's kubeconfig (no look at the live StatefulSet).
const reach = config.getBoolean("lookBeforeReplace") === false ? {} : { kubeconfig: config.require("kubeconfig") };
const transforms = config.getBoolean("transform") === false ? [] : [leaveBrokerReplicasToClusterScale(statefulSet, reach)];
const deleteBeforeReplace = config.get("deleteBeforeReplace") ? config.getBoolean("deleteBeforeReplace") : undefined;
const apply = config.get("apply");
const provider = new k8s.Provider("cluster", {
    kubeconfig: config.require("kubeconfig"),
    namespace,
    ...(apply === "patchForce" ? { enablePatchForce: true } : apply === "clientSide" ? { enableServerSideApply: false } : {}),
});

/**
 * The chart's children get the program's deleteBeforeReplace (when set) through a transform of their own. Measured
 * (CLI 3.276.0, Kubernetes provider 4.25.0): with it, a replacement of the chart's StatefulSet moves it to the default
 * provider (`[provider: …::cluster::… => …::default_4_34_2::[unknown]]`), and its preview no longer fails: whether the
 * transform spreads the options or merges them.
 */
function withOptions(list: pulumi.ResourceTransform[]): pulumi.ResourceTransform[] {
    if (deleteBeforeReplace === undefined) return list;
    return [(args) => ({ props: args.props, opts: { ...args.opts, deleteBeforeReplace } }), ...list];
}

const brokers =
    config.require("deployer") === "chart"
        ? new k8s.helm.v4.Chart("brokers", { chart: config.require("chartPath"), namespace, values }, { provider, transforms: withOptions(transforms) })
        : [
              new k8s.apps.v1.StatefulSet(
                  "brokers",
                  {
                      metadata: { name: statefulSet, namespace },
                      spec: {
                          replicas: values.clusterSize,
                          serviceName: values.serviceName,
                          podManagementPolicy: values.podManagementPolicy,
                          updateStrategy: { type: "OnDelete" },
                          selector: { matchLabels: { app: "zeebe" } },
                          template: {
                              metadata: { labels: { app: "zeebe", ...(values.podLabel ? { tier: values.podLabel } : {}) } },
                              spec: {
                                  containers: [
                                      {
                                          name: "broker",
                                          image: values.image,
                                          env: values.env ? [{ name: "BROKER_SETTING", value: values.env }] : [],
                                          ports: [
                                              { name: "management", containerPort: 9600 },
                                              { name: "gateway", containerPort: 8080 },
                                          ],
                                          volumeMounts: [{ name: "data", mountPath: "/usr/local/zeebe/data" }],
                                      },
                                  ],
                              },
                          },
                          volumeClaimTemplates: [
                              { metadata: { name: "data" }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: values.pvcSize } } } },
                          ],
                      },
                  },
                  { provider, transforms, ...(deleteBeforeReplace === undefined ? {} : { deleteBeforeReplace }) },
              ),
              new k8s.core.v1.ConfigMap("settings", { metadata: { name: "broker-settings", namespace }, data: { settings: values.settings } }, { provider }),
          ];

const layout = new ClusterScale(
    "cluster",
    {
        managementUrl: config.require("managementUrl"),
        gatewayUrl: config.require("gatewayUrl"),
        kubernetes: config.requireSecretObject<{ namespace: string; statefulSet: string; kubeconfig: string }>("route"),
        brokerCount: config.requireNumber("brokerCount"),
        partitionCount: 3,
        replicationFactor: 3,
        timeoutSeconds: 120,
    },
    { dependsOn: brokers },
);

export const brokerCount = layout.topology.apply((topology) => topology.length);
