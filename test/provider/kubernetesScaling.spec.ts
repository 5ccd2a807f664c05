// BrokerStatefulSetScaling under Pulumi mocks: which resources the engine would receive, in which order, waiting
// for what, with which replica counts. The ClusterScale's provider is serialized for real (the mocks only stand
// in for the engine and the cluster), so a serialization failure fails these tests instead of hanging them.
import * as assert from "assert";
import * as pulumi from "@pulumi/pulumi";
import * as k8s from "@pulumi/kubernetes";
import { BrokerStatefulSetScaling, type BrokerStatefulSetScalingArgs } from "../../provider/kubernetes/resource";
import type { ClusterScaleArgs } from "../../provider/clusterScale/resource";
import { CLUSTER_SCALE, KubernetesMocks, STATEFUL_SET, STATEFUL_SET_PATCH, nameOf, settle, valueOf } from "./kubernetesMocks";

interface PatchInputs {
    metadata: { namespace: string; name: string; annotations: Record<string, string> };
    spec: { replicas: number };
}

describe("BrokerStatefulSetScaling (Pulumi mocks)", () => {
    const mocks = new KubernetesMocks();
    before(() => mocks.install());

    /** Creates the component for a StatefulSet with `current` replicas; every test uses its own names. */
    function scaling(name: string, current: number, layout: BrokerStatefulSetScalingArgs["clusterScale"], opts?: pulumi.ComponentResourceOptions) {
        const statefulSet = `${name}-zeebe`;
        mocks.setLiveReplicas(statefulSet, current);
        return new BrokerStatefulSetScaling(name, { statefulSet: { namespace: "camunda", name: statefulSet }, clusterScale: layout }, opts);
    }

    async function deployed(component: BrokerStatefulSetScaling) {
        await Promise.all([valueOf(component.grow.urn), valueOf(component.clusterScale.urn), valueOf(component.shrink.urn)]);
        const name = nameOf(await valueOf(component.urn));
        return {
            current: await valueOf(component.currentReplicas),
            target: await valueOf(component.targetReplicas),
            grow: mocks.registration(`${name}-grow`).inputs as unknown as PatchInputs,
            shrink: mocks.registration(`${name}-shrink`).inputs as unknown as PatchInputs,
        };
    }

    /** Names of the resources the named one waits for. */
    function waitsFor(name: string): string[] {
        return mocks.registration(name).dependencies.map(nameOf);
    }

    function assertOrderedChain(name: string): void {
        const [read, grow, layout, shrink] = [`${name}-current`, `${name}-grow`, `${name}-layout`, `${name}-shrink`];
        assert.ok(waitsFor(grow).includes(read), `grow waits for the live read: ${waitsFor(grow)}`);
        assert.ok(waitsFor(layout).includes(grow), `the layout change waits for grow: ${waitsFor(layout)}`);
        assert.ok(waitsFor(shrink).includes(layout), `shrink waits for the layout change: ${waitsFor(shrink)}`);
        assert.ok(!waitsFor(grow).some((dep) => dep === layout || dep === shrink), "grow waits for nothing after it");
        assert.ok(!waitsFor(layout).includes(shrink), "the layout change does not wait for shrink");
        // What the engine saw: each step was received only after the one before it had finished.
        const at = (event: string) => mocks.events.indexOf(event);
        assert.ok(at(`done:${read}`) < at(`request:${grow}`), mocks.events.join(" "));
        assert.ok(at(`done:${grow}`) < at(`request:${layout}`), mocks.events.join(" "));
        assert.ok(at(`done:${layout}`) < at(`request:${shrink}`), mocks.events.join(" "));
    }

    it("scale-up: starts the new brokers before the layout change names them", async () => {
        const component = scaling("up", 3, { brokerCount: 5, managementUrl: "http://127.0.0.1:9600" });
        const { current, target, grow, shrink } = await deployed(component);

        assert.deepStrictEqual({ current, target, grow: grow.spec.replicas, shrink: shrink.spec.replicas }, { current: 3, target: 5, grow: 5, shrink: 5 });
        assertOrderedChain("up");
        const layout = mocks.registration("up-layout");
        assert.strictEqual(layout.type, CLUSTER_SCALE);
        assert.strictEqual(layout.inputs.brokerCount, 5);
        assert.strictEqual(layout.inputs.managementUrl, "http://127.0.0.1:9600");
        assert.ok(typeof layout.inputs.__provider === "string" && layout.inputs.__provider.length > 0, "the ClusterScale provider was serialized");
        assert.match(await valueOf(component.urn), /platform:kubernetes:BrokerStatefulSetScaling::up$/);
    });

    it("scale-up: the layout change is not sent while the new brokers are still starting", async () => {
        const release = mocks.hold("held-up-grow");
        const component = scaling("held-up", 3, { brokerCount: 5 });
        await mocks.requested("held-up-grow");
        await settle();
        assert.ok(!mocks.events.includes("request:held-up-layout"), `layout change sent before grow finished: ${mocks.events.join(" ")}`);

        release();
        const { grow } = await deployed(component);
        assert.strictEqual(grow.spec.replicas, 5);
        assertOrderedChain("held-up");
    });

    it("scale-down: keeps every broker running until the layout change has completed", async () => {
        const component = scaling("down", 5, { brokers: [0, 1, 2] });
        const { current, target, grow, shrink } = await deployed(component);

        assert.deepStrictEqual({ current, target, grow: grow.spec.replicas, shrink: shrink.spec.replicas }, { current: 5, target: 3, grow: 5, shrink: 3 });
        assertOrderedChain("down");
    });

    it("scale-down: the removed brokers are not stopped while the layout change is running", async () => {
        const release = mocks.hold("held-down-layout");
        const component = scaling("held-down", 5, { brokerCount: 3 });
        await mocks.requested("held-down-layout");
        await settle();
        assert.ok(!mocks.events.includes("request:held-down-shrink"), `shrink sent before the layout change finished: ${mocks.events.join(" ")}`);

        release();
        const { shrink } = await deployed(component);
        assert.strictEqual(shrink.spec.replicas, 3);
        assertOrderedChain("held-down");
    });

    it("no change: both patches set the current count", async () => {
        const { current, target, grow, shrink } = await deployed(scaling("same", 3, { brokerCount: 3, partitionCount: 6 }));
        assert.deepStrictEqual({ current, target, grow: grow.spec.replicas, shrink: shrink.spec.replicas }, { current: 3, target: 3, grow: 3, shrink: 3 });
        assertOrderedChain("same");
    });

    it("a sparse broker list keeps the StatefulSet up to its highest broker id", async () => {
        const gap = await deployed(scaling("gap", 5, { brokers: [0, 1, 2, 4] }));
        assert.deepStrictEqual({ target: gap.target, grow: gap.grow.spec.replicas, shrink: gap.shrink.spec.replicas }, { target: 5, grow: 5, shrink: 5 });

        const lower = await deployed(scaling("gap-lower", 5, { brokers: [0, 2] }));
        assert.deepStrictEqual({ target: lower.target, grow: lower.grow.spec.replicas, shrink: lower.shrink.spec.replicas }, { target: 3, grow: 5, shrink: 3 });
    });

    it("patches take .spec.replicas of the named StatefulSet over and are kept on delete", async () => {
        const { grow, shrink } = await deployed(scaling("owned", 3, { brokerCount: 4 }));
        for (const [step, patch] of [
            ["grow", grow],
            ["shrink", shrink],
        ] as const) {
            assert.deepStrictEqual(patch.metadata, { namespace: "camunda", name: "owned-zeebe", annotations: { "pulumi.com/patchForce": "true" } }, step);
            assert.deepStrictEqual(Object.keys(patch.spec), ["replicas"], `${step} sets nothing but the replica count`);
            const registration = mocks.registration(`owned-${step}`);
            assert.strictEqual(registration.type, STATEFUL_SET_PATCH);
            assert.strictEqual(registration.retainOnDelete, true, `${step} is retained on delete`);
        }
        const read = mocks.registration("owned-current");
        assert.deepStrictEqual({ kind: read.kind, type: read.type }, { kind: "read", type: STATEFUL_SET });
    });

    it("passes a Kubernetes provider to the Kubernetes resources, not to the ClusterScale", async () => {
        const provider = new k8s.Provider("cluster-b", { namespace: "camunda" });
        const providerUrn = await valueOf(provider.urn);
        await deployed(scaling("via-provider", 3, { brokerCount: 3 }, { provider }));

        for (const name of ["via-provider-current", "via-provider-grow", "via-provider-shrink"]) {
            assert.ok(
                mocks.registration(name).provider.startsWith(`${providerUrn}::`),
                `${name} uses the given provider: ${mocks.registration(name).provider}`,
            );
        }
        assert.ok(!mocks.registration("via-provider-layout").provider.startsWith(providerUrn), "the ClusterScale keeps its own provider");
    });

    it("a Kubernetes route without a namespace reaches the management API in the StatefulSet's namespace", async () => {
        const component = scaling("route", 3, { brokerCount: 3, kubernetes: { service: "camunda-zeebe-gateway", gatewayPort: 8080 } });
        await deployed(component);
        const inputs = mocks.registration("route-layout").inputs as Record<string, unknown>;
        // A secret (it may hold a kubeconfig): the mocks see the engine's secret wrapper.
        assert.deepStrictEqual((inputs.kubernetes as { value: unknown }).value, { service: "camunda-zeebe-gateway", gatewayPort: 8080, namespace: "camunda" });
    });

    it("reads the StatefulSet only after what the component depends on", async () => {
        const chart = new k8s.core.v1.Namespace("chart-stand-in", { metadata: { name: "camunda" } });
        await deployed(scaling("after-chart", 3, { brokerCount: 3 }, { dependsOn: chart }));
        assert.ok(waitsFor("after-chart-current").includes("chart-stand-in"), `${waitsFor("after-chart-current")}`);
    });

    it("refuses a broker list one StatefulSet cannot run before registering anything", () => {
        const refused: Array<[ClusterScaleArgs, RegExp]> = [
            [{ brokers: [0, 1, 2], brokerCount: 3 }, /"refused": give either brokers or brokerCount, not both/],
            [{ brokerCount: 0 }, /"refused": brokerCount is 0/],
            [{ brokers: [0, -1] }, /"refused": brokers\[1\] is -1: every broker id must be an integer ≥ 0/],
        ];
        for (const [layout, reason] of refused) {
            assert.throws(() => scaling("refused", 3, layout), reason);
        }
        assert.ok(![...mocks.registrations.keys()].some((name) => name.startsWith("refused")), "nothing was registered");
    });
});
