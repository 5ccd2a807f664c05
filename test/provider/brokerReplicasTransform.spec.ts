// pulumi-platform/kubernetes's transform: the brokers' StatefulSet ignores changes of spec.replicas (ClusterScale owns
// the count) and is never deleted before its replacement, every other resource of the chart is left as it is.
import * as assert from "assert";
import type * as pulumi from "@pulumi/pulumi";
import { leaveBrokerReplicasToClusterScale } from "../../kubernetes";

describe("pulumi-platform/kubernetes: leaveBrokerReplicasToClusterScale", () => {
    const transform = leaveBrokerReplicasToClusterScale("camunda-zeebe");
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
