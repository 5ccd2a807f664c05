// pulumi-platform/kubernetes's transform: the brokers' StatefulSet ignores changes of spec.replicas (ClusterScale owns
// the count) and is never deleted before its replacement, every other resource of the chart is left as it is.
/* eslint-disable @typescript-eslint/no-explicit-any -- a declared StatefulSet, edited field by field */
import * as assert from "assert";
import * as pulumi from "@pulumi/pulumi";
import { leaveBrokerReplicasToClusterScale } from "../../kubernetes";
import type { ResourceRules } from "../emulator/workloadApi";
import { BROKER_NAMESPACE, BROKER_STATEFUL_SET, type BrokerPods, startBrokerPods } from "../support/brokerPods";
import { useEmulator } from "../support/emulator";

/** A kubeconfig whose API server refuses connections: the look at the live StatefulSet finds nothing. */
const NO_API_SERVER =
    "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:1\ncontexts:\n- name: c\n  context:\n    cluster: c\n    user: u\ncurrent-context: c\nusers:\n- name: u\n  user:\n    token: t\n";

describe("pulumi-platform/kubernetes: leaveBrokerReplicasToClusterScale", () => {
    const transform = leaveBrokerReplicasToClusterScale("camunda-zeebe", { kubeconfig: NO_API_SERVER });
    const args = (type: string, name: string, opts: pulumi.CustomResourceOptions = {}) =>
        ({
            type,
            name: `camunda:${name}`,
            props: { metadata: { name }, spec: { replicas: 3 } },
            opts,
            custom: true,
        }) as unknown as pulumi.ResourceTransformArgs;

    it("gives the brokers' StatefulSet ignoreChanges on spec.replicas, create-before-delete and the annotation that says so, keeping its other options and props", async () => {
        const result = await transform(args("kubernetes:apps/v1:StatefulSet", "camunda-zeebe", { ignoreChanges: ["metadata.labels"], protect: true }));
        assert.ok(result);
        // The StatefulSet is marked: ClusterScale's preview knows the program leaves it the count.
        assert.deepStrictEqual(result.props, {
            metadata: { name: "camunda-zeebe", annotations: { "pulumi-platform/replicas": "ClusterScale" } },
            spec: { replicas: 3 },
        });
        assert.deepStrictEqual(result.opts?.ignoreChanges, ["metadata.labels", "spec.replicas"]);
        assert.strictEqual(result.opts?.protect, true);
        assert.strictEqual((result.opts as pulumi.CustomResourceOptions).deleteBeforeReplace, false);
    });

    it("refuses the program's deleteBeforeReplace: true on the brokers' StatefulSet alone, naming the option and why", async () => {
        const asked = { deleteBeforeReplace: true };
        await assert.rejects(
            async () => transform(args("kubernetes:apps/v1:StatefulSet", "camunda-zeebe", asked)),
            /^Error: StatefulSet camunda-zeebe: deleteBeforeReplace: true is refused \(leaveBrokerReplicasToClusterScale\): deleting it first would stop every broker at once/,
        );
        assert.strictEqual(await transform(args("kubernetes:apps/v1:StatefulSet", "camunda-elasticsearch", asked)), undefined);
    });

    it("leaves other StatefulSets and other kinds alone", async () => {
        assert.strictEqual(await transform(args("kubernetes:apps/v1:StatefulSet", "camunda-elasticsearch")), undefined);
        assert.strictEqual(await transform(args("kubernetes:core/v1:Service", "camunda-zeebe")), undefined);
    });
});

describe("pulumi-platform/kubernetes: leaveBrokerReplicasToClusterScale names a change Kubernetes cannot make in place, read from the live StatefulSet", function () {
    this.timeout(30_000);
    const emulator = useEmulator({ brokers: 3, partitions: 3, replicationFactor: 3, opMs: 10 });
    let pods: BrokerPods | undefined;
    afterEach(async () => {
        await pods?.stop();
        pods = undefined;
    });

    /** The stand-in's StatefulSet (3 brokers) and a transform that reads it with a user allowed `rules`. */
    async function standIn(options: { claimTemplateSpec?: object; rules?: ResourceRules } = {}) {
        pods = await startBrokerPods(emulator().control, {
            replicas: 3,
            ...(options.claimTemplateSpec ? { claimTemplateSpec: options.claimTemplateSpec } : {}),
        });
        const user = pods.user(options.rules ?? { statefulsets: ["get"] }, "deployer");
        return { transform: leaveBrokerReplicasToClusterScale(BROKER_STATEFUL_SET, { kubeconfig: user.kubeconfig }), user, pods };
    }
    /** The stand-in's StatefulSet as a program declares it, with `change` applied to its spec. */
    const declared = (change: (spec: Record<string, any>) => void = () => {}) => {
        const spec: Record<string, any> = {
            replicas: 3,
            serviceName: `${BROKER_STATEFUL_SET}-headless`,
            podManagementPolicy: "Parallel",
            selector: { matchLabels: { "app.kubernetes.io/component": "zeebe-broker" } },
            template: {
                metadata: { labels: { "app.kubernetes.io/component": "zeebe-broker" } },
                spec: { containers: [{ name: "zeebe", image: "camunda/camunda:8.9.17" }] },
            },
            volumeClaimTemplates: [{ metadata: { name: "data" }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } } }],
        };
        change(spec);
        return {
            type: "kubernetes:apps/v1:StatefulSet",
            name: `brokers:${BROKER_NAMESPACE}/${BROKER_STATEFUL_SET}`,
            props: { metadata: { name: BROKER_STATEFUL_SET, namespace: BROKER_NAMESPACE }, spec },
            opts: {},
            custom: true,
        } as unknown as pulumi.ResourceTransformArgs;
    };
    async function refusal(transform: pulumi.ResourceTransform, args: pulumi.ResourceTransformArgs): Promise<string> {
        const before = JSON.stringify(pods!.workloads.statefulSet());
        const error = await Promise.resolve(transform(args)).then(
            () => assert.fail("the transform passed"),
            (thrown: Error) => thrown,
        );
        assert.equal(JSON.stringify(pods!.workloads.statefulSet()), before, "the StatefulSet changed");
        return error.message;
    }

    it("the PVC size: refused before anything changes, naming the field, the brokers, the claims to expand and the orphaning way", async () => {
        const { transform, user } = await standIn();
        const message = await refusal(
            transform,
            declared((spec) => (spec.volumeClaimTemplates[0].spec.resources.requests.storage = "2Gi")),
        );
        assert.match(message, /^StatefulSet platform-zeebe would be replaced, and leaveBrokerReplicasToClusterScale refuses that before anything changes: /);
        assert.match(
            message,
            /Kubernetes cannot update spec\.volumeClaimTemplates\[data\]\.resources\.requests\.storage 1Gi → 2Gi in place \(live as read from https:\/\/127\.0\.0\.1:\d+/,
        );
        assert.match(
            message,
            /all 3 brokers would stop at once while they hold partition replicas, and the new one would start at the program's count, not the layout's 3/,
        );
        assert.match(
            message,
            /To give the brokers 2Gi, expand their claims in place, one at a time \(the storage class must allow volume expansion\), data-platform-zeebe-0 to data-platform-zeebe-2: /,
        );
        assert.ok(
            message.includes(`kubectl -n camunda patch pvc data-platform-zeebe-<ordinal> -p '{"spec":{"resources":{"requests":{"storage":"2Gi"}}}}'`),
            message,
        );
        assert.match(
            message,
            /Keep the template's size\. To change the template all the same, delete the StatefulSet keeping its pods \(kubectl -n camunda delete statefulset platform-zeebe --cascade=orphan\)/,
        );
        assert.ok(!message.includes(user.token), "the token is in the message");
    });

    it("serviceName, podManagementPolicy (left out: OrderedReady), the selector and another template: each named", async () => {
        const { transform } = await standIn();
        const cases: [(spec: Record<string, any>) => void, string][] = [
            [(spec) => (spec.serviceName = "zeebe-brokers"), "spec.serviceName platform-zeebe-headless → zeebe-brokers"],
            [(spec) => delete spec.podManagementPolicy, "spec.podManagementPolicy Parallel → OrderedReady"],
            [
                (spec) => (spec.selector.matchLabels.tier = "brokers"),
                "spec.selector.matchLabels app.kubernetes.io/component=zeebe-broker → app.kubernetes.io/component=zeebe-broker,tier=brokers",
            ],
            [(spec) => spec.volumeClaimTemplates.push({ metadata: { name: "logs" }, spec: {} }), "spec.volumeClaimTemplates data → data, logs"],
            [(spec) => (spec.volumeClaimTemplates[0].spec.storageClassName = "fast"), "spec.volumeClaimTemplates[data].storageClassName (none) → fast"],
        ];
        for (const [change, named] of cases) {
            const message = await refusal(transform, declared(change));
            assert.ok(message.includes(`Kubernetes cannot update ${named} in place`), message);
            assert.match(message, /To change such a field all the same, delete the StatefulSet keeping its pods/);
            assert.ok(!message.includes("expand their claims"), message);
        }
    });

    it("what the API server fills in or writes its own way is no change: 1024Mi for 1Gi, volumeMode Filesystem, a template field left out", async () => {
        const { transform } = await standIn({
            claimTemplateSpec: { accessModes: ["ReadWriteOnce"], volumeMode: "Filesystem", resources: { requests: { storage: "1Gi" } } },
        });
        const result = await transform(declared((spec) => (spec.volumeClaimTemplates[0].spec.resources.requests.storage = "1024Mi")));
        assert.equal((result?.opts as pulumi.CustomResourceOptions).deleteBeforeReplace, false);
        assert.ok(await transform(declared((spec) => delete spec.volumeClaimTemplates[0].spec.accessModes)));
        assert.ok(await transform(declared((spec) => (spec.template.spec.containers[0].image = "camunda/camunda:8.9.18"))));
    });

    it("the live StatefulSet left out of the answer's volume claim details (another API server's form): only what it gives is compared", async () => {
        const { transform } = await standIn({ claimTemplateSpec: {} });
        const message = await refusal(transform, declared());
        assert.ok(message.includes("spec.volumeClaimTemplates[data].resources.requests.storage (none) → 1Gi"), message);
    });

    it("a value still an Output, no StatefulSet yet, a user who may not read it, an API server that does not answer: no look, the transform goes on", async () => {
        const { transform, pods: standInPods } = await standIn();
        assert.ok(await transform(declared((spec) => (spec.volumeClaimTemplates[0].spec.resources.requests.storage = pulumi.output("2Gi")))));
        const elsewhere = declared((spec) => (spec.serviceName = "zeebe-brokers"));
        (elsewhere.props.metadata as { namespace: string }).namespace = "other";
        assert.ok(await transform(elsewhere));
        const viewer = standInPods.user({ pods: ["get"] }, "no-statefulsets");
        const unread = leaveBrokerReplicasToClusterScale(BROKER_STATEFUL_SET, { kubeconfig: viewer.kubeconfig });
        assert.ok(await unread(declared((spec) => (spec.serviceName = "zeebe-brokers"))));
        await standInPods.server.stop();
        assert.ok(await transform(declared((spec) => (spec.serviceName = "zeebe-brokers"))));
    });
});
